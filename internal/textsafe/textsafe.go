// Package textsafe makes agent-written text inert on one line of GitHub Markdown: the one
// escaping that the job summary, review comments and every other Markdown output people read
// share, so that no second copy can open a hole.
package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// Markdown escapes agent-written text for one line of GitHub Markdown (a table cell, a list
// item, a line of a review comment). The result renders as the text itself and stays readable
// in the raw text: only what would start Markdown, HTML, a link or a reference is escaped.
//   - hidden characters (controls, DEL, bidi such as U+202E, zero-width, U+2028) become visible
//     escapes as on stderr (visible.String); line breaks and tabs become spaces, and leading and
//     trailing white space is dropped (no indented code block);
//   - no HTML and no comment such as a forged "<!--" marker: "<" is "&lt;", and "&" before a
//     letter, digit or "#" is "&amp;" (no entity);
//   - no links or images: "[" and "]" are escaped, and "://" and "www." are written "[:]//" and
//     "www[.]" so that GitHub does not autolink them;
//   - no issue or pull-request reference: "#" before a digit is "[#]" (#123, owner/repo#5) and
//     "GH-" before a digit is "GH[-]";
//   - no @mention or e-mail link: "@" before a letter or digit is the full-width "＠";
//   - no block: a heading, list, quote or rule marker at the start is backslash-escaped;
//   - no emphasis, code, strike-through or math: "*", "`" and "|" always, "_" at a word's edge,
//     "~" unless before "/", "$" when the text holds two, and "\" before punctuation or at the
//     end are backslash-escaped. "|" is escaped so the text is safe inside a table cell.
func Markdown(s string) string {
	rs := []rune(strings.Trim(visible.String(s), " \t\n"))
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
		case r == '.' && next != '(' && i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www") && !isWord(at(i-4)):
			b.WriteString("[.]")
		case r == '#' && unicode.IsDigit(next):
			b.WriteString("[#]")
		case r == '-' && unicode.IsDigit(next) && i >= 2 && strings.EqualFold(string(rs[i-2:i]), "gh") && !isWord(at(i-3)):
			b.WriteString("[-]")
		case r == '\\' && (i == len(rs)-1 || next < utf8.RuneSelf && (unicode.IsPunct(next) || unicode.IsSymbol(next))):
			b.WriteString(`\\`)
		case r == '*' || r == '`' || r == '|' || r == '[' || r == ']',
			r == '_' && (!isWord(prev) || !isWord(next)),
			r == '~' && next != '/',
			r == '$' && dollars,
			i == 0 && strings.ContainsRune("#>-+=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case (r == '.' || r == ')') && orderedList(rs[:i]):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// orderedList reports whether head, the text before a "." or ")", is the number that starts an
// ordered list item ("1." at the start of the text).
func orderedList(head []rune) bool {
	if len(head) == 0 || len(head) > 9 {
		return false
	}
	for _, r := range head {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
