package command

import (
	"bytes"
	"fmt"
	"io"
)

// inertWriter makes everything written through it inert for the GitHub Actions runner, which
// reads workflow commands from any line of a step's stdout and stderr that starts, after
// leading white space, with "::" (or the older "##["). Problems and tables name files and quote
// records that agents wrote, so a file called "x\n::error::…" must not become a command. Lines
// that would be read as a command get a visible "[inert] " prefix; control characters other
// than tab become \xNN escapes, so a carriage return or an escape sequence cannot hide text.
// It buffers one line at a time; call Flush at the end.
type inertWriter struct {
	w   io.Writer
	buf []byte
}

func newInertWriter(w io.Writer) *inertWriter { return &inertWriter{w: w} }

// Write buffers p and writes every complete line, made inert.
func (iw *inertWriter) Write(p []byte) (int, error) {
	iw.buf = append(iw.buf, p...)
	for {
		i := bytes.IndexByte(iw.buf, '\n')
		if i < 0 {
			break
		}
		if _, err := iw.w.Write(inertLine(iw.buf[:i+1])); err != nil {
			return len(p), err
		}
		iw.buf = iw.buf[i+1:]
	}
	if len(iw.buf) > 64<<10 { // a line without end: write what there is, inert
		_, err := iw.w.Write(inertLine(iw.buf))
		iw.buf = iw.buf[:0]
		return len(p), err
	}
	return len(p), nil
}

// Flush writes a last line that had no newline.
func (iw *inertWriter) Flush() error {
	if len(iw.buf) == 0 {
		return nil
	}
	_, err := iw.w.Write(inertLine(iw.buf))
	iw.buf = iw.buf[:0]
	return err
}

// inertLine escapes control characters and prefixes a line the runner would take as a command.
func inertLine(line []byte) []byte {
	body, nl := line, []byte(nil)
	if n := len(body); n > 0 && body[n-1] == '\n' {
		body, nl = body[:n-1], []byte{'\n'}
	}
	var out []byte
	trimmed := bytes.TrimLeft(body, " \t\v\f\u00a0")
	if bytes.HasPrefix(trimmed, []byte("::")) || bytes.HasPrefix(trimmed, []byte("##[")) {
		out = append(out, "[inert] "...)
	}
	for _, c := range body {
		if c < 0x20 && c != '\t' || c == 0x7f {
			out = append(out, fmt.Sprintf(`\x%02x`, c)...)
			continue
		}
		out = append(out, c)
	}
	return append(out, nl...)
}
