package sarif

import (
	"compress/gzip"
	"fmt"
)

// countWriter counts bytes written to it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// gzipSize is the size of data gzipped as GitHub's uploader does it (default compression). It
// skips the work when data obviously fits: raw bytes plus gzip's worst-case overhead under the
// limit, or a fast compression under it (default compression is never larger in practice).
func gzipSize(data []byte, limit int) (int, error) {
	if len(data)+len(data)/1000+1024 <= limit {
		return len(data), nil
	}
	n, err := gzipLen(data, gzip.BestSpeed)
	if err != nil || n <= limit {
		return n, err
	}
	return gzipLen(data, gzip.DefaultCompression)
}

func gzipLen(data []byte, level int) (int, error) {
	var c countWriter
	zw, err := gzip.NewWriterLevel(&c, level)
	if err != nil {
		return 0, fmt.Errorf("measuring gzip size: %w", err)
	}
	if _, err := zw.Write(data); err != nil {
		return 0, fmt.Errorf("measuring gzip size: %w", err)
	}
	if err := zw.Close(); err != nil {
		return 0, fmt.Errorf("measuring gzip size: %w", err)
	}
	return c.n, nil
}
