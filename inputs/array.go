package inputs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// ScanArray splits one JSON array — the claude-code-action execution file, `JSON.stringify(messages,
// null, 2)`, possibly hundreds of megabytes — into its elements without holding more than one
// element, and calls fn for each with the 1-based line where it starts. An element longer than max
// is skipped (its bytes are not kept) and reported; an element cut off by the end of input is
// reported as cut short. r must start with '[' after optional white space.
func ScanArray(ctx context.Context, r io.Reader, max int, fn func(Record) error) error {
	if max <= 0 {
		max = DefaultMaxRecord
	}
	a := &arrayScan{br: BufReader(r), max: max, fn: fn, line: 1}
	for n := 0; !a.closed; n++ {
		if n&63 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		chunk, err := a.br.ReadSlice('\n')
		var readErr error
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			readErr = err
		}
		if e := a.chunk(chunk); e != nil || a.notArray {
			if e != nil {
				return e
			}
			_, err := io.Copy(io.Discard, a.br)
			return err
		}
		if readErr != nil {
			return fmt.Errorf("line %d: %w", a.line, readErr)
		}
		if err == io.EOF {
			break
		}
	}
	return a.finish()
}

// arrayScan is the state of ScanArray between chunks of its input.
type arrayScan struct {
	br       *bufio.Reader
	max      int
	fn       func(Record) error
	line     int  // line of chunk[pos]
	pos      int  // how far line has counted into the current chunk
	seg      int  // where the current element's bytes begin in the current chunk
	opened   bool // the array's '[' was read
	closed   bool // its ']' was read
	notArray bool // the input does not start with '['
	start    int  // line where the current element starts; 0 between elements
	buf      []byte
	over     bool             // the current element passed max; its bytes are not kept
	str      bool             // the current element is a string
	scalar   bool             // the current element is not an object or array
	escaped  bool             // inside the string element, after an escaping backslash
	nest     jsonscan.Nesting // inside an object or array element
}

// chunk reads the next piece of input, up to a line's end or the buffer's size.
func (a *arrayScan) chunk(c []byte) error {
	a.pos, a.seg = 0, 0
	i := 0
	for i < len(c) && !a.closed && !a.notArray {
		var err error
		switch {
		case !a.opened:
			i, err = a.open(c, i)
		case a.start == 0:
			i = a.between(c, i)
		default:
			i, err = a.element(c, i)
		}
		if err != nil {
			return err
		}
	}
	if a.start != 0 {
		a.keep(c, len(c))
	}
	a.lineAt(c, i)
	return nil
}

// lineAt returns the line of c[i], counting from where it counted last in c.
func (a *arrayScan) lineAt(c []byte, i int) int {
	a.line += bytes.Count(c[a.pos:i], []byte{'\n'})
	a.pos = i
	return a.line
}

// open reads the white space before the array's '[' and the bracket.
func (a *arrayScan) open(c []byte, i int) (int, error) {
	i = jsonscan.SkipSpace(c, i)
	switch {
	case i == len(c):
		return i, nil
	case c[i] != '[':
		a.notArray = true
		return i, a.fn(Record{Line: a.lineAt(c, i), Data: []byte{}, Problem: "not a JSON array of messages"})
	}
	a.opened = true
	return i + 1, nil
}

// between reads what stands between elements up to the next element's first byte or the
// array's end.
func (a *arrayScan) between(c []byte, i int) int {
	for ; i < len(c); i++ {
		switch c[i] {
		case ' ', '\t', '\r', '\n', ',':
		case ']':
			a.closed = true
			return i + 1
		default:
			a.start, a.seg = a.lineAt(c, i), i
			a.scalar = c[i] != '{' && c[i] != '['
			a.str, a.escaped = c[i] == '"', false
			a.nest = jsonscan.Nesting{}
			if !a.scalar {
				a.nest.Depth = 1
			}
			return i + 1
		}
	}
	return i
}

// element reads the current element from c[i] to its end, or all of c when it goes on.
func (a *arrayScan) element(c []byte, i int) (int, error) {
	var end int
	switch {
	case a.str:
		q, esc := jsonscan.CloseQuote(c[i:], a.escaped)
		if q < 0 {
			a.escaped = esc
			return len(c), nil
		}
		end = i + q + 1
	case a.scalar:
		j := scalarStop(c, i)
		if j < 0 {
			return len(c), nil
		}
		a.keep(c, j)
		err := a.emit()
		a.closed = c[j] == ']'
		return j + 1, err
	default:
		e := a.nest.End(c[i:])
		if e < 0 {
			return len(c), nil
		}
		end = i + e
	}
	a.keep(c, end)
	return end, a.emit()
}

// scalarStop returns the index of the first byte from c[i] on that ends a scalar element, or -1.
func scalarStop(c []byte, i int) int {
	for ; i < len(c); i++ {
		switch c[i] {
		case ',', ']', ' ', '\n', '\t', '\r':
			return i
		}
	}
	return -1
}

// keep adds the current element's bytes of c up to end, unless that makes it longer than max.
func (a *arrayScan) keep(c []byte, end int) {
	if a.over || end <= a.seg {
		return
	}
	if len(a.buf)+end-a.seg > a.max {
		a.over, a.buf = true, nil
		return
	}
	a.buf = append(a.buf, c[a.seg:end]...)
}

// emit hands over the current element and starts looking for the next.
func (a *arrayScan) emit() error {
	rec := Record{Line: a.start, Data: a.buf}
	if a.over {
		rec = Record{Line: a.start, Problem: fmt.Sprintf("JSON value longer than the record limit of %d bytes; skipped", a.max)}
	}
	a.start, a.buf, a.over = 0, a.buf[:0], false
	return a.fn(rec)
}

// finish reports an element the input cut short, and reads past the array's end.
func (a *arrayScan) finish() error {
	if a.start != 0 {
		if a.over {
			return a.emit()
		}
		if a.buf == nil {
			a.buf = []byte{}
		}
		return a.fn(Record{Line: a.start, Data: a.buf, Problem: cutNeverCloses})
	}
	if a.closed {
		_, err := io.Copy(io.Discard, a.br)
		return err
	}
	return nil
}
