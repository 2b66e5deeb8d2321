package review

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/redact"
	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// replay is the real Claude Code reviewer run of testdata/review/reviewer-repair: it blocks on
// src/app.py:5 with a repair that deletes print("computing tax", amount, rate); pr.diff is the
// pull request that added lines 3-5.
const replay = "../testdata/review/reviewer-repair"

const (
	prNumber = 7
	headSHA  = "4f2c9a1e0b7d3c5a8e6f1b2d4c6a8e0f2b4d6c8a"
	token    = "ghs_reviewtoken0123456789"
)

// replayItems collects the replay as the action does (redacted) and makes the review's items.
func replayItems(t *testing.T) ([]Item, *collect.Result) {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join(replay, "files"))
	res, err := collect.Run(context.Background(), collect.Config{
		Judgments: []string{filepath.Join(replay, "execution.json")}, Root: root, Dir: ".", Redact: true, Jobs: 1,
		Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return FromFindings(res.Findings, nil), res
}

func readDiff(t *testing.T, p string) (string, *difffilter.Diff) {
	t.Helper()
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	d, err := difffilter.Parse(strings.NewReader(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	return string(text), d
}

// fake starts the stand-in API with the pull request's diff.
func fake(t *testing.T, diff string) (*fakegh.Server, *Client) {
	t.Helper()
	s := fakegh.New("octo", "shop", token)
	t.Cleanup(s.Close)
	s.Diffs = map[int]string{prNumber: diff}
	c, err := NewClient(ClientOptions{APIURL: s.APIURL(), Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

func noViolations(t *testing.T, s *fakegh.Server) {
	t.Helper()
	if v := s.Violations(); len(v) > 0 {
		t.Fatalf("requests broke the API:\n%s", strings.Join(v, "\n"))
	}
}

var target = Target{Owner: "octo", Repo: "shop", Number: prNumber, CommitID: headSHA}

func replayOptions(t *testing.T, d *difffilter.Diff) Options {
	root := filepath.Join(replay, "files")
	return Options{Mode: Suggestions, Diff: d, Redactor: redact.New(redact.Options{}),
		ReadFile: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) }}
}

// The real reviewer's repair becomes one review with a suggestion that deletes exactly line 5; a
// second run posts nothing; a run where the finding is gone minimises the comment.
func TestReplayReviewOnceAndCurrent(t *testing.T) {
	items, res := replayItems(t)
	text, d := readDiff(t, filepath.Join(replay, "pr.diff"))
	s, c := fake(t, text)
	opts := replayOptions(t, d)

	got, err := Run(context.Background(), c, target, items, opts)
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	reviews := s.Reviews()
	if len(reviews) != 1 || got.ReviewID == 0 {
		t.Fatalf("%d reviews (id %d), want 1", len(reviews), got.ReviewID)
	}
	rv := reviews[0]
	if rv.Event != "COMMENT" || rv.CommitID != headSHA || len(rv.Comments) != 1 {
		t.Fatalf("review %+v: want one COMMENT on %s", rv, headSHA)
	}
	cm := rv.Comments[0]
	if cm.Path != "src/app.py" || cm.Line != 5 || cm.StartLine != 0 || cm.Side != "RIGHT" {
		t.Errorf("comment on %s line %d (start %d, side %s), want src/app.py line 5, RIGHT", cm.Path, cm.Line, cm.StartLine, cm.Side)
	}
	if !strings.Contains(cm.Body, "\n```suggestion\n```\n") {
		t.Errorf("body has no empty suggestion block (a deletion):\n%s", cm.Body)
	}
	if first, _, _ := strings.Cut(cm.Body, "\n"); first != "**code\\-review: debug\\-output**" && first != "**code-review: debug-output**" {
		t.Errorf("first line %q is not the rule's title", first)
	}
	key := findingKeyOf(t, res.SARIF)
	if KeyOf(cm.Body) != key {
		t.Errorf("marker key %q, the SARIF's agcFindingKey/v1 is %q", KeyOf(cm.Body), key)
	}
	for _, want := range []string{"tax() prints the amount and rate", "verdict block", "gate code-review", "execution.json:"} {
		if !strings.Contains(cm.Body, want) {
			t.Errorf("body lacks %q:\n%s", want, cm.Body)
		}
	}

	// Once: the same findings again post nothing.
	again, err := Run(context.Background(), c, target, items, opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Reviews()); n != 1 || again.ReviewID != 0 || again.Plan.Already != 1 {
		t.Errorf("second run: %d reviews (id %d), %d already commented; want 1 review in all, none new", n, again.ReviewID, again.Plan.Already)
	}
	if len(s.MinimizedComments()) != 0 {
		t.Errorf("second run minimised %v", s.MinimizedComments())
	}

	// Current: the finding is gone, so its comment is minimised as outdated, once.
	gone, err := Run(context.Background(), c, target, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	min := s.MinimizedComments()
	if gone.Minimized != 1 || len(min) != 1 || min[0].Classifier != "OUTDATED" || min[0].NodeID != s.Comments(prNumber)[0].NodeID {
		t.Errorf("finding gone: minimised %v (%d), want the one comment, OUTDATED", min, gone.Minimized)
	}
	if len(s.Reviews()) != 1 {
		t.Error("a run with nothing new posted a review")
	}
}

// findingKeyOf is the agcFindingKey/v1 of the SARIF's only result.
func findingKeyOf(t *testing.T, log []byte) string {
	t.Helper()
	items, err := FromSARIF(log)
	if err != nil || len(items) != 1 {
		t.Fatalf("SARIF items %v: %v", items, err)
	}
	return items[0].Key
}

// A comment someone replied to is never minimised, even when its finding is gone.
func TestRepliedCommentKept(t *testing.T) {
	items, _ := replayItems(t)
	text, d := readDiff(t, filepath.Join(replay, "pr.diff"))
	s, c := fake(t, text)
	opts := replayOptions(t, d)
	if _, err := Run(context.Background(), c, target, items, opts); err != nil {
		t.Fatal(err)
	}
	id := s.Comments(prNumber)[0].ID
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/repos/octo/shop/pulls/%d/comments/%d/replies", s.APIURL(), prNumber, id),
		strings.NewReader(`{"body":"Keeping the print on purpose."}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("User-Agent", "person")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("reply: %v %v", resp, err)
	}
	got, err := Run(context.Background(), c, target, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	if len(s.MinimizedComments()) != 0 || got.Plan.Replied != 1 {
		t.Errorf("minimised %v, kept %d: a replied comment must stay", s.MinimizedComments(), got.Plan.Replied)
	}
}

// numbered is a file of n lines "line i".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// addedDiff is a diff that adds lines 1-n of path.
func addedDiff(path string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, path, path, n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "+line %d\n", i)
	}
	return b.String()
}

func key(i int) string { return fmt.Sprintf("%064x", i+1) }

// 45 findings with edits on the diff give one review of 30 comments, the heaviest first, and
// the body counts the 15 others.
func TestLimitThirty(t *testing.T) {
	const n = 45
	text := addedDiff("big.txt", n)
	d, _ := difffilter.Parse(strings.NewReader(text))
	s, c := fake(t, text)
	var items []Item
	for i := 0; i < n; i++ {
		w := 1
		if i%3 == 0 {
			w = 3 // 15 errors
		}
		items = append(items, Item{Key: key(i), Title: "g: r", Message: "m", Weight: w, Path: "big.txt",
			StartLine: i + 1, Edit: &Edit{Before: fmt.Sprintf("line %d", i+1), After: fmt.Sprintf("LINE %d", i+1)}})
	}
	file := numbered(n)
	got, err := Run(context.Background(), c, target, items, Options{Mode: Suggestions, Diff: d,
		ReadFile: func(string) ([]byte, error) { return []byte(file), nil }})
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	rv := s.Reviews()
	if len(rv) != 1 || len(rv[0].Comments) != MaxComments || got.Plan.Over != 15 {
		t.Fatalf("%d reviews, %d comments, %d over; want 1, 30, 15", len(rv), len(rv[0].Comments), got.Plan.Over)
	}
	if !strings.Contains(rv[0].Body, "15 more comments are not posted") {
		t.Errorf("review body does not count the 15: %q", rv[0].Body)
	}
	if !strings.Contains(got.Plan.Line(true), "15 more not posted") {
		t.Errorf("summary line does not count the 15: %q", got.Plan.Line(true))
	}
	for i, cm := range rv[0].Comments[:15] {
		if !strings.Contains(cm.Body, "```suggestion\nLINE ") || (cm.Line-1)%3 != 0 {
			t.Errorf("comment %d on line %d is not one of the 15 heaviest", i, cm.Line)
		}
	}
}

// Comments are read from every page, so findings on any page count as already commented.
func TestCommentsAllPages(t *testing.T) {
	const n = 7
	text := addedDiff("big.txt", n)
	d, _ := difffilter.Parse(strings.NewReader(text))
	s, c := fake(t, text)
	s.MaxPerPage = 2
	var items []Item
	for i := 0; i < n; i++ {
		items = append(items, Item{Key: key(i), Title: "g: r", Message: "m", Weight: 3, Fails: true, Path: "big.txt", StartLine: i + 1})
	}
	opts := Options{Mode: Comments, Diff: d}
	if _, err := Run(context.Background(), c, target, items, opts); err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), c, target, items, opts)
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	if got.Plan.Already != n || len(s.Reviews()) != 1 {
		t.Errorf("second run: %d already commented over 4 pages, %d reviews; want %d and 1", got.Plan.Already, len(s.Reviews()), n)
	}
	pages := 0
	for _, r := range s.Requests() {
		if strings.HasSuffix(r, "/comments") {
			pages++
		}
	}
	if pages != 5 { // one empty page on the first run, 4 pages of 2 on the second
		t.Errorf("%d list requests, want 5 (1 on the first run, 4 pages of 2 on the second)", pages)
	}
}

// GitHub refusing (a fork's read-only token: 403) is a RefusedError, and nothing is posted.
func TestRefused(t *testing.T) {
	items, _ := replayItems(t)
	text, d := readDiff(t, filepath.Join(replay, "pr.diff"))
	s, c := fake(t, text)
	r := fakegh.Status(http.StatusForbidden, "Resource not accessible by integration")
	s.ReviewRefuse = &r
	_, err := Run(context.Background(), c, target, items, replayOptions(t, d))
	if !IsRefused(err) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("err %v, want a RefusedError with 403", err)
	}
	if len(s.Reviews()) != 0 {
		t.Error("a review was posted")
	}
	if _, err := NewClient(ClientOptions{}); !IsRefused(err) {
		t.Errorf("no token: %v, want a RefusedError", err)
	}
}

// A repair on lines outside the diff is not posted: it stays an annotation.
func TestRepairOffDiff(t *testing.T) {
	text := addedDiff("a.txt", 3)
	d, _ := difffilter.Parse(strings.NewReader(text))
	file := numbered(10)
	it := Item{Key: key(1), Title: "g: r", Message: "m", Weight: 3, Fails: true, Path: "a.txt", StartLine: 8,
		Edit: &Edit{Before: "line 8", After: "LINE 8"}}
	for _, mode := range []Mode{Suggestions, Comments} {
		p := Make([]Item{it}, nil, Options{Mode: mode, Diff: d, ReadFile: func(string) ([]byte, error) { return []byte(file), nil }})
		if len(p.Comments) != 0 || p.OffDiff != 1 {
			t.Errorf("%s: %d comments, %d off the diff; want 0 and 1", mode, len(p.Comments), p.OffDiff)
		}
	}
}

// Suggestions replace exactly the lines the repair touches.
func TestSuggest(t *testing.T) {
	file := "a\n\tprint(\"x\")\nb\nc\nd\n"
	tests := []struct {
		name string
		it   Item
		want Suggestion
		ok   bool
	}{
		{"delete, indentation left", Item{StartLine: 2, Edit: &Edit{Before: `print("x")`}}, Suggestion{2, 2, ""}, true},
		{"rewrite inside a line", Item{StartLine: 2, Edit: &Edit{Before: `"x"`, After: `"y"`}}, Suggestion{2, 2, "\tprint(\"y\")"}, true},
		{"multi-line", Item{StartLine: 3, EndLine: 4, Edit: &Edit{Before: "b\nc\n", After: "B\nC\nC2\n"}}, Suggestion{3, 4, "B\nC\nC2"}, true},
		{"multi-line inside a wider range", Item{StartLine: 1, EndLine: 5, Edit: &Edit{Before: "c\nd", After: "cd"}}, Suggestion{4, 5, "cd"}, true},
		{"whole lines", Item{StartLine: 3, EndLine: 4, Edit: &Edit{After: "x\n"}}, Suggestion{3, 4, "x"}, true},
		{"found by text", Item{Edit: &Edit{Before: "c", After: "C"}}, Suggestion{4, 4, "C"}, true},
		{"text twice", Item{Edit: &Edit{Before: "\n", After: "C"}}, Suggestion{}, false},
		{"not on its lines", Item{StartLine: 1, Edit: &Edit{Before: "c", After: "C"}}, Suggestion{}, false},
		{"past the end", Item{StartLine: 9, Edit: &Edit{After: "x"}}, Suggestion{}, false},
	}
	for _, tt := range tests {
		got, ok := Suggest([]byte(file), tt.it)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// A multi-line repair is one comment from start_line to line, and a repair whose text holds a
// ``` fence gets a longer fence, so that the suggestion holds exactly the new lines.
func TestMultiLineAndFences(t *testing.T) {
	text := addedDiff("README.md", 6)
	d, _ := difffilter.Parse(strings.NewReader(text))
	file := "line 1\nline 2\n```sh\nmake\n```\nline 6\n"
	after := "```sh\nmake test\n```"
	it := Item{Key: key(2), Title: "docs: example", Message: "Use the make target.", Weight: 2, Path: "README.md", StartLine: 3, EndLine: 5,
		Edit: &Edit{Before: "```sh\nmake\n```", After: after}}
	p := Make([]Item{it}, nil, Options{Mode: Suggestions, Diff: d, ReadFile: func(string) ([]byte, error) { return []byte(file), nil }})
	if len(p.Comments) != 1 {
		t.Fatalf("%d comments, want 1", len(p.Comments))
	}
	c := p.Comments[0]
	if c.StartLine != 3 || c.Line != 5 || c.StartSide != "RIGHT" || c.Side != "RIGHT" {
		t.Errorf("range %d-%d (%s/%s), want 3-5 RIGHT", c.StartLine, c.Line, c.StartSide, c.Side)
	}
	if !strings.Contains(c.Body, "\n````suggestion\n"+after+"\n````\n") {
		t.Errorf("the suggestion is not fenced by four backticks around exactly the new lines:\n%s", c.Body)
	}
	// GitHub takes the range: both lines in one hunk, start_side with start_line.
	s, cl := fake(t, text)
	if _, err := cl.Post(context.Background(), target, p.Request(headSHA)); err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	if got := fence("a ````` b"); got != "``````" {
		t.Errorf("fence of five backticks: %q", got)
	}
}

// Command rewrites never become suggestions, and agent text cannot forge a marker or mention.
func TestNoCommandSuggestionsAndInertText(t *testing.T) {
	fs := []findings.Finding{{RuleID: "ws/cd", Gate: "ws", Rule: "cd", Kind: findings.RuntimeGate, Verdict: "repaired",
		Level: findings.Warning, Message: "cd @octocat <!-- agcFindingKey/v1:" + key(9) + " -->",
		Location: &findings.Location{Path: "src/app.go", StartLine: 3},
		Repair:   &findings.Repair{Before: "cd /a", After: "cd /b"}, Call: &findings.Call{Tool: "Bash", Command: "cd /a"}}}
	items := FromFindings(fs, nil)
	if len(items) != 1 || items[0].Edit != nil {
		t.Fatalf("a Bash rewrite gave an edit: %+v", items)
	}
	body, _ := commentBody(items[0], nil, nil)
	if KeyOf(body) != items[0].Key || strings.Count(body, "<!--") != 1 || strings.Contains(body, "@octocat") {
		t.Errorf("agent text is not inert:\n%s", body)
	}
}

// A runtime gate's repair of an Edit whose text still stands on lines the change added becomes a
// suggestion there; once the repair stands in the file (the runtime applied it), or on a line the
// change did not add, there is nothing to suggest.
func TestRuntimeEditRepair(t *testing.T) {
	text := "diff --git a/src/a.go b/src/a.go\n--- a/src/a.go\n+++ b/src/a.go\n@@ -1,2 +1,3 @@\n package a\n+// TODO: fix the rounding\n func f() {}\n"
	d, _ := difffilter.Parse(strings.NewReader(text))
	f := findings.Finding{RuleID: "hygiene/todo", Gate: "hygiene", Rule: "todo", Kind: findings.RuntimeGate, Verdict: "repaired",
		Level: findings.Warning, Message: "Open an issue instead of a TODO.", Target: "Edit.new_string",
		Location: &findings.Location{Path: "src/a.go", StartLine: 1}, Placed: findings.PlacedFile,
		Repair: &findings.Repair{Before: "// TODO: fix the rounding", After: "// Rounding: see issue 12."},
		Call:   &findings.Call{Runtime: "claude-code", Tool: "Edit", FilePath: "src/a.go"}}
	items := FromFindings([]findings.Finding{f}, nil)
	if len(items) != 1 || items[0].Edit == nil {
		t.Fatalf("a runtime Edit repair gave no edit: %+v", items)
	}
	read := func(content string) func(string) ([]byte, error) {
		return func(string) ([]byte, error) { return []byte(content), nil }
	}
	p := Make(items, nil, Options{Mode: Suggestions, Diff: d, ReadFile: read("package a\n// TODO: fix the rounding\nfunc f() {}\n")})
	if len(p.Comments) != 1 || p.Comments[0].Line != 2 || !strings.Contains(p.Comments[0].Body, "```suggestion\n// Rounding: see issue 12.\n```") {
		t.Fatalf("comments %+v, want a suggestion on line 2", p.Comments)
	}
	if p := Make(items, nil, Options{Mode: Suggestions, Diff: d, ReadFile: read("package a\n// Rounding: see issue 12.\nfunc f() {}\n")}); len(p.Comments) != 0 {
		t.Errorf("the repair already stands, yet %d comments", len(p.Comments))
	}
	if p := Make(items, nil, Options{Mode: Suggestions, Diff: d, ReadFile: read("// TODO: fix the rounding\n\nfunc f() {}\n")}); len(p.Comments) != 0 || p.OffDiff != 1 {
		t.Errorf("the text stands on a line the change did not add, yet %d comments (%d off the diff)", len(p.Comments), p.OffDiff)
	}
}

// A body stays under GitHub's 65,536 characters: a suggestion too long for a comment is left
// out with a sentence saying so, and the comment is still posted.
func TestBodyLimit(t *testing.T) {
	text := addedDiff("a.txt", 1)
	d, _ := difffilter.Parse(strings.NewReader(text))
	s, c := fake(t, text)
	long := strings.Repeat("x", MaxBody)
	it := Item{Key: key(3), Title: "g: r", Message: strings.Repeat("m ", MaxBody), Weight: 3, Path: "a.txt", StartLine: 1,
		Edit: &Edit{Before: "line 1", After: long}}
	_, err := Run(context.Background(), c, target, []Item{it}, Options{Mode: Suggestions, Diff: d,
		ReadFile: func(string) ([]byte, error) { return []byte("line 1\n"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	noViolations(t, s)
	rv := s.Reviews()
	if len(rv) != 1 || len(rv[0].Comments) != 1 {
		t.Fatalf("%d reviews, want 1 with 1 comment", len(rv))
	}
	b := rv[0].Comments[0].Body
	if len(b) >= MaxBody || strings.Contains(b, "```suggestion") || !strings.Contains(b, "too long for a review comment") || KeyOf(b) != key(3) {
		t.Errorf("body of %d bytes, suggestion kept or unexplained:\n%.300s", len(b), b)
	}
}
