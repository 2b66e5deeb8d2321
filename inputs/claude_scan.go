package inputs

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Cheap readers of raw JSON for the Claude Code record formats. Transcripts hold records of many
// megabytes (tool output, API request blobs) that cannot carry a hook answer; these helpers find
// a record's top-level members without decoding the rest, so such records cost one byte scan.

// objectMembers calls fn for each member of the JSON object b, in order, with the raw key (without
// quotes, escapes left as they are) and the raw value. It stops when fn returns false. It reports
// false when b is not an object it could walk; values are not validated, only skipped.
func objectMembers(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := stringEnd(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend := valueEnd(b, i)
		if vend < 0 {
			return false
		}
		if !fn(key, b[i:vend]) {
			return true
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
	return false
}

// arrayElements calls fn for each raw element of the JSON array b, stopping when fn returns
// false. It reports false when b is not an array it could walk.
func arrayElements(b []byte, fn func(elem []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for i < len(b) {
		end := valueEnd(b, i)
		if end < 0 {
			return false
		}
		if !fn(b[i:end]) {
			return true
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
	return false
}

// members returns the raw values of the wanted top-level keys of object b (absent keys are nil).
func members(b []byte, keys ...string) [][]byte {
	out := make([][]byte, len(keys))
	left := len(keys)
	objectMembers(b, func(k, v []byte) bool {
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

// rawStr decodes a raw JSON string value; anything else (absent, null, a number) is "".
func rawStr(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 && plain(v[1:len(v)-1]) {
		return string(v[1 : len(v)-1])
	}
	if s, ok := unescape(v[1 : len(v)-1]); ok {
		return s
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// unescape decodes the content of a JSON string with escapes; ok is false for anything but the
// common case (a bad escape, a control character, invalid UTF-8, a lone surrogate), which the
// caller leaves to encoding/json.
func unescape(b []byte) (string, bool) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			out = append(out, b[i:]...)
			break
		}
		out = append(out, b[i:i+j]...)
		i += j
		if i+1 >= len(b) {
			return "", false
		}
		switch c := b[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b, i+2)
			if !ok || utf16.IsSurrogate(r) {
				if !ok || r >= 0xdc00 {
					return "", false
				}
				r2, ok2 := hex4(b, i+8)
				if !ok2 || i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
				i += 6
			}
			out = utf8.AppendRune(out, r)
			i += 4
		default:
			return "", false
		}
		i += 2
	}
	if !plain(b) || !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}

// plain reports whether b is valid UTF-8 without control characters (what encoding/json takes
// as it stands).
func plain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return utf8.Valid(b)
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// rawInt decodes a raw JSON integer; ok is false when v is not one.
func rawInt(v []byte) (int, bool) {
	if len(v) > 0 && len(v) < 19 {
		d := bytes.TrimPrefix(v, []byte("-"))
		if n, err := strconv.Atoi(string(v)); err == nil && len(d) > 0 && d[0] >= '0' && d[0] <= '9' && (d[0] != '0' || len(d) == 1) {
			return n, true
		}
	}
	var n int
	if len(v) == 0 || json.Unmarshal(v, &n) != nil {
		return 0, false
	}
	return n, true
}

// rawBool reports whether v is the JSON literal true.
func rawBool(v []byte) bool { return string(v) == "true" }

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string that starts at b[i] == '"', or -1.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// valueEnd returns the index just past the JSON value starting at b[i], or -1 when it does not end
// inside b. Scalars end at the next delimiter; they are not checked.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
			j++
		}
		return -1
	}
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
