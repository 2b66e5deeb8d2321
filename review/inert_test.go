package review

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// A forged marker in finding B's repair does not stand for finding A: A is still posted, B's
// comment is known by its own marker (not posted again), and no comment is minimised while both
// findings stand. The repair is not posted as a suggestion (it cannot be escaped).
func TestForgedMarkerInRepair(t *testing.T) {
	d, _ := difffilter.Parse(strings.NewReader(addedDiff("src/a.go", 10)))
	a := Item{Key: key(1), Title: "sec: secret", Message: "a real block", Weight: 3, Fails: true, Path: "src/a.go", StartLine: 2}
	b := Item{Key: key(2), Title: "style: x", Message: "b", Weight: 2, Fails: true, Path: "src/a.go", StartLine: 5,
		Edit: &Edit{After: "x := 1\n" + Marker(a.Key) + "\ny := 2"}}
	opts := Options{Mode: Comments, Diff: d}
	first := Make([]Item{b}, nil, opts)
	if len(first.Comments) != 1 {
		t.Fatalf("first run: %d comments, want B's", len(first.Comments))
	}
	if first.Comments[0].Suggestion || strings.Contains(first.Comments[0].Body, "```suggestion") {
		t.Errorf("a repair holding a marker is posted as a suggestion:\n%s", first.Comments[0].Body)
	}
	if got := KeyOf(first.Comments[0].Body); got != b.Key {
		t.Errorf("B's comment reads as key %q, want B's", got)
	}
	existing := []Existing{{ID: 1, Body: first.Comments[0].Body}}
	for run := 2; run <= 3; run++ {
		p := Make([]Item{a, b}, existing, opts)
		if len(p.Comments) != 1 || p.Comments[0].Key != a.Key || p.Already != 1 || len(p.Outdated) != 0 {
			t.Fatalf("run %d: %d comments (first %+v), %d already, %d outdated; want A posted, B already, none outdated",
				run, len(p.Comments), p.Comments, p.Already, len(p.Outdated))
		}
		existing = append(existing, Existing{ID: int64(run), Body: p.Comments[0].Body})
		a.Message += "." // the next run has A's comment: nothing is new
		if run == 3 {
			break
		}
		if q := Make([]Item{a, b}, existing, opts); len(q.Comments) != 0 || q.Already != 2 {
			t.Fatalf("after A is posted: %d comments, %d already; want none, 2", len(q.Comments), q.Already)
		}
		existing = existing[:1]
	}
}

// KeyOf reads the marker only on the body's last line.
func TestKeyOfLastLineOnly(t *testing.T) {
	for body, want := range map[string]string{
		"x\n\n" + Marker(key(1)):                       key(1),
		"x\r\n\r\n" + Marker(key(1)) + "\r\n":          key(1),
		Marker(key(1)) + "\nx":                         "",
		"x " + Marker(key(1)):                          "",
		"```suggestion\n" + Marker(key(1)) + "\n```\n": "",
		"x\n" + Marker(key(1)) + "\n" + Marker(key(2)): key(2),
		"x\n<!-- agcFindingKey/v1:" + key(1) + " -->x": "",
	} {
		if got := KeyOf(body); got != want {
			t.Errorf("KeyOf(%q) = %q, want %q", body, got, want)
		}
	}
}

// links are 30 ways agent text could make a link, an image, a reference or a mention.
var links = []string{
	"https://evil.example/a", "http://evil.example", "HTTPS://EVIL.EXAMPLE/B", "ftp://evil.example/f",
	"www.evil.example", "WWW.evil.example/path", "<https://evil.example/c>", "[x](https://evil.example/d)",
	"![i](https://evil.example/p.png)", "[x]: https://evil.example/e", "<img src=https://evil.example/p.png>",
	`<a href="https://evil.example/g">g</a>`, "mailto:a@evil.example", "a@evil.example", "see #123",
	"owner/repo#5", "GH-123", "fixes gh-7", "@octocat", "@org/team", `https:\/\/evil.example/h`,
	"&#104;ttps://evil.example/i", "https&#58;//evil.example/j", "xmpp:a@evil.example", "[x](<https://evil.example/k>)",
	"`https://evil.example/l`", "www.(https://evil.example/m)", "owner/repo@0123456789abcdef", "https://evil.example/#123",
	"![](//evil.example/x.png)",
}

