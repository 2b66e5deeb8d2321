package summary_test

import (
	"bytes"
	"context"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/summary"
)

// realSummary collects the repository's real records of dirs (relative to the repository root)
// and renders their summary, as Markdown and as GitHub would render it.
func realSummary(t *testing.T, dirs ...string) (*collect.Result, string, string) {
	t.Helper()
	res, err := collect.Run(context.Background(), collect.Config{Paths: dirs, Dir: "..", Root: "..", Redact: true,
		IncludeUnstructured: true, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 {
		t.Fatalf("no findings in %v", dirs)
	}
	md := summary.Render(summary.Input{Findings: res.Findings, Set: res.Set, ServerURL: "https://github.com", Repo: "octo/repo",
		SHA: "0123456789abcdef0123456789abcdef01234567", Fails: func(f *findings.Finding) bool { return f.Kind == findings.Contract },
		Checks: runtimes.Checks()})
	var out bytes.Buffer
	g := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := g.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return res, md, out.String()
}

var (
	rowRe     = regexp.MustCompile(`(?s)<tr>.*?</tr>`)
	detailsRe = regexp.MustCompile(`(?s)<details>.*?</details>`)
	tagRe     = regexp.MustCompile(`<[^>]*>`)
)

// plain is rendered HTML as text a reader sees: tags dropped, entities decoded, spaces collapsed,
// and the summary's defanging of links and mentions ("https[:]//", "＠") undone.
func plain(s string) string {
	s = strings.Join(strings.Fields(stdhtml.UnescapeString(tagRe.ReplaceAllString(s, " "))), " ")
	return strings.NewReplacer("[:]//", "://", "www[.]", "www.", "＠", "@").Replace(s)
}

// TestRealSummaryScans renders the summary of the real Claude Code, Codex, Gemini and Copilot
// records as GitHub would: no table row is longer than 400 characters of Markdown, and each
// finding's full alert text (its gate's sentence and where it was recorded) is inside a
// <details> block.
func TestRealSummaryScans(t *testing.T) {
	for _, dir := range []string{"testdata/claude", "testdata/codex", "testdata/gemini", "testdata/copilot", "testdata/examples"} {
		t.Run(dir, func(t *testing.T) {
			res, md, out := realSummary(t, dir)
			for line := range strings.Lines(md) {
				if strings.HasPrefix(line, "|") && len(strings.TrimSuffix(line, "\n")) > 400 {
					t.Errorf("a table row of %d characters: %s", len(line), line)
				}
			}
			if n := len(rowRe.FindAllString(out, -1)); n == 0 {
				t.Fatal("no table rendered")
			}
			var inDetails strings.Builder
			for _, d := range detailsRe.FindAllString(out, -1) {
				inDetails.WriteString(plain(d))
				inDetails.WriteString("\n")
			}
			folded := inDetails.String()
			missing := 0
			for i := range res.Findings {
				f := &res.Findings[i]
				for _, part := range []string{findings.FirstSentence(f), "Recorded at: " + findings.SourceString(f.Source)} {
					if !strings.Contains(folded, strings.Join(strings.Fields(part), " ")) {
						missing++
						if missing < 5 {
							t.Errorf("%s: %q is in no <details> block", f.RuleID, part)
						}
					}
				}
			}
			for _, tbl := range regexp.MustCompile(`(?s)<table>.*?</table>`).FindAllString(out, -1) {
				if !strings.Contains(tbl, "<tbody>") {
					t.Errorf("an empty table: %s", tbl)
				}
			}
		})
	}
}

// TestRealSessionInOrder renders the real session of testdata/claude/session-anchor and wants
// its Session section to list the calls that met a gate in the order they happened: by their
// times, which are the records' own.
func TestRealSessionInOrder(t *testing.T) {
	res, md, out := realSummary(t, "testdata/claude/session-anchor/session.jsonl")
	i := strings.Index(md, "### Session (")
	if i < 0 {
		t.Fatalf("no Session section:\n%s", md)
	}
	section := md[i:]
	if j := strings.Index(section[4:], "\n### "); j >= 0 {
		section = section[:j+4]
	}
	var times []string
	for _, m := range regexp.MustCompile(`(?m)^\| \d+ \| (\d\d:\d\d:\d\d\.\d\d\d) \|`).FindAllStringSubmatch(section, -1) {
		times = append(times, m[1])
	}
	var want []string
	for _, c := range findings.CallsOf(res.Findings) {
		if c.Time != "" {
			want = append(want, c.Time)
		}
	}
	if len(times) != len(want) || len(times) < 3 {
		t.Fatalf("Session lists %d calls, the findings hold %d calls with a time:\n%s", len(times), len(want), section)
	}
	for k := 1; k < len(times); k++ {
		if times[k] < times[k-1] {
			t.Errorf("call %d at %s listed after %s", k+1, times[k], times[k-1])
		}
	}
	// the findings come heaviest first, not in time: the section does not just copy their order
	if !strings.Contains(plain(out), "Session (") {
		t.Error("the Session heading is not rendered")
	}
	if !strings.Contains(section, "ran as rewritten: python3 -c 'print(1)'") {
		t.Errorf("the repaired call's retry is not shown:\n%s", section)
	}
}
