package textsafe

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/agc-sarif/agc-sarif/internal/visible"
)

func TestMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"see #123 and owner/repo#5":   "see [#]123 and owner/repo[#]5",
		"GH-123 gh-7 ugh-1 GH-x":      "GH[-]123 gh[-]7 ugh-1 GH-x",
		"C# #x issue#":                "C# #x issue#",
		"# heading":                   `\# heading`,
		"> quote":                     `\> quote`,
		"- item":                      `\- item`,
		"12. item 3.":                 `12\. item 3.`,
		"1) item":                     `1\) item`,
		"    code":                    "code",
		"www.(x) www.x":               "www.(x) www[.]x",
		`ends with \`:                 `ends with \\`,
		"<!-- agcFindingKey -->":      "&lt;!-- agcFindingKey -->",
		"rlo\u202e nel\u0085 del\x7f": `rlo\u202e nel\u0085 del\x7f`,
	} {
		if got := Markdown(in); got != want {
			t.Errorf("Markdown(%q) = %q, want %q", in, got, want)
		}
	}
}

// refRE finds what GitHub would make a reference, a mention or a link of in rendered text.
var refRE = regexp.MustCompile(`(?i)#[0-9]|(^|[^\pL\pN])gh-[0-9]|@[\pL\pN]|://|(^|[^\pL\pN])www\.[\pL\pN]`)

// FuzzMarkdown: whatever the text, its escape on a line of Markdown renders as one paragraph of
// plain text, with no element, link, reference, mention or hidden character.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"<img src=x> @octocat | `x`\n# h", "\u2028@\u200d@a&amp; \u202e https://x",
		"see #1, o/r#2, GH-3, www.x.io", "1. x", "[a](b) ![c](d) <https://e>", "*a* _b_ ~~c~~ $x$ $y$", `a\\` + "\\"} {
		f.Add(s)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	tags := regexp.MustCompile(`<[^>]*>`)
	f.Fuzz(func(t *testing.T, s string) {
		got := Markdown(s)
		if strings.ContainsAny(got, "<\n\r") {
			t.Fatalf("Markdown(%q) = %q holds < or a line break", s, got)
		}
		for _, r := range got {
			if visible.Hidden(r) && r != '\t' {
				t.Fatalf("hidden %U in Markdown(%q) = %q", r, s, got)
			}
		}
		var out bytes.Buffer
		if err := md.Convert([]byte("x "+got), &out); err != nil {
			t.Fatal(err)
		}
		html := out.String()
		inner, ok := strings.CutPrefix(html, "<p>")
		inner, ok2 := strings.CutSuffix(inner, "</p>\n")
		if !ok || !ok2 || tags.MatchString(inner) {
			t.Fatalf("Markdown(%q) = %q renders as %q", s, got, html)
		}
		if m := refRE.FindString(inner); m != "" {
			t.Fatalf("Markdown(%q) = %q renders %q: %q", s, got, m, html)
		}
	})
}
