package sarif

import (
	"strings"
	"unicode/utf8"
)

// mdSpecial says what mdEscape does with an ASCII byte: mdSpace (a line break or tab becomes a
// space), mdBackslash (escaped), or nothing (0).
var mdSpecial = func() (t [256]uint8) {
	for _, c := range "\n\r\t" {
		t[c] = mdSpace
	}
	for _, c := range "\\`*_[]<>#|~&" {
		t[c] = mdBackslash
	}
	return t
}()

const (
	mdSpace = 1 + iota
	mdBackslash
)

// mdEscape makes untrusted text plain in Markdown: characters that start emphasis, code, links,
// HTML, tables or headings are backslash-escaped and line breaks become spaces.
func mdEscape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		special := uint8(0)
		if r < utf8.RuneSelf {
			special = mdSpecial[r]
		}
		switch {
		case special == mdSpace:
			b.WriteByte(' ')
		case special == mdBackslash, i == 0 && strings.ContainsRune("-+=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsEscape says whether mdEscape would change s.
func needsEscape(s string) bool {
	if (s != "" && strings.IndexByte("-+=", s[0]) >= 0) || !utf8.ValidString(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if mdSpecial[s[i]] != 0 {
			return true
		}
	}
	return false
}

// mdCode renders s as inline code, with a backtick fence longer than any backtick run inside.
func mdCode(s string) string {
	if s != "" && strings.IndexAny(s, "`\n\r") < 0 && utf8.ValidString(s) {
		return "`" + s + "`"
	}
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// mdBlock renders s as a fenced code block whose fence is longer than any backtick run inside.
func mdBlock(s string) string {
	n := max(3, longestRun(s, '`')+1)
	fence := strings.Repeat("`", n)
	return fence + "\n" + strings.TrimRight(s, "\n") + "\n" + fence
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
