package sarif

import (
	"compress/gzip"
	"fmt"
	"io"
)

// countWriter counts bytes written to it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// gzipSize is the size of data gzipped as GitHub's uploader does (default compression). It skips
// the work when data obviously fits: raw bytes (plus gzip's overhead for stored blocks) under the
// limit, or a fast compression under it.
func gzipSize(data []byte, limit int) (int, error) {
	if len(data)+len(data)/1000+1024 <= limit {
		return len(data), nil
	}
	for _, level := range []int{gzip.BestSpeed, gzip.DefaultCompression} {
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
		if c.n <= limit || level == gzip.DefaultCompression {
			return c.n, nil
		}
	}
	return 0, io.ErrUnexpectedEOF // not reached
}
