package jsonscan

import (
	"bytes"
	"encoding/binary"
)

// Reader reads JSON in one pass and checks the grammar of RFC 8259 as it goes, as encoding/json
// does; unlike this package's other functions it validates every byte it passes (UTF-8 aside: check that
// once over what was read). It never guesses: at anything it does not accept it gives up, for
// good, and OK reports false. The gates read AGC responses with it straight into their types.
type Reader struct {
	data []byte
	i    int
	ok   bool
}

// NewReader returns a Reader at the start of data.
func NewReader(data []byte) Reader { return Reader{data: data, ok: true} }

// OK reports whether the reader has not given up.
func (r *Reader) OK() bool { return r.ok }

// Offset is the index of the next byte to read.
func (r *Reader) Offset() int { return r.i }

// Fail makes the reader give up.
func (r *Reader) Fail() { r.ok = false }

// Check makes the reader give up unless cond holds.
func (r *Reader) Check(cond bool) {
	if !cond {
		r.ok = false
	}
}

// Peek is the next byte, or 0 at the end.
func (r *Reader) Peek() byte {
	if r.i < len(r.data) {
		return r.data[r.i]
	}
	return 0
}

// Take reads byte c, or gives up.
func (r *Reader) Take(c byte) bool {
	if r.ok && r.i < len(r.data) && r.data[r.i] == c {
		r.i++
		return true
	}
	r.ok = false
	return false
}

// Space skips JSON white space.
func (r *Reader) Space() { r.i = SkipSpace(r.data, r.i) }

// Sep reads the ',' (and the space after it) between members or elements, or the closing byte;
// it reports whether the container ended or the reader gave up.
func (r *Reader) Sep(closing byte) bool {
	switch r.Peek() {
	case ',':
		r.i++
		r.Space()
		return false
	case closing:
		r.i++
		return true
	}
	r.ok = false
	return true
}

// Skip checks and skips any JSON value that nests at most maxDepth deep (a scalar is 1 deep, [1]
// is 2); it gives up on deeper ones.
func (r *Reader) Skip(maxDepth int) { r.skip(1, maxDepth) }

// skip checks and skips the value at depth.
func (r *Reader) skip(depth, maxDepth int) {
	if depth > maxDepth {
		r.ok = false
		return
	}
	switch c := r.Peek(); {
	case c == '"':
		r.skipString()
	case c == '{' || c == '[':
		r.skipContainer(depth, maxDepth)
	case c == '-' || '0' <= c && c <= '9':
		r.skipNumber()
	default:
		r.skipLiteral()
	}
}

// Value checks and skips a value as Skip does and returns its bytes, aliasing the input.
func (r *Reader) Value(maxDepth int) []byte {
	start := r.i
	r.skip(1, maxDepth)
	if !r.ok {
		return nil
	}
	return r.data[start:r.i]
}

// Bool reads true or false, or gives up.
func (r *Reader) Bool() bool {
	switch rest := r.data[r.i:]; {
	case bytes.HasPrefix(rest, []byte("true")):
		r.i += len("true")
		return true
	case bytes.HasPrefix(rest, []byte("false")):
		r.i += len("false")
		return false
	}
	r.ok = false
	return false
}

// skipContainer checks and skips the object or array at depth.
func (r *Reader) skipContainer(depth, maxDepth int) {
	closing := r.data[r.i] + 2 // '{'+2 is '}', '['+2 is ']'
	r.i++
	r.Space()
	if r.Peek() == closing {
		r.i++
		return
	}
	for r.ok {
		if closing == '}' {
			r.skipString()
			r.Space()
			r.Take(':')
			r.Space()
		}
		r.skip(depth+1, maxDepth)
		r.Space()
		if !r.ok || r.Sep(closing) {
			return
		}
	}
}

