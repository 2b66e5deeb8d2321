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

// joinAt is the length of what joins two pieces of one token at s[i], 0 when nothing does: a
// line continuation (a backslash before a line break, also as JSON text writes it: \\\n), or
// the end of a string literal and the start of the next that continues it ("sk_live_" + "…",
// adjacent literals "…" "…" on one line or across lines, in either quote, also \"-escaped inside
// JSON text).
func joinAt(s string, i int) int {
	switch {
	case strings.HasPrefix(s[i:], "\\\n"):
		return 2
	case strings.HasPrefix(s[i:], "\\\r\n"):
		return 3
	case strings.HasPrefix(s[i:], `\\\n`):
		return 4
	case strings.HasPrefix(s[i:], `\\\r\n`):
		return 6
	}
	q := s[i : i+1]
	if q == `\` {
		if i+1 >= len(s) || s[i+1] != '"' {
			return 0
		}
		q = `\"`
	}
	j := i + len(q)
	plus, gap := false, false
	for j < len(s) {
		switch {
		case s[j] == ' ' || s[j] == '\t':
			gap = true
			j++
		case s[j] == '\n' || s[j] == '\r':
			gap = true
			j++
		case strings.HasPrefix(s[j:], `\n`) || strings.HasPrefix(s[j:], `\r`) || strings.HasPrefix(s[j:], `\t`):
			if q != `\"` {
				return 0 // an escape only joins inside JSON text, where the quotes are escaped too
			}
			gap = true
			j += 2
		case s[j] == '+' && !plus:
			plus = true
			j++
		default:
			if (plus || gap) && strings.HasPrefix(s[j:], q) && j+len(q) < len(s) && isTokenByte(s[j+len(q)]) && i > 0 && isTokenByte(s[i-1]) {
				return j + len(q) - i
			}
			return 0
		}
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
