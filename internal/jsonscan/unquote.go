package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes the raw JSON string v as encoding/json does; ok is false when v is not a string
// encoding/json accepts. The common cases (no escapes, or the usual ones) cost no decoder.
func Unquote(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	content := v[1 : len(v)-1]
	if bytes.IndexByte(content, '\\') < 0 && Plain(content) {
		return string(content), true
	}
	if s, ok := unescape(content); ok {
		return s, true
	}
	// Invalid UTF-8 and lone surrogates, which encoding/json replaces, and errors.
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// unescape decodes the content of a JSON string with escapes; ok is false for anything but the
// common case (a bad escape, a control character, invalid UTF-8, a lone surrogate), which Unquote
// leaves to encoding/json.
func unescape(b []byte) (string, bool) {
	if !Plain(b) {
		return "", false
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			out = append(out, b[i:]...)
			break
		}
		out = append(out, b[i:i+j]...)
		i += j
		var n int
		if out, n = unescapeOne(out, b, i); n == 0 {
			return "", false
		}
		i += n
	}
	return string(out), true
}

// unescapeOne appends the character of the escape at b[i] == '\\' to out and returns how many bytes
// it took, or 0 when it is not one unescape decodes.
func unescapeOne(out, b []byte, i int) ([]byte, int) {
	if i+1 >= len(b) {
		return out, 0
	}
	if k := strings.IndexByte("\"\\/bfnrt", b[i+1]); k >= 0 {
		return append(out, "\"\\/\b\f\n\r\t"[k]), 2
	}
	if b[i+1] == 'u' {
		r, ok := hex4(b, i+2)
		if !ok {
			return out, 0
		}
		if !utf16.IsSurrogate(r) {
			return utf8.AppendRune(out, r), 6
		}
		if r >= 0xdc00 || i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
			return out, 0
		}
		r2, ok := hex4(b, i+8)
		if r = utf16.DecodeRune(r, r2); !ok || r == utf8.RuneError {
			return out, 0
		}
		return utf8.AppendRune(out, r), 12
	}
	return out, 0
}

// escapeLen is the length of the valid escape at b[i] == '\\' (2, or 6 for \uXXXX, a lone
// surrogate included), or 0.
func escapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return 0
	}
	if strings.IndexByte("\"\\/bfnrt", b[i+1]) >= 0 {
		return 2
	}
	if _, ok := hex4(b, i+2); !ok || b[i+1] != 'u' {
		return 0
	}
	return 6
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
