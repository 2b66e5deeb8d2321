package runnercmd

import (
	"strings"
	"sync"
)

// Tape records what a program writes to its stdout and stderr in the order the lines are
// completed, as the runner receives them when each stream is read as it comes.
type Tape struct {
	mu    sync.Mutex
	lines []tapeLine
	part  map[string]string
	all   map[string]*strings.Builder
}

type tapeLine struct{ stream, text string }

// NewTape is an empty recording.
func NewTape() *Tape { return &Tape{part: map[string]string{}, all: map[string]*strings.Builder{}} }

// Writer is the writer of one stream ("stdout", "stderr") on the tape.
func (t *Tape) Writer(stream string) *TapeWriter { return &TapeWriter{t: t, stream: stream} }

// Text is everything written to stream.
func (t *Tape) Text(stream string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b := t.all[stream]; b != nil {
		return b.String()
	}
	return ""
}

// Replay feeds the recorded lines, in order, to a new Runner (a last line without its end too).
func (t *Tape) Replay() *Runner {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := New()
	n := map[string]int{}
	feed := func(stream, line string) {
		n[stream]++
		r.line(stream, n[stream], line)
	}
	for _, l := range t.lines {
		feed(l.stream, l.text)
	}
	for s, p := range t.part {
		if p != "" {
			feed(s, p)
		}
	}
	return r
}

// TapeWriter is one stream of a Tape.
type TapeWriter struct {
	t      *Tape
	stream string
}

// Write records p; complete lines (split as ReadLine splits) go on the tape at once.
func (w *TapeWriter) Write(p []byte) (int, error) {
	t := w.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.all[w.stream] == nil {
		t.all[w.stream] = &strings.Builder{}
	}
	t.all[w.stream].Write(p)
	s := t.part[w.stream] + string(p)
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 || (s[i] == '\r' && i+1 == len(s)) { // a "\r" may be the start of "\r\n"
			break
		}
		t.lines = append(t.lines, tapeLine{w.stream, s[:i]})
		if s[i] == '\r' && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	t.part[w.stream] = s
	return len(p), nil
}
