package review

import (
	"strings"
)

// Suggestion is a suggested change: lines Start to End of a file replaced by Text, whole lines
// without the final newline ("" deletes them).
type Suggestion struct {
	Start, End int
	Text       string
}

// Suggest finds the lines an item's edit replaces in the file's content and what stands there
// after it. An edit with a before text replaces that text where it stands on the item's lines
// (anywhere in the file, once, when the item has no lines), keeping the rest of the lines it
// touches; a line left blank by a deletion is deleted. An edit without one replaces the item's
// lines whole. It reports false when the text is not there (the file has moved on), stands in
// the file more than once, or the lines are past the file's end.
func Suggest(content []byte, it Item) (Suggestion, bool) {
	e := it.Edit
	if e == nil {
		return Suggestion{}, false
	}
	text := strings.ReplaceAll(string(content), "\r\n", "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	start, end := it.StartLine, max(it.EndLine, it.StartLine)
	if e.Before == "" {
		if start < 1 || end > len(lines) {
			return Suggestion{}, false
		}
		return Suggestion{Start: start, End: end, Text: strings.TrimSuffix(e.After, "\n")}, true
	}
	before, after := strings.TrimSuffix(e.Before, "\n"), e.After
	if before != e.Before {
		after = strings.TrimSuffix(after, "\n")
	}
	if strings.TrimSpace(before) == "" {
		return Suggestion{}, false
	}
	first := 1
	if start >= 1 {
		if end > len(lines) {
			return Suggestion{}, false
		}
		first = start
		text = strings.Join(lines[start-1:end], "\n")
	} else {
		text = strings.Join(lines, "\n")
		if strings.Count(text, before) != 1 {
			return Suggestion{}, false
		}
	}
	i := strings.Index(text, before)
	if i < 0 {
		return Suggestion{}, false
	}
	lineStart := strings.LastIndexByte(text[:i], '\n') + 1
	lineEnd := len(text)
	if j := strings.IndexByte(text[i+len(before):], '\n'); j >= 0 {
		lineEnd = i + len(before) + j
	}
	s := Suggestion{Start: first + strings.Count(text[:i], "\n")}
	s.End = s.Start + strings.Count(before, "\n")
	s.Text = text[lineStart:i] + after + text[i+len(before):lineEnd]
	if strings.TrimSpace(s.Text) == "" && strings.TrimSpace(after) == "" {
		s.Text = "" // nothing but indentation is left: delete the lines
	}
	return s, true
}

// fence is the code fence that encloses text: three backticks, or one more than the longest run
// of backticks in the text, so that the text cannot close it.
func fence(text string) string {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// suggestionBlock is the ```suggestion block holding text; an empty block deletes the lines.
func suggestionBlock(text string) string {
	f := fence(text)
	if text == "" {
		return f + "suggestion\n" + f
	}
	return f + "suggestion\n" + text + "\n" + f
}
