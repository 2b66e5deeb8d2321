package sarif

import (
	"compress/gzip"
	"fmt"
)

// countWriter counts bytes written to it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// gzipChunk is how much is compressed between two looks at the output size.
const gzipChunk = 256 << 10

// gzipSize is the size of data gzipped as GitHub's uploader does it (default compression). It
// skips the work when data obviously fits: raw bytes plus gzip's worst-case overhead under the
// limit, or a fast compression under it (default compression is never larger in practice). With
// a limit > 0 it stops compressing once the output has passed the limit, and returns the size
// extrapolated to the whole of data: a result over the limit may be an estimate.
func gzipSize(data []byte, limit int) (int, error) {
	if limit > 0 && len(data)+len(data)/1000+1024 <= limit {
		return len(data), nil
	}
	if limit > 0 {
		n, err := gzipUpTo(data, gzip.BestSpeed, limit)
		if err != nil || n <= limit {
			return n, err
		}
	}
	return gzipUpTo(data, gzip.DefaultCompression, limit)
}

// gzipUpTo is the size of data gzipped at level; with limit > 0, once the output passes limit
// before the end of data, the size extrapolated from the part compressed so far.
func gzipUpTo(data []byte, level, limit int) (int, error) {
	var c countWriter
	zw, err := gzip.NewWriterLevel(&c, level)
	if err != nil {
		return 0, fmt.Errorf("measuring gzip size: %w", err)
	}
	for off := 0; off < len(data); off += gzipChunk {
		end := min(off+gzipChunk, len(data))
		if _, err := zw.Write(data[off:end]); err != nil {
			return 0, fmt.Errorf("measuring gzip size: %w", err)
		}
		if limit > 0 && c.n > limit && end < len(data) {
			return int(float64(c.n) * float64(len(data)) / float64(end)), nil
		}
	}
	if err := zw.Close(); err != nil {
		return 0, fmt.Errorf("measuring gzip size: %w", err)
	}
	return c.n, nil
}
