package sarif

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"testing"
)

// TestGzipSize checks that gzipSize is exact up to the limit and above it whenever the real size
// is, on text that compresses well and text that does not, larger than several chunks.
func TestGzipSize(t *testing.T) {
	var easy, hard bytes.Buffer
	for i := 0; easy.Len() < 3*gzipChunk; i++ {
		fmt.Fprintf(&easy, `{"ruleId":"gate/rule","line":%d}`+"\n", i)
	}
	for i := uint32(1); hard.Len() < 5*gzipChunk; i++ {
		fmt.Fprintf(&hard, "%08x", i*2654435761)
	}
	for name, data := range map[string][]byte{"easy": easy.Bytes(), "hard": hard.Bytes()} {
		var zb bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&zb, gzip.DefaultCompression)
		_, _ = zw.Write(data)
		_ = zw.Close()
		real := zb.Len()
		for _, limit := range []int{0, 1, real / 3, real - 1, real, real + 1, 2 * len(data)} {
			got, err := gzipSize(data, limit)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case limit <= 0 || limit >= real:
				if got > limit && limit > 0 || limit <= 0 && got != real {
					t.Errorf("%s, limit %d: size %d, real %d", name, limit, got, real)
				}
			case got <= limit:
				t.Errorf("%s, limit %d: size %d fits, but the real size is %d", name, limit, got, real)
			}
		}
	}
}
