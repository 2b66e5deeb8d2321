package inputs

import (
	"bufio"
	"context"
	"fmt"
	"io"
)

// scanArray splits one JSON array — the claude-code-action execution file, `JSON.stringify(messages,
// null, 2)`, possibly hundreds of megabytes — into its elements without holding more than one
// element, and calls fn for each with the 1-based line where it starts. An element longer than max
// is skipped (its bytes are not kept) and reported; an element cut off by the end of input is
// reported as cut short. r must start with '[' after optional white space.
func scanArray(ctx context.Context, r io.Reader, max int, fn func(record) error) error {
	if max <= 0 {
		max = DefaultMaxRecord
	}
	br := bufReader(r)
	var (
		line    = 1
		opened  bool // the array's '[' was read
		closed  bool // its ']' was read
		start   int  // line where the current element starts; 0 between elements
		buf     []byte
		over    bool
		depth   int
		inStr   bool
		esc     bool
		scalar  bool // the current element is not an object or array
		readErr error
	)
	emit := func() error {
		rec := record{Line: start, Data: buf}
		if over {
			rec = record{Line: start, Problem: fmt.Sprintf("JSON value longer than the record limit of %d bytes; skipped", max)}
		}
		start, buf, over, depth, inStr, esc, scalar = 0, buf[:0], false, 0, false, false, false
		return fn(rec)
	}
	for n := 0; !closed; n++ {
		if n&63 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		chunk, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
			readErr = err
		}
		seg := 0 // where the current element's bytes begin in chunk
		keep := func(end int) {
			if over || end <= seg {
				return
			}
			if len(buf)+end-seg > max {
				over, buf = true, nil
				return
			}
			buf = append(buf, chunk[seg:end]...)
		}
		for i := 0; i < len(chunk) && !closed; i++ {
			c := chunk[i]
			if !opened {
				switch c {
				case ' ', '\t', '\r', '\n':
				case '[':
					opened = true
				default:
					if e := fn(record{Line: line, Data: []byte{}, Problem: "not a JSON array of messages"}); e != nil {
						return e
					}
					_, err := io.Copy(io.Discard, br)
					return err
				}
			} else if start == 0 {
				switch c {
				case ' ', '\t', '\r', '\n', ',':
				case ']':
					closed = true
				default:
					start, seg = line, i
					scalar = c != '{' && c != '['
					inStr = c == '"'
					if c == '{' || c == '[' {
						depth = 1
					}
				}
			} else if inStr {
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '"':
					inStr = false
					if scalar {
						keep(i + 1)
						if e := emit(); e != nil {
							return e
						}
					}
				}
			} else if scalar {
				if c == ',' || c == ']' || c == ' ' || c == '\n' || c == '\t' || c == '\r' {
					keep(i)
					if e := emit(); e != nil {
						return e
					}
					closed = c == ']'
				}
			} else {
				switch c {
				case '"':
					inStr = true
				case '{', '[':
					depth++
				case '}', ']':
					depth--
					if depth == 0 {
						keep(i + 1)
						if e := emit(); e != nil {
							return e
						}
					}
				}
			}
			if c == '\n' {
				line++
			}
		}
		if start != 0 {
			keep(len(chunk))
		}
		if readErr != nil {
			return fmt.Errorf("line %d: %w", line, readErr)
		}
		if err == io.EOF {
			break
		}
	}
	if start != 0 {
		if over {
			return emit()
		}
		if buf == nil {
			buf = []byte{}
		}
		rec := record{Line: start, Data: buf, Problem: "the JSON value starting here is cut short (it never closes)"}
		return fn(rec)
	}
	if closed {
		_, err := io.Copy(io.Discard, br)
		return err
	}
	return nil
}
