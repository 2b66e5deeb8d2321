package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// Bytes of each stream the record keeps by default; the hook and its caller see every byte.
// A hook's answer is a few KiB at most; its stdin carries the tool call (a file written, a
// tool's output) and can run to megabytes.
const (
	DefaultKeepOutput = 1 << 20 // stdout and stderr each
	DefaultKeepInput  = 4 << 20 // stdin
)

// kept is the start of a stream, up to a bound, with the whole stream's size and, once the
// bound is passed, its SHA-256. Memory stays at the bound however long the stream runs.
type kept struct {
	limit int
	head  []byte
	size  int64
	sum   hash.Hash // nil until the stream passes limit, so short streams are never hashed
}

// add takes the next bytes of the stream.
func (k *kept) add(p []byte) {
	k.size += int64(len(p))
	if room := k.limit - len(k.head); room > 0 {
		if len(k.head) < LowGCAt && len(k.head)+min(room, len(p)) >= LowGCAt {
			lowGC()
		}
		k.head = append(k.head, p[:min(room, len(p))]...)
		p = p[min(room, len(p)):]
	}
	if len(p) == 0 {
		return
	}
	if k.sum == nil {
		k.sum = sha256.New()
		k.sum.Write(k.head)
	}
	k.sum.Write(p)
}

// result returns the kept bytes and, when the stream was cut, what was cut. A cut never
// splits a UTF-8 character, so text stays text.
func (k *kept) result() ([]byte, *hooklog.Cut) {
	if k.sum == nil {
		return k.head, nil
	}
	head := cutRune(k.head)
	return head, &hooklog.Cut{Kept: int64(len(head)), Size: k.size, SHA256: hex.EncodeToString(k.sum.Sum(nil))}
}

// cutRune drops a UTF-8 character left incomplete at the end of b.
func cutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// tee passes every write on to out at once (streaming) and keeps the start of the stream.
// When out fails (its reader went away) the error is returned, so the hook's next write meets
// the broken pipe as it would without the recorder in between.
type tee struct {
	mu   sync.Mutex
	out  io.Writer
	k    kept
	gate <-chan struct{} // closed when out may be written to; nil = at once
}

func newTee(out io.Writer, limit int, gate <-chan struct{}) *tee {
	return &tee{out: out, k: kept{limit: limit}, gate: gate}
}

// Write implements io.Writer.
func (t *tee) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gate != nil {
		<-t.gate
		t.gate = nil
	}
	t.k.add(p)
	if t.out == nil {
		return len(p), nil
	}
	return t.out.Write(p)
}

// result returns the kept start of the stream and what was cut.
func (t *tee) result() ([]byte, *hooklog.Cut) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.k.result()
}

// stdinFeeder copies the recorder's stdin to the hook's stdin pipe and keeps its start. When
// the hook stops reading, the rest of stdin is still read so the log has its size and hash.
type stdinFeeder struct {
	mu   sync.Mutex
	k    kept
	done chan struct{}
}

// feed starts copying src to w in the background; w is closed at the end of src.
func feed(src io.Reader, w *os.File, limit int) *stdinFeeder {
	s := &stdinFeeder{done: make(chan struct{}), k: kept{limit: limit}}
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
				s.k.add(chunk[:n])
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

// result returns the stdin read so far (a copy while the copy still runs) and what was cut.
func (s *stdinFeeder) result() ([]byte, *hooklog.Cut) {
	s.mu.Lock()
	defer s.mu.Unlock()
	head, cut := s.k.result()
	select {
	case <-s.done:
		return head, cut
	default:
		return bytes.Clone(head), cut
	}
}
