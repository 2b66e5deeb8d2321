// Package jsonscan finds the ends and members of JSON values in raw bytes without decoding them.
//
// The readers meet records of many megabytes (tool output, file contents, API request blobs in
// string values) of which they need a few members, and the gates need to name the line of a value.
// These functions walk such bytes in place: they neither allocate nor unescape, and they validate
// only as much as finding an end needs (a scalar ends at the next delimiter; it is not checked).
// Give them bytes encoding/json accepts when the answer must match it exactly. Reader is the
// exception: it reads a value in one pass, checking the whole grammar as encoding/json does.
//
// Offsets are byte indexes into the slice given; -1 means the value does not end inside it.
package jsonscan

import (
	"bytes"
	"unicode/utf8"
)

// SkipSpace returns the index of the first byte at or after i that is not JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the index just past the string that starts at b[i] == '"', or -1.
func StringEnd(b []byte, i int) int {
	q, _ := CloseQuote(b[i+1:], false)
	if q < 0 {
		return -1
	}
	return i + 1 + q + 1
}

// CloseQuote returns the index in b of the quote that closes a string whose content goes on in b,
// escaped saying whether the content before b ended in a backslash that escapes b[0]. When b holds
// no closing quote it returns -1 and whether b leaves such a backslash, for the next piece.
func CloseQuote(b []byte, escaped bool) (int, bool) {
	from := 0
	for {
		q := bytes.IndexByte(b[from:], '"')
		if q < 0 {
			return -1, trailingEscape(b, escaped)
		}
		q += from
		if !trailingEscape(b[:q], escaped) {
			return q, false
		}
		from = q + 1
	}
}

// trailingEscape reports whether b ends in a backslash that escapes the byte after it: an odd run
// of backslashes, counting escaped as one more before b.
func trailingEscape(b []byte, escaped bool) bool {
	n := 0
	for p := len(b) - 1; p >= 0 && b[p] == '\\'; p-- {
		n++
	}
	if n == len(b) && escaped {
		n++
	}
	return n%2 == 1
}

// ValueEnd returns the index just past the JSON value starting at b[i], or -1 when it does not end
// inside b. Scalars end at the next delimiter; they are not checked.
func ValueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		var n Nesting
		if e := n.End(b[i:]); e >= 0 {
			return i + e
		}
		return -1
	}
	return scalarEnd(b, i)
}

// scalarEnd returns the index of the delimiter that ends the scalar at b[i], len(b) when none
// does, or -1 when b[i] is one.
func scalarEnd(b []byte, i int) int {
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if j == i {
				return -1
			}
			return j
		}
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// Nesting follows the brackets of JSON text read in pieces: how deep it is in arrays and objects,
// and whether it stands inside a string. The zero value is outside any value.
type Nesting struct {
	Depth    int  // '{' and '[' read minus '}' and ']' read, outside strings
	InString bool // inside a string
	escaped  bool // inside a string, after a backslash that escapes the next byte
}

// Bracket advances over b to the first '{', '[', '}' or ']' outside strings, counts it in Depth
// and returns the index just past it; it returns -1 when b ends first, having read all of b.
func (n *Nesting) Bracket(b []byte) int {
	for i := 0; i < len(b); i++ {
		if n.InString {
			q, esc := CloseQuote(b[i:], n.escaped)
			if q < 0 {
				n.escaped = esc
				return -1
			}
			i += q
			n.InString, n.escaped = false, false
			continue
		}
		switch b[i] {
		case '"':
			n.InString = true
		case '{', '[':
			n.Depth++
			return i + 1
		case '}', ']':
			n.Depth--
			return i + 1
		}
	}
	return -1
}

// Scan advances over all of b.
func (n *Nesting) Scan(b []byte) {
	for i := 0; i < len(b); {
		k := n.Bracket(b[i:])
		if k < 0 {
			return
		}
		i += k
	}
}

// End advances over b, which goes on an object or array (from its opening bracket on), and returns
// the index just past the bracket that closes it, or -1 when b ends first, having read all of b.
func (n *Nesting) End(b []byte) int {
	for i := 0; i < len(b); {
		k := n.Bracket(b[i:])
		if k < 0 {
			return -1
		}
		i += k
		if n.Depth <= 0 {
			return i
		}
	}
	return -1
}

// Members calls fn for each member of the JSON object that b holds, in order, with the raw key
// (without its quotes, escapes as written) and the raw value. It stops when fn returns false. It
// reports false when b is not an object it could walk; values are skipped, not validated.
func Members(b []byte, fn func(key, val []byte) bool) bool {
	return MembersAt(b, 0, func(key []byte, at, end int) bool {
		return end >= 0 && fn(key[1:len(key)-1], b[at:end])
	})
}

// MembersAt is Members for the object that starts at b[i] (after white space), giving fn each raw
// key with its quotes (Unquote decodes it) and the offsets of its value in b. When b ends inside a
// value, fn is called for its member with end -1 (and MembersAt reports false), so that a reader
// of a cut record still learns its keys.
func MembersAt(b []byte, i int, fn func(key []byte, at, end int) bool) bool {
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = SkipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) && b[i] == '"' {
		end := StringEnd(b, i)
		if end < 0 {
			return false
		}
		key := b[i:end]
		if i = SkipSpace(b, end); i >= len(b) || b[i] != ':' {
			return false
		}
		at := SkipSpace(b, i+1)
		vend := ValueEnd(b, at)
		if !fn(key, at, vend) || vend < 0 {
			return vend >= 0
		}
		var more, ok bool
		if i, more, ok = next(b, vend, '}'); !more {
			return ok
		}
	}
	return false
}

// Elements calls fn for each raw element of the JSON array that b holds, stopping when fn returns
// false. It reports false when b is not an array it could walk.
func Elements(b []byte, fn func(elem []byte) bool) bool {
	return ElementsAt(b, 0, func(at, end int) bool { return fn(b[at:end]) })
}

// ElementsAt is Elements for the array that starts at b[i] (after white space), giving fn the
// offsets of each element in b.
func ElementsAt(b []byte, i int, fn func(at, end int) bool) bool {
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	if i = SkipSpace(b, i+1); i < len(b) && b[i] == ']' {
		return true
	}
	for i < len(b) {
		end := ValueEnd(b, i)
		if end < 0 {
			return false
		}
		if !fn(i, end) {
			return true
		}
		var more, ok bool
		if i, more, ok = next(b, end, ']'); !more {
			return ok
		}
	}
	return false
}

// next reads what follows a member or element that ends at b[i]: a comma and another (more), or
// the closing byte (ok), or anything else (neither). It returns the index of the next one.
func next(b []byte, i int, closing byte) (int, bool, bool) {
	i = SkipSpace(b, i)
	switch {
	case i >= len(b):
		return i, false, false
	case b[i] == ',':
		return SkipSpace(b, i+1), true, false
	case b[i] == closing:
		return i, false, true
	}
	return i, false, false
}

// Lookup returns the raw values of the wanted top-level members of the object b, the first of
// each key written without escapes; absent keys are nil.
func Lookup(b []byte, keys ...string) [][]byte {
	out := make([][]byte, len(keys))
	left := len(keys)
	Members(b, func(k, v []byte) bool {
		for n, want := range keys {
			if out[n] == nil && string(k) == want {
				out[n] = v
				left--
			}
		}
		return left > 0
	})
	return out
}

// InvalidUTF8 returns the index of the first byte of b that is not valid UTF-8, or len(b).
func InvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return len(b)
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// Plain reports whether b is valid UTF-8 without control characters: string content that
// encoding/json takes as it stands.
func Plain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return utf8.Valid(b)
}
