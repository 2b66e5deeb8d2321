package inputs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Record is one JSON value read from a JSON-lines stream: a line, or several lines of one
// pretty-printed value.
type Record struct {
	Line int    // 1-based line where the record starts
	Data []byte // the record's bytes; valid only during the callback
	// Problem is set when the record cannot be parsed as it stands: too long, cut short, or not
	// JSON at all. Data then holds what was read (possibly nothing, for a record too long).
	Problem string
	// Elided is set when the record was longer than the reader's window and string values in it
	// were cut to their first ElideKeep bytes (elide.go).
	Elided bool
}

// errTooLong marks a line longer than the record limit.
var errTooLong = errors.New("too long")

// lineReader reads lines of any length, keeping at most max bytes of each. With a window, a line
// longer than the window is not held whole: it is streamed through a skeleton (elide.go).
type lineReader struct {
	r      sliceReader
	max    int
	window int // 0: keep every line up to max whole
	line   int
	buf    []byte
	sk     skeleton
	elided bool // the last line was cut down to its skeleton
}

func newLineReader(r io.Reader, max, window int) *lineReader {
	if max <= 0 {
		max = DefaultMaxRecord
	}
	return &lineReader{r: lineSource(r), max: max, window: window}
}

// lineSource is what a line reader reads r through: r itself when it hands out slices of its
// own buffer (a window reader of a file, window.go; a bufio.Reader), else BufReader(r).
func lineSource(r io.Reader) sliceReader {
	if sr, ok := r.(sliceReader); ok {
		return sr
	}
	return BufReader(r)
}

// BufReader returns r itself when it is already buffered (collect sizes its buffer to the file,
// so a tiny file costs no 256 KiB buffer), else a 256 KiB buffered reader of it.
func BufReader(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok {
		return br
	}
	return bufio.NewReaderSize(r, 256<<10)
}

// next returns the next line without its newline (and without a trailing CR), its 1-based number,
// and errTooLong when the line was longer than max (its bytes are then discarded, not kept). It
// returns io.EOF after the last line. The line is valid until the next call.
func (lr *lineReader) next() ([]byte, int, error) {
	lr.buf = lr.buf[:0]
	lr.elided = false
	var (
		total int
		long  bool // past the window: only the skeleton is kept
		over  bool // past max: nothing is kept
	)
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if total == 0 && err == nil && len(chunk) <= lr.max+2 && (lr.window == 0 || len(chunk) <= lr.window) {
			// The whole line is in the reader's buffer: hand it out without copying. (A window
			// reader's buffer may hold a line longer than the window: it goes to the skeleton.)
			lr.line++
			if line := trimEOL(chunk); len(line) <= lr.max {
				return line, lr.line, nil
			}
			return nil, lr.line, errTooLong
		}
		total += len(chunk)
		switch {
		case over:
		case total > lr.max+2: // +2: the newline and a CR do not count
			over, long = true, false
			lr.buf = lr.buf[:0]
			lr.sk.reset()
		case long:
			lr.sk.write(chunk)
		case lr.window > 0 && total > lr.window:
			long = true
			lr.sk.reset()
			lr.sk.write(lr.buf)
			lr.sk.write(chunk)
			lr.buf = lr.buf[:0]
		default:
			lr.buf = grow(lr.buf, len(chunk))
			lr.buf = append(lr.buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && total == 0 {
			return nil, lr.line, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, lr.line, err
		}
		lr.line++
		if over {
			return nil, lr.line, errTooLong
		}
		if long {
			lr.elided = lr.sk.cuts > 0
			return trimEOL(lr.sk.out), lr.line, nil
		}
		if line := trimEOL(lr.buf); len(line) <= lr.max {
			return line, lr.line, nil
		}
		return nil, lr.line, errTooLong // the last line, without a newline, just over max
	}
}

// trimEOL drops a trailing newline and a CR before it.
func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// scanRecords splits a stream of JSON values — one per line, or pretty-printed over several lines
// and concatenated, as `jq` writes them — into records, and calls fn for each, in order. Blank
// lines are passed over. A value that never closes is reported as cut short when the next value
// starts at column 0 or the input ends. fn's error stops the scan and is returned.
func scanRecords(ctx context.Context, r io.Reader, max int, fn func(Record) error) error {
	return scanLines(ctx, r, max, 0, fn)
}

// ScanWindowed is scanRecords for readers that need only parts of long records: a line longer
// than ElideWindow reaches fn as its skeleton, with Elided set when strings in it were cut.
func ScanWindowed(ctx context.Context, r io.Reader, max int, fn func(Record) error) error {
	return scanLines(ctx, r, max, ElideWindow, fn)
}

// scanLines is scanRecords with a window (0: none).
func scanLines(ctx context.Context, r io.Reader, max, window int, fn func(Record) error) error {
	return scanFrom(ctx, r, max, window, 0, fn)
}

// scanFrom is scanLines over a stream whose first `passed` lines were already read (blank).
//
// A JSON string cannot hold a raw newline, so a value whose string is still open at the end of a
// line is cut there: it is reported as cut short at once, and the next line starts afresh. A
// value that is open outside a string (pretty-printed) goes on to the next line, unless that line
// starts a new value at column 0, which means the open one was cut short. So one cut record never
// hides the records after it.
func scanFrom(ctx context.Context, r io.Reader, max, window, passed int, fn func(Record) error) error {
	sc := &scanner{lr: newLineReader(r, max, window), fn: fn}
	sc.lr.line = passed
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line, num, err := sc.lr.next()
		switch {
		case err == io.EOF:
			return sc.flushCut()
		case err == errTooLong:
			if e := sc.flushCut(); e != nil {
				return e
			}
			if e := fn(Record{Line: num, Problem: fmt.Sprintf("line longer than the record limit of %d bytes; skipped", sc.lr.max)}); e != nil {
				return e
			}
			continue
		case err != nil:
			return fmt.Errorf("line %d: %w", num+1, err)
		}
		if err := sc.line(line, num); err != nil {
			return err
		}
	}
}

