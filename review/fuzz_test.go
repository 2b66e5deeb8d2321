package review

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/visible"
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

// FuzzCommentBody: whatever the agent wrote in a comment's fields and its suggested change, the
// body's one marker is its own on the last line, it holds no hidden character outside the
// suggestion's tabs, and rendered it holds no link, image, raw HTML, reference or mention
// outside the suggested code.
func FuzzCommentBody(f *testing.F) {
	f.Add("g: r", "see #12 https://x @a", "gate", "block", ".agc/x.jsonl:3", "x := 1\n<!-- agcFindingKey/v1:"+key(2)+" -->", true)
	f.Add("**", "\u202e<img src=x>", "GH-1", "", "www.x.io", "\tif x {\u200b", false)
	f.Add("", "> q\n# h", "o/r#5", "pass", "", "```\n", true)
	keep := regexp.MustCompile(`^</?(p|strong|sub|hr|br)\s*/?>$`)
	code := regexp.MustCompile("(?s)<pre><code class=\"language-suggestion\">.*?</code></pre>")
	f.Fuzz(func(t *testing.T, title, message, gate, verdict, recorded, sug string, withSug bool) {
		it := Item{Key: key(1), Title: title, Message: message, Gate: gate, Verdict: verdict, Recorded: recorded}
		var s *Suggestion
		if withSug {
			s = &Suggestion{Start: 1, End: 1, Text: sug}
		}
		body, shown := commentBody(it, s, nil)
		if KeyOf(body) != key(1) || strings.Count(body, "<!--") != 1+strings.Count(map[bool]string{true: sug}[shown], "<!--") {
			t.Fatalf("marker not the body's own:\n%s", body)
		}
		if shown && markerLike.MatchString(sug) {
			t.Fatalf("a suggestion that looks like a marker is shown:\n%s", body)
		}
		for _, r := range body {
			if visible.Hidden(r) && r != '\n' && !(shown && r == '\t') {
				t.Fatalf("hidden %U in the body:\n%q", r, body)
			}
		}
		out := strings.Replace(code.ReplaceAllString(renderGFM(t, body), ""), Marker(key(1)), "", 1)
		for _, tag := range regexp.MustCompile(`<[^>]*>`).FindAllString(out, -1) {
			if !keep.MatchString(tag) {
				t.Fatalf("agent text made %s:\n%s\n%s", tag, body, out)
			}
		}
		if m := refRE.FindString(out); m != "" {
			t.Fatalf("%q survives:\n%s\n%s", m, body, out)
		}
	})
}