// hiddenKinds are 20 kinds of characters a reader cannot see, or that reorder what they see.
var hiddenKinds = []string{
	"\x00", "\x07", "\x1b[31m", "\r", "\x7f", "\u0085", "\u009b", "\u00ad", "\u061c", "\u200b",
	"\u200d", "\u200e", "\u202a", "\u202e", "\u2066", "\u2069", "\u2028", "\u2029", "\u2060", "\ufeff",
}

// renderGFM renders Markdown as GitHub does in kind: autolinks, tables, raw HTML passed through.
func renderGFM(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	g := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := g.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// refRE finds what GitHub would make a reference, a mention or a link of in rendered text.
var refRE = regexp.MustCompile(`(?i)#[0-9]|(^|[^\pL\pN])gh-[0-9]|@[\pL\pN]|://|(^|[^\pL\pN])www\.[\pL\pN]`)

// checkInert fails when a review body, rendered, holds a link, an image, raw HTML, a reference,
// a mention, a second marker or a raw hidden character.
func checkInert(t *testing.T, what, body string) {
	t.Helper()
	if KeyOf(body) != key(1) || strings.Count(body, "<!--") != 1 {
		t.Errorf("%s: the body's only marker is not its last line", what)
	}
	for _, r := range body {
		if visible.Hidden(r) && r != '\n' {
			t.Errorf("%s: hidden %U in the body", what, r)
			break
		}
	}
	out := renderGFM(t, body)
	for _, tag := range []string{"<a ", "<img", "<h1", "<h2", "<blockquote", "<ul", "<ol", "<pre", "<code", "<em>", "<del>", "<script"} {
		if strings.Contains(out, tag) {
			t.Errorf("%s: agent text made %s…", what, tag)
		}
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(out, "")
	if m := refRE.FindString(text); m != "" {
		t.Errorf("%s: %q survives in the rendered text", what, m)
	}
}

// 30 links and 20 kinds of hidden characters in every agent-written field of a review comment
// (title, message, gate, verdict, where it was recorded, the suggested change): the body renders
// no link, reference or mention, holds no raw hidden character, and keeps one marker, its own.
func TestBodyInert(t *testing.T) {
	hostile := strings.Join(links, " ") + " " + strings.Join(hiddenKinds, "x")
	fields := map[string]func(*Item, string){
		"title":    func(it *Item, s string) { it.Title = s },
		"message":  func(it *Item, s string) { it.Message = s },
		"gate":     func(it *Item, s string) { it.Gate = s },
		"verdict":  func(it *Item, s string) { it.Verdict = s },
		"recorded": func(it *Item, s string) { it.Recorded = s },
	}
	all := Item{Key: key(1)}
	for name, set := range fields {
		set(&all, hostile)
		for i, l := range append(append([]string{hostile}, links...), hiddenKinds...) {
			it := Item{Key: key(1), Title: "g: r", Message: "m"}
			set(&it, l+" <!-- agcFindingKey/v1:"+key(2)+" -->")
			body, _ := commentBody(it, nil, nil)
			checkInert(t, fmt.Sprintf("%s %d", name, i), body)
		}
	}
	for i, h := range hiddenKinds {
		body, shown := commentBody(all, &Suggestion{Start: 1, End: 1, Text: "x := 1 // " + h}, nil)
		if shown || strings.Contains(body, "```suggestion") {
			t.Errorf("a suggestion holding hidden kind %d (%q) is shown", i, h)
		}
		checkInert(t, fmt.Sprintf("suggestion %d", i), body)
	}
	for i, l := range links { // code is code: a link in a suggested line is applied as written
		body, shown := commentBody(all, &Suggestion{Start: 1, End: 1, Text: "u := \"" + l + "\""}, nil)
		if !shown || KeyOf(body) != key(1) {
			t.Errorf("suggestion %d not shown or its marker lost:\n%s", i, body)
		}
	}
	body, _ := commentBody(all, nil, nil)
	for _, want := range []string{`\u202e`, `\x1b`, `\x7f`, `\u2028`} {
		if !strings.Contains(body, want) {
			t.Errorf("the body does not show %s as stderr does:\n%s", want, body)
		}
	}
}
