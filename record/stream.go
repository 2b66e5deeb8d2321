package record

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// tee passes every write on to out at once (streaming) and keeps a copy. It never fails: when
// out is gone the hook's output is still kept, so the hook is never blocked or killed by us.
type tee struct {
	mu  sync.Mutex
	out io.Writer
	buf bytes.Buffer
}

// Write implements io.Writer.
func (t *tee) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.out != nil {
		if _, err := t.out.Write(p); err != nil {
			t.out = nil // stop passing on; keep recording
		}
	}
	return len(p), nil
}

// Bytes returns what was written so far.
func (t *tee) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.Bytes()
}

// stdinFeeder copies the recorder's stdin to the hook's stdin pipe and keeps a copy. When the
// hook stops reading, the rest of stdin is still read (and kept) so the log holds all of it.
type stdinFeeder struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	done chan struct{}
}

// feed starts copying src to w in the background; w is closed at the end of src.
func feed(src io.Reader, w *os.File) *stdinFeeder {
	s := &stdinFeeder{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer w.Close()
		if src == nil {
			return
		}
		chunk := make([]byte, 64<<10)
		pipeOK := true
		for {
			n, err := src.Read(chunk)
			if n > 0 {
				s.mu.Lock()
				s.buf.Write(chunk[:n])
				s.mu.Unlock()
				if pipeOK {
					if _, werr := w.Write(chunk[:n]); werr != nil {
						pipeOK = false // the hook closed its stdin; keep reading for the log
						w.Close()
					}
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// Bytes returns the stdin read so far: the buffer itself once the copy has ended, else a copy.
func (s *stdinFeeder) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return s.buf.Bytes()
	default:
		return bytes.Clone(s.buf.Bytes())
	}
}
