// Package actionslog is the one writer of what agc-sarif prints on stdout and stderr, made safe
// for the GitHub Actions runner. The runner reads every line of a step's output as a possible
// workflow command: "::cmd::data" after any Unicode white space at the line's start, and the
// older "##[cmd]data" anywhere in a line. Agent-written text (file names, records, messages)
// reaches these streams, so every text line is escaped (Line), and inside GitHub Actions each
// stretch of text is also wrapped in "::stop-commands::<random token>" … "::<token>::", GitHub's
// documented defence for untrusted output. Our own workflow commands (annotations, add-mask) go
// through Commands, which closes any open stretch first, so they are never swallowed by it.
package actionslog

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// maxLine is the longest line buffered; a longer one is broken into lines of this size.
const maxLine = 64 << 10

// Log writes a step's stdout and stderr. At most one stop-commands stretch is open at a time,
// because the runner keeps one stop state for both streams. Safe for concurrent use.
type Log struct {
	mu      sync.Mutex
	actions bool          // wrap text in stop-commands stretches
	token   func() string // makes a stop-commands token
	out     *stream
	err     *stream
	cmds    *stream
	open    *stream // the stream whose stretch is open, or nil
	tok     string  // the open stretch's token
}

type stream struct {
	log     *Log
	w       io.Writer
	pipe    int // 1 stdout, 2 stderr: which of the runner's two readers gets it
	buf     []byte
	command bool // our workflow commands: never wrapped
}

// New makes the Log of a process whose stdout and stderr are given; inActions (GITHUB_ACTIONS is
// "true") turns on stop-commands stretches.
func New(stdout, stderr io.Writer, inActions bool) *Log {
	l := &Log{actions: inActions, token: randomToken}
	l.out = &stream{log: l, w: stdout, pipe: 1}
	l.err = &stream{log: l, w: stderr, pipe: 2}
	l.cmds = &stream{log: l, w: stdout, pipe: 1, command: true}
	return l
}

// Stdout is the writer for text on stdout: each line escaped, wrapped in Actions.
func (l *Log) Stdout() io.Writer { return l.out }

// Stderr is the writer for text on stderr: each line escaped, wrapped in Actions.
func (l *Log) Stderr() io.Writer { return l.err }

// Commands is the writer for our own workflow commands on stdout (go-githubactions writes here):
// any open stretch is closed first, and each line keeps its "::" start while hidden characters
// and "##[" in it are escaped.
func (l *Log) Commands() io.Writer { return l.cmds }

// Data writes b, a JSON document, to stdout unchanged in meaning: "##[" becomes "##\u005b" and
// hidden characters become \u escapes (JSON allows neither outside strings, so both are inside
// strings), so no line of it is a workflow command. It is not wrapped: stdout may be a file or a
// pipe to another program, which must get the JSON alone.
func (l *Log) Data(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.closeStretch(); err != nil { // on its own stream only: stdout gets the JSON alone
		return err
	}
	_, err := l.out.w.Write(JSON(b))
	return err
}

// Close writes every partial line and closes an open stretch.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var first error
	for _, s := range []*stream{l.out, l.err, l.cmds} {
		if len(s.buf) > 0 {
			if err := s.emit(s.buf); err != nil && first == nil {
				first = err
			}
			s.buf = s.buf[:0]
		}
	}
	if err := l.closeStretch(); err != nil && first == nil {
		first = err
	}
	return first
}

// Write buffers p and writes every complete line.
func (s *stream) Write(p []byte) (int, error) {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 && len(s.buf) < maxLine {
			break
		}
		n := i + 1
		if i < 0 || i >= maxLine {
			n = maxLine
		}
		line := s.buf[:n]
		if err := s.emit(line); err != nil {
			return len(p), err
		}
		s.buf = s.buf[n:]
	}
	if len(s.buf) == 0 {
		s.buf = nil
	}
	return len(p), nil
}

// emit writes one line (with or without its newline; a missing one is added when more follows).
func (s *stream) emit(line []byte) error {
	l := s.log
	text := strings.TrimSuffix(string(line), "\n")
	if s.command {
		if err := l.closeStretchFor(s); err != nil {
			return err
		}
		_, err := io.WriteString(s.w, commandLine(text)+"\n")
		return err
	}
	if l.actions && l.open != s {
		if err := l.closeStretchFor(s); err != nil {
			return err
		}
		l.tok = l.token()
		l.open = s
		if _, err := io.WriteString(s.w, "::stop-commands::"+l.tok+"\n"); err != nil {
			return err
		}
	}
	_, err := io.WriteString(s.w, Line(text)+"\n")
	return err
}

// closeStretch ends the open stop-commands stretch, if any, on the stream that opened it.
func (l *Log) closeStretch() error { return l.closeStretchFor(nil) }

// closeStretchFor ends the open stretch before next writes on its own writer. When next is
// another pipe, the resume is written on both: the runner reads stdout and stderr on two
// threads (stderr's lines first in each batch), so the resume on the stretch's own stream may
// reach it after next's lines. The copy on next makes sure next's commands are never swallowed
// by the stretch; in the usual order it arrives after the real resume, names no registered
// command, and is printed as a plain (masked) line.
func (l *Log) closeStretchFor(next *stream) error {
	if l.open == nil {
		return nil
	}
	s := l.open
	l.open = nil
	resume := "::" + l.tok + "::\n"
	if _, err := io.WriteString(s.w, resume); err != nil {
		return err
	}
	if next != nil && next.pipe != s.pipe {
		_, err := io.WriteString(next.w, resume)
		return err
	}
	return nil
}

// Line escapes one line of text for a step's log: hidden characters (controls, bidi and other
// format characters) become visible escapes, "##[" becomes "##\[", and a line that would start
// with "::" after white space gets the prefix "[inert] ". A newline inside s is escaped too.
func Line(s string) string {
	s = commandLine(s)
	if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
		s = "[inert] " + s
	}
	return s
}

// commandLine escapes the data of one of our command lines as Line does, keeping its "::" start.
func commandLine(s string) string {
	s = strings.ReplaceAll(visible.String(s), "\n", `\n`)
	return strings.ReplaceAll(s, "##[", `##\[`)
}

// JSON escapes a JSON document for a step's log without changing what it decodes to.
func JSON(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b))
	for _, r := range string(b) {
		switch {
		case r == '[' && bytes.HasSuffix(out.Bytes(), []byte("##")):
			out.WriteString(`\u005b`)
		case r >= 0x80 && visible.Hidden(r):
			writeJSONEscape(&out, r)
		default:
			out.WriteRune(r)
		}
	}
	return out.Bytes()
}

func writeJSONEscape(out *bytes.Buffer, r rune) {
	const hexd = "0123456789abcdef"
	u := func(v rune) {
		out.WriteString(`\u`)
		for sh := 12; sh >= 0; sh -= 4 {
			out.WriteByte(hexd[(v>>sh)&0xf])
		}
	}
	if r > 0xffff {
		r -= 0x10000
		u(0xd800 + (r >> 10))
		u(0xdc00 + (r & 0x3ff))
		return
	}
	u(r)
}

// randomToken is a stop-commands token no agent can guess: 128 random bits in hex.
func randomToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error()) // never fails on supported platforms
	}
	return hex.EncodeToString(b)
}
