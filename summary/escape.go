package summary

import (
	"strings"
	"unicode/utf8"
)

// maxCell bounds one table cell's text, in runes, before escaping.
const maxCell = 300

// Text escapes agent-written text for GitHub Markdown: no raw HTML (`<`, `>`, `&` become
// entities), no Markdown syntax (backslash escapes), no @mention that pings (a zero-width joiner
// follows every `@`), no line breaks, and no control characters. The result is safe inside a
// table cell.
func Text(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '@':
			b.WriteString("@\u200d")
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			// dropped: control characters and broken UTF-8
		case strings.ContainsRune("\\`*_[]()|~!#{}+-.:;\"'=^$", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Cell is Text of at most maxCell runes, with an ellipsis when cut.
func Cell(s string) string { return Text(clip(s, maxCell)) }

// clip cuts s to n runes, adding an ellipsis when it cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}
