package gates

import (
	"unicode/utf16"
	"unicode/utf8"
)

// The JSON scanning of the fast path (fastdecode.go): it checks the grammar of RFC 8259 as
// encoding/json does, and gives up rather than guess. UTF-8 is checked once the value is read.

// fail makes the reader give up.
func (d *fastReader) fail() { d.ok = false }

// check makes the reader give up unless cond holds.
func (d *fastReader) check(cond bool) {
	if !cond {
		d.ok = false
	}
}

// peek is the next byte, or 0 at the end.
func (d *fastReader) peek() byte {
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

// take reads byte c, or gives up.
func (d *fastReader) take(c byte) bool {
	if d.ok && d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	d.ok = false
	return false
}

// space skips JSON whitespace.
func (d *fastReader) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// escaped reads the rest of a string value that has an escape, from d.i just after the opening
// quote. A lone surrogate escape, which encoding/json turns into U+FFFD, makes it give up.
func (d *fastReader) escaped() []byte {
	buf := make([]byte, 0, 64)
	for j := d.i; j < len(d.data); {
		c := d.data[j]
		switch {
		case c == '"':
			d.i = j + 1
			return buf
		case c < 0x20:
			d.fail()
			return nil
		case c != '\\':
			buf = append(buf, c)
			j++
			continue
		}
		if j+1 >= len(d.data) {
			break
		}
		switch e := d.data[j+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, n := unicodeEscape(d.data[j:])
			if n == 0 {
				d.fail()
				return nil
			}
			buf = utf8.AppendRune(buf, r)
			j += n
			continue
		default:
			d.fail()
			return nil
		}
		j += 2
	}
	d.fail()
	return nil
}

// unicodeEscape decodes the \uXXXX escape (or surrogate pair of them) at the start of b and
// returns the rune and the bytes it took; 0 bytes for a bad or lone surrogate escape.
func unicodeEscape(b []byte) (rune, int) {
	r := hex4(b)
	if r < 0 {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if len(b) < 12 || b[6] != '\\' || b[7] != 'u' {
		return 0, 0
	}
	r2 := hex4(b[6:])
	if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
		return c, 12
	}
	return 0, 0
}

// hex4 reads the four hex digits of \uXXXX at the start of b, or -1.
func hex4(b []byte) rune {
	if len(b) < 6 {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// skipValue checks and skips any JSON value, nested at most fastMaxDepth deep.
func (d *fastReader) skipValue(depth int) {
	if depth > fastMaxDepth {
		d.fail()
		return
	}
	switch c := d.peek(); {
	case c == '"':
		d.skipString()
	case c == '{':
		d.i++
		d.space()
		if d.peek() == '}' {
			d.i++
			return
		}
		for d.ok {
			d.skipString()
			d.space()
			d.check(d.take(':'))
			d.space()
			d.skipValue(depth + 1)
			d.space()
			if !d.ok || d.sep('}') {
				return
			}
		}
	case c == '[':
		d.i++
		d.space()
		if d.peek() == ']' {
			d.i++
			return
		}
		for d.ok {
			d.skipValue(depth + 1)
			d.space()
			if !d.ok || d.sep(']') {
				return
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		d.skipNumber()
	default:
		d.skipLiteral()
	}
}

// skipString checks and skips a string.
func (d *fastReader) skipString() {
	if !d.take('"') {
		return
	}
	for j := d.i; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			d.i = j + 1
			return
		case c < 0x20:
			d.fail()
			return
		case c == '\\':
			if j+1 >= len(d.data) {
				d.fail()
				return
			}
			switch d.data[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if hex4(d.data[j:]) < 0 {
					d.fail()
					return
				}
				j += 5
			default:
				d.fail()
				return
			}
		}
	}
	d.fail()
}

// skipNumber checks and skips a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *fastReader) skipNumber() {
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case '1' <= c && c <= '9':
		d.digits()
	default:
		d.fail()
		return
	}
	if d.peek() == '.' {
		d.i++
		d.check(d.digits())
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		d.check(d.digits())
	}
}

// digits skips decimal digits and reports whether there was one.
func (d *fastReader) digits() bool {
	start := d.i
	for d.i < len(d.data) && '0' <= d.data[d.i] && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// skipLiteral checks and skips true, false or null.
func (d *fastReader) skipLiteral() {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(d.data)-d.i >= len(lit) && string(d.data[d.i:d.i+len(lit)]) == lit {
			d.i += len(lit)
			return
		}
	}
	d.fail()
}

// isAGCVersion matches the schema's pattern for agc: ^0\.[0-9]+$
func isAGCVersion(s string) bool {
	return len(s) > 2 && s[0] == '0' && s[1] == '.' && allDigits(s[2:])
}

// isID matches the schema's id pattern: ^[a-z0-9][a-z0-9._-]*$
func isID(s string) bool {
	if s == "" || s[0] == '.' || s[0] == '_' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isTarget matches the schema's Tool.field pattern: ^[^\s./]+\.[^\s/]+$ (\s is [\t\n\f\r ]
// in Go's regexp syntax, which the validator uses).
func isTarget(s string) bool {
	dot := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\n', '\f', '\r', ' ', '/':
			return false
		case '.':
			if dot < 0 {
				dot = i
			}
		}
	}
	return dot > 0 && dot < len(s)-1
}

// isRFC3339 matches the schema's pattern for at:
// ^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$
func isRFC3339(s string) bool {
	const head = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(head)+1 || !matchShape(s[:len(head)], head) {
		return false
	}
	s = s[len(head):]
	if s[0] == '.' {
		n := 1
		for n < len(s) && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		s = s[n:]
	}
	return s == "Z" || s == "z" || len(s) == 6 && (s[0] == '+' || s[0] == '-') && matchShape(s[1:], "dd:dd")
}

// matchShape matches s against shape, where d is a digit, T is one of "Tt " and any other byte
// stands for itself.
func matchShape(s, shape string) bool {
	if len(s) != len(shape) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case 'T':
			if c != 'T' && c != 't' && c != ' ' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}

// allDigits reports whether s is only ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