// skipString checks and skips a string; it takes lone surrogate escapes, as encoding/json does.
func (r *Reader) skipString() {
	if !r.Take('"') {
		return
	}
	for j := r.i; j < len(r.data); j++ {
		switch c := r.data[j]; {
		case c == '"':
			r.i = j + 1
			return
		case c < 0x20:
			r.ok = false
			return
		case c == '\\':
			if n := escapeLen(r.data, j); n > 0 {
				j += n - 1
				continue
			}
			r.ok = false
			return
		}
	}
	r.ok = false
}

// skipNumber checks and skips a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *Reader) skipNumber() {
	if r.Peek() == '-' {
		r.i++
	}
	switch c := r.Peek(); {
	case c == '0':
		r.i++
	case '1' <= c && c <= '9':
		r.digits()
	default:
		r.ok = false
		return
	}
	if r.Peek() == '.' {
		r.i++
		r.Check(r.digits())
	}
	if c := r.Peek(); c == 'e' || c == 'E' {
		r.i++
		if c := r.Peek(); c == '+' || c == '-' {
			r.i++
		}
		r.Check(r.digits())
	}
}

// digits skips decimal digits and reports whether there was one.
func (r *Reader) digits() bool {
	start := r.i
	for r.i < len(r.data) && '0' <= r.data[r.i] && r.data[r.i] <= '9' {
		r.i++
	}
	return r.i > start
}

// skipLiteral checks and skips true, false or null.
func (r *Reader) skipLiteral() {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(r.data)-r.i >= len(lit) && string(r.data[r.i:r.i+len(lit)]) == lit {
			r.i += len(lit)
			return
		}
	}
	r.ok = false
}

// Count reads a positive integer of at most max written plainly: digits without a leading zero,
// a sign, a fraction or an exponent. It gives up on anything else (0, 1.0, 1e0, -1, max+1), which
// a caller that must take those leaves to encoding/json.
func (r *Reader) Count(max int) int {
	n, j := 0, r.i
	for ; j < len(r.data) && '0' <= r.data[j] && r.data[j] <= '9'; j++ {
		d := int(r.data[j] - '0')
		if n > (max-d)/10 {
			r.ok = false
			return 0
		}
		n = n*10 + d
	}
	if j == r.i || r.data[r.i] == '0' ||
		j < len(r.data) && (r.data[j] == '.' || r.data[j] == 'e' || r.data[j] == 'E') {
		r.ok = false
		return 0
	}
	r.i = j
	return n
}

// PlainString reads a string that has no escapes and only ASCII bytes, such as a member name, and
// returns its content (aliasing the input); it gives up on any other.
func (r *Reader) PlainString() []byte { return r.str(true) }

// Str reads a string and returns its bytes with escapes decoded; they alias the input when it
// has no escapes. It gives up on a lone surrogate escape, which encoding/json turns into U+FFFD.
func (r *Reader) Str() []byte { return r.str(false) }

// str reads a string; plain makes it give up on escapes and non-ASCII bytes.
func (r *Reader) str(plain bool) []byte {
	if !r.Take('"') {
		return nil
	}
	j := r.i
	for j+8 <= len(r.data) && plainWord(binary.LittleEndian.Uint64(r.data[j:])) {
		j += 8
	}
	for ; j < len(r.data); j++ {
		switch c := r.data[j]; {
		case c == '"':
			s := r.data[r.i:j]
			r.i = j + 1
			return s
		case c == '\\' && !plain:
			return r.escaped()
		case c < 0x20 || plain && (c == '\\' || c >= 0x80):
			r.ok = false
			return nil
		}
	}
	r.ok = false
	return nil
}

// escaped reads the rest of a string that has an escape, from just after its opening quote,
// decoding the escapes as Unquote does.
func (r *Reader) escaped() []byte {
	buf := make([]byte, 0, 64)
	for j := r.i; j < len(r.data); {
		c := r.data[j]
		switch {
		case c == '"':
			r.i = j + 1
			return buf
		case c < 0x20:
			r.ok = false
			return nil
		case c != '\\':
			buf = append(buf, c)
			j++
			continue
		}
		var n int
		if buf, n = unescapeOne(buf, r.data, j); n == 0 {
			r.ok = false
			return nil
		}
		j += n
	}
	r.ok = false
	return nil
}