// Problems of records cut short.
const (
	cutNeverCloses = "the JSON value starting here is cut short (it never closes)"
	cutInString    = "the JSON value starting here is cut short: line %d ends inside a string, and a JSON string cannot hold a line break"
)

// scanner is the state of scanFrom between lines: the lines of a value still open. An open value
// is never inside a string between lines (a line ending inside one ends the value), so its
// bracket depth is all the state nest carries over.
type scanner struct {
	lr        *lineReader
	fn        func(Record) error
	acc       []byte // lines of a value still open; nil when none
	accLine   int
	accElided bool
	nest      jsonscan.Nesting
}

// reset forgets the open value.
func (sc *scanner) reset() { sc.acc, sc.nest = nil, jsonscan.Nesting{} }

// flushCut reports the open value, if any, as cut short.
func (sc *scanner) flushCut() error {
	if sc.acc == nil {
		return nil
	}
	rec := Record{Line: sc.accLine, Data: sc.acc, Problem: cutNeverCloses}
	sc.reset()
	return sc.fn(rec)
}

// line handles one line of the input.
func (sc *scanner) line(line []byte, num int) error {
	if sc.acc == nil {
		return sc.start(line, num)
	}
	// Inside an open value (never inside a string: that ends at the line that opened it).
	if len(line) > 0 && (line[0] == '{' || line[0] == '[') {
		if err := sc.flushCut(); err != nil {
			return err
		}
		return sc.start(line, num)
	}
	if len(sc.acc)+len(line)+1 > sc.lr.max {
		rec := Record{Line: sc.accLine, Problem: fmt.Sprintf("JSON value longer than the record limit of %d bytes; skipped", sc.lr.max)}
		sc.reset()
		return sc.fn(rec)
	}
	sc.acc = append(sc.acc, '\n')
	sc.acc = append(sc.acc, line...)
	sc.accElided = sc.accElided || sc.lr.elided
	sc.nest.Scan(line)
	switch {
	case sc.nest.InString:
		rec := Record{Line: sc.accLine, Data: sc.acc, Problem: fmt.Sprintf(cutInString, num)}
		sc.reset()
		return sc.fn(rec)
	case sc.nest.Depth <= 0:
		rec := Record{Line: sc.accLine, Data: bytes.TrimSpace(sc.acc), Elided: sc.accElided}
		sc.reset()
		return sc.fn(rec)
	}
	return nil
}

// start handles a line read when no value is open: a whole value, a text line, a value cut inside
// a string, or the first line of a value that goes on.
func (sc *scanner) start(line []byte, num int) error {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	// A complete value on one line is the common case (JSONL): a line that opens and closes like
	// an object or array is handed over as is, without scanning it; the JSON parser reports it if
	// it was cut inside a string that happened to end in a brace.
	if closesOnLine(trimmed) || (trimmed[0] != '{' && trimmed[0] != '[') {
		return sc.fn(Record{Line: num, Data: trimmed, Elided: sc.lr.elided})
	}
	var n jsonscan.Nesting
	n.Scan(trimmed)
	switch {
	case n.InString:
		return sc.fn(Record{Line: num, Data: trimmed, Elided: sc.lr.elided, Problem: fmt.Sprintf(cutInString, num)})
	case n.Depth <= 0:
		return sc.fn(Record{Line: num, Data: trimmed, Elided: sc.lr.elided})
	}
	sc.acc = append(make([]byte, 0, len(line)*2), line...)
	sc.accLine, sc.nest, sc.accElided = num, n, sc.lr.elided
	return nil
}

// closesOnLine reports whether a trimmed line starts and ends like one whole object or array.
func closesOnLine(b []byte) bool {
	n := len(b)
	return n >= 2 && (b[0] == '{' && b[n-1] == '}' || b[0] == '[' && b[n-1] == ']')
}

// grow makes room for n more bytes, doubling the capacity so that a long line is copied a few
// times at most rather than once per chunk.
func grow(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	c := 2 * cap(b)
	if c < len(b)+n {
		c = len(b) + n
	}
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}

// DecodeLine decodes one line of a JSONL input into v, or counts why it cannot: a problem the
// line reader met (a cut or unreadable line), or JSON that is not what (e.g. "a rollout record").
// It returns the line's place and whether v holds the record.
func DecodeLine(set *findings.Set, name string, rec Record, what string, v any) (findings.Source, bool) {
	src := findings.Source{File: name, Line: rec.Line}
	if rec.Problem != "" {
		set.Problemf(src, "unreadable record", "%s", rec.Problem)
		return src, false
	}
	if err := json.Unmarshal(rec.Data, v); err != nil {
		set.Problemf(src, SkipBadJSON, "not %s: %v", what, err)
		return src, false
	}
	return src, true
}
