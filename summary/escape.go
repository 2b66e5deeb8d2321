package summary

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// maxCell bounds one table cell's text, in runes, before escaping.
const maxCell = 300

// Text escapes agent-written text for one line of GitHub Markdown, the one place the summary
// does so. The result renders as the text itself and stays readable in the raw file: only what
// would start Markdown or HTML is escaped, never an ordinary character.
//   - hidden characters (controls, bidi such as U+202E, zero-width) become visible \u escapes,
//     line breaks and tabs become spaces;
//   - no HTML: "<" is "&lt;", and "&" before a letter, digit or "#" is "&amp;" (no entity);
//   - no links or images: "[" and "]" are escaped, and "://" and "www." are written "[:]//" and
//     "www[.]" so that GitHub does not autolink them;
//   - no @mention or e-mail link: "@" before a letter or digit is the full-width "＠";
//   - no emphasis, code, strike-through or math: "*", "`" and "|" always, "_" at a word's edge,
//     "~" unless before "/", "$" when the text holds two, and "\" before punctuation are
//     backslash-escaped. "|" is escaped so the text is safe inside a table cell.
func Text(s string) string {
	rs := []rune(visible.String(s))
	dollars := strings.Count(s, "$") > 1
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	at := func(i int) rune {
		if i < 0 || i >= len(rs) {
			return ' '
		}
		return rs[i]
	}
	for i, r := range rs {
		prev, next := at(i-1), at(i+1)
		switch {
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r == '<':
			b.WriteString("&lt;")
		case r == '&' && (isWord(next) || next == '#'):
			b.WriteString("&amp;")
		case r == '@' && isWord(next):
			b.WriteRune('＠')
		case r == ':' && next == '/' && at(i+2) == '/':
			b.WriteString("[:]")
		case r == '.' && i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www") && !isWord(at(i-4)):
			b.WriteString("[.]")
		case r == '\\' && next < utf8.RuneSelf && unicode.IsPunct(next) || r == '\\' && next < utf8.RuneSelf && unicode.IsSymbol(next):
			b.WriteString(`\\`)
		case r == '*' || r == '`' || r == '|' || r == '[' || r == ']',
			r == '_' && (!isWord(prev) || !isWord(next)),
			r == '~' && next != '/',
			r == '$' && dollars:
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Lines is Text of each line of s, joined with "<br>" so that a text of several lines stays one
// Markdown line (a table cell or a list item): no line of agent text can start a block.
func Lines(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, p := range parts {
		parts[i] = Text(p)
	}
	return strings.Join(parts, "<br>")
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
