package summary

import (
	"bytes"
	"fmt"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// renderGFM renders Markdown as GitHub does in kind: tables, autolinks, strike-through, and raw
// HTML passed through (so that any HTML agent text smuggled in would show).
func renderGFM(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	g := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := g.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestRenderedInert renders a summary of hostile findings and checks the HTML: agent text makes
// no element (link, image, emphasis, code, heading, quote, raw HTML), every table row keeps its
// cells, no @mention or bidi control reaches the text, and ordinary text reads unchanged.
func TestRenderedInert(t *testing.T) {
	payloads := []string{
		"<img src=x onerror=alert(1)>M0 <script>M1</script> <a href=//evil>M2</a> <details>M3",
		"@octocat M4 a@evil.example M5",
		"cell | M6 |\n|---|---|\n| M7 | x |",
		"```\n# M8\n```\n> M9",
		"[M10](javascript:alert(1)) ![M11](https://evil.example/p.png) [M12]: https://evil.example",
		"*M13* _M14_ **M15** ~~M16~~ `M17` https://evil.example/M18 www.evil.example/M19",
		"&lt;b&gt;M20&lt;/b&gt; &#64;octocat M21 \\<b>M22\\</b>",
		"\u202eM23\u202c \u200bM24",
		`"$CLAUDE_PROJECT_DIR\"/hooks/M25.sh && cd ~/src && echo 50% M26`,
	}
	in := Input{ServerURL: "https://github.com", Repo: "o/r", SHA: sha}
	for i, m := range payloads {
		f := findings.Finding{RuleID: "g/r", Gate: "g", Kind: findings.JudgmentGate, Verdict: gates.Block,
			Level: findings.Error, Message: m, Count: 1, Target: "@admin",
			Location: &findings.Location{Path: fmt.Sprintf("x)](javascript:alert(%d))<b>.go", i), StartLine: 1}}
		if i%3 == 1 {
			f.Anchored = "Anchored to the hook's line in .claude/settings.json: " + m
			f.Placed = findings.PlacedHook
		}
		in.Findings = append(in.Findings, f)
	}
	in.Fails = func(f *findings.Finding) bool { return strings.Contains(f.Message, "M1") }
	in.OnChange = func(f *findings.Finding) bool { return strings.Contains(f.Message, "M2") }
	md := Render(in)
	out := renderGFM(t, md)
	// the summary's own <details> hold agent text; agent text makes none: one per group, no more
	if got, want := strings.Count(out, "<details>"), strings.Count(md, "\n<details><summary>"); got != want || want == 0 {
		t.Errorf("%d <details> rendered, the summary wrote %d", got, want)
	}
	for _, tag := range []string{"a", "img", "em", "strong", "del", "code", "h1", "h2", "h3", "h4", "blockquote", "script", "pre"} {
		re := regexp.MustCompile(`(?s)<` + tag + `(\s[^>]*)?>(.*?)</` + tag + `>|<` + tag + `\s[^>]*>`)
		for _, m := range re.FindAllString(out, -1) {
			if regexp.MustCompile(`M\d+`).MatchString(m) {
				t.Errorf("agent text made a <%s>: %s", tag, m)
			}
		}
	}
	for _, m := range regexp.MustCompile(`<a [^>]*href="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "https://github.com/o/r/blob/"+sha+"/") {
			t.Errorf("a link that is not ours: %s", m[0])
		}
	}
	if strings.Contains(out, "<img") || strings.Contains(out, "<script") {
		t.Errorf("raw HTML rendered:\n%s", out)
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(out, "")
	if regexp.MustCompile(`@[A-Za-z0-9]`).MatchString(text) {
		t.Errorf("a mention survives in the text:\n%s", text)
	}
	if strings.ContainsAny(text, "\u202e\u202c\u200b") {
		t.Error("a bidi or zero-width character reached the rendered text")
	}
	for _, row := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(out, -1) {
		if strings.Contains(row[1], "<th") {
			continue
		}
		if n := strings.Count(row[1], "<td"); n != 5 && n != 3 && n != 6 {
			t.Errorf("a table row with %d cells: %s", n, row[1])
		}
	}
	// Readable: ordinary text renders as written.
	plain := stdhtml.UnescapeString(text)
	for _, want := range []string{`"$CLAUDE_PROJECT_DIR\"/hooks/M25.sh && cd ~/src && echo 50% M26`, "cell | M6 |", `\u202eM23\u202c \u200bM24`} {
		if !strings.Contains(plain, want) {
			t.Errorf("rendered summary lacks %q", want)
		}
	}
	if strings.Contains(md, `CLAUDE\_PROJECT`) || strings.Contains(md, `\"$CLAUDE`) {
		t.Errorf("ordinary characters backslash-escaped in the Markdown:\n%s", md)
	}
}
