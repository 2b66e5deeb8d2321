package summary

import (
	"strings"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/internal/textsafe"
)

// maxCell bounds one table cell's text, in runes, before escaping.
const maxCell = 300

// Text escapes agent-written text for one line of GitHub Markdown: textsafe.Markdown, the one
// escaping every Markdown output shares (no HTML, links, references, mentions, emphasis or
// hidden characters; "|" escaped so the text is safe inside a table cell).
func Text(s string) string { return textsafe.Markdown(s) }

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
