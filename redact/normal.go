package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normalised is a text with its obfuscations undone, and for every byte of it the part of the
// original it came from, so that a secret found in it can be replaced in the original.
type normalised struct {
	text     string
	from, to []int // text[i] came from original[from[i]:to[i]]
}

// span maps the part [start, end) of the normalised text back to the original.
func (n *normalised) span(start, end int) (int, int) {
	return n.from[start], n.to[end-1]
}

// needsNormalising reports whether s holds anything normalise would change: non-ASCII bytes,
// percent escapes or \u escapes. Plain ASCII text, nearly all text, skips the second pass.
func needsNormalising(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return true
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			return true
		case c == '\\' && i+1 < len(s) && (s[i+1] == 'u' || s[i+1] == '\\' || s[i+1] == '\n' || s[i+1] == '\r'):
			return true
		case (c == '"' || c == '\'' || c == '\\' && i+1 < len(s) && s[i+1] == '"') && joinAt(s, i) > 0:
			return true
		}
	}
	return false
}

// normalise undoes the obfuscations that hide a token from a pattern while a person or a
// program still reads it: compatibility forms folded by NFKC (full-width ＿ and letters,
// ligatures, mathematical letters), invisible format characters dropped (zero-width space and
// joiners, word joiner, soft hyphen, BOM, bidi controls, variation selectors), and %XX and \uXXXX
// escapes decoded. It works rune by rune, which is all a token needs.
func normalise(s string) normalised {
	var b strings.Builder
	b.Grow(len(s))
	n := normalised{from: make([]int, 0, len(s)), to: make([]int, 0, len(s))}
	emit := func(out string, start, end int) {
		b.WriteString(out)
		for range len(out) {
			n.from, n.to = append(n.from, start), append(n.to, end)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' || c == '"' || c == '\'' {
			if k := joinAt(s, i); k > 0 {
				i += k // dropped: the pieces on either side are read as one
				continue
			}
		}
		if c == '\\' {
			if d, k := unit(s, i); k > 1 {
				emit(string(rune(d)), i, i+k) // an escaped quote, line break or tab, at any depth
				i += k
				continue
			}
		}
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			if d := unhex(s[i+1])<<4 | unhex(s[i+2]); d >= 0x20 && d < 0x7f {
				emit(string(rune(d)), i, i+3)
				i += 3
				continue
			}
		}
		if c == '\\' {
			if r, n, ok := unicodeEscape(s[i:]); ok {
				emit(fold(r), i, i+n)
				i += n
				continue
			}
		}
		if c < utf8.RuneSelf {
			emit(s[i:i+1], i, i+1)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			emit(s[i:i+1], i, i+1)
		} else {
			emit(fold(r), i, i+size)
		}
		i += size
	}
	n.text = b.String()
	return n
}

// continuation is what unit returns for a line continuation, which normalising drops.
const continuation = 0

// unit reads one character of s at i as it reads once JSON escapes are undone, at any depth of
// JSON text inside JSON text: a quote behind 2^d-1 backslashes (\", \\\", …), a line break or
// tab behind 2^(d-1) (\n, \\n, …), and a line continuation — a backslash before a line break,
// raw or escaped at any depth (\\\n, \\\\\\n, …) — as continuation. It returns the character and
// how many bytes it takes; any other byte stands for itself.
func unit(s string, i int) (byte, int) {
	if s[i] != '\\' {
		return s[i], 1
	}
	k := 1
	for i+k < len(s) && s[i+k] == '\\' && k < 64 {
		k++
	}
	if i+k >= len(s) {
		return '\\', 1
	}
	pow2 := func(x int) bool { return x > 0 && x&(x-1) == 0 }
	switch c := s[i+k]; c {
	case '\n':
		if k == 1 {
			return continuation, 2
		}
	case '\r':
		if k == 1 && i+2 < len(s) && s[i+2] == '\n' {
			return continuation, 3
		}
	case 'n', 'r', 't':
		if pow2(k) {
			return map[byte]byte{'n': '\n', 'r': '\r', 't': '\t'}[c], k + 1
		}
		if c == 'n' && k%3 == 0 && pow2(k/3) {
			return continuation, k + 1
		}
		if c == 'r' && k%3 == 0 && pow2(k/3) && strings.HasPrefix(s[i+k+1:], s[i:i+k/3]+"n") {
			return continuation, k + 1 + k/3 + 1 // \\\r\n at depth 1: a backslash, then CR LF escaped
		}
	case '"':
		if pow2(k + 1) {
			return '"', k + 1
		}
	}
	return '\\', 1
}

// joinAt is the length of what joins two pieces of one token at s[i], 0 when nothing does: a
// line continuation (see unit), or the end of a string literal and the start of the next that
// continues it ("sk_live_" + "…", adjacent literals "…" "…" on one line or across lines, in
// either quote, also escaped inside JSON text at any depth).
func joinAt(s string, i int) int {
	q, n := unit(s, i)
	if q == continuation {
		return n
	}
	if q != '"' && q != '\'' || i == 0 || !isTokenByte(s[i-1]) {
		return 0
	}
	j := i + n
	plus, gap := false, false
	for j < len(s) {
		c, m := unit(s, j)
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == continuation:
			gap = true
		case c == '+' && !plus:
			plus = true
		case c == q && (plus || gap) && j+m < len(s) && isTokenByte(s[j+m]):
			return j + m - i
		default:
			return 0
		}
		j += m
	}
	return 0
}

// fold is what one rune reads as: nothing for an invisible format character, else its NFKC
// form.
func fold(r rune) string {
	switch {
	case r < utf8.RuneSelf:
		return string(r)
	case unicode.Is(unicode.Cf, r), r == 0x034F, r >= 0xFE00 && r <= 0xFE0F, r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0:
		return "" // format characters, the combining grapheme joiner, variation selectors, Hangul fillers
	case r >= 0xFF01 && r <= 0xFF5E:
		return string(r - 0xFEE0) // full-width ASCII
	case r == 0x3000:
		return " "
	case !utf8.ValidRune(r):
		return string(utf8.RuneError)
	}
	return norm.NFKC.String(string(r))
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// unicodeEscape reads a \uXXXX escape at the start of s, behind any number of backslashes
// (JSON text quoted inside JSON text doubles them), and returns its rune and length.
func unicodeEscape(s string) (rune, int, bool) {
	k := 0
	for k < len(s) && k < 16 && s[k] == '\\' {
		k++
	}
	if k == 0 || k+5 > len(s) || s[k] != 'u' {
		return 0, 0, false
	}
	var r rune
	for _, c := range []byte(s[k+1 : k+5]) {
		if !isHex(c) {
			return 0, 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, k + 5, true
}
