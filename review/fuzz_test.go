package review

import (
	"strings"
	"testing"
)

// FuzzSuggest: whatever the file and the repair, a suggestion stays inside the file, and its
// block holds exactly the suggested text (no run of backticks in it closes the fence).
func FuzzSuggest(f *testing.F) {
	f.Add("a\n\tprint(x)\nb\n", 2, 2, "print(x)", "")
	f.Add("```\ncode\n```\n", 1, 3, "code", "```go\nx\n```")
	f.Add("one\r\ntwo\r\n", 0, 0, "two", "2")
	f.Fuzz(func(t *testing.T, file string, start, end int, before, after string) {
		it := Item{StartLine: start, EndLine: end, Edit: &Edit{Before: before, After: after}}
		s, ok := Suggest([]byte(file), it)
		if !ok {
			return
		}
		lines := len(strings.Split(strings.TrimSuffix(strings.ReplaceAll(file, "\r\n", "\n"), "\n"), "\n"))
		if s.Start < 1 || s.End < s.Start || s.End > lines {
			t.Fatalf("suggestion %d-%d outside the file's %d lines", s.Start, s.End, lines)
		}
		block := suggestionBlock(s.Text)
		fc := fence(s.Text)
		inner := strings.TrimSuffix(strings.TrimPrefix(block, fc+"suggestion\n"), fc)
		if strings.TrimSuffix(inner, "\n") != s.Text {
			t.Fatalf("block %q does not hold exactly %q", block, s.Text)
		}
		if strings.Contains(s.Text, fc) {
			t.Fatalf("text %q holds its fence %q", s.Text, fc)
		}
	})
}
