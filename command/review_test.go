package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
	"github.com/agc-sarif/agc-sarif/internal/visible"
	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// reviewReplay is the real Claude Code reviewer run whose repair deletes src/app.py:5.
const reviewReplay = "../testdata/review/reviewer-repair"

// reviewWorkspace is the pull request's head (src/app.py) with the reviewer's execution file.
func reviewWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	for src, dst := range map[string]string{"files/src/app.py": "src/app.py", "execution.json": "reviews/execution.json"} {
		b, err := os.ReadFile(filepath.Join(reviewReplay, src))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(ws, filepath.Dir(dst)), 0o755)
		if err := os.WriteFile(filepath.Join(ws, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(ws, ".git"), 0o755)
	os.WriteFile(filepath.Join(ws, ".git", "HEAD"), []byte(actHead+"\n"), 0o644)
	return ws
}

// reviewFake is the stand-in API with the pull request's diff.
func reviewFake(t *testing.T) *fakegh.Server {
	t.Helper()
	srv := fakegh.New("octo", "repo", actToken)
	t.Cleanup(srv.Close)
	diff, err := os.ReadFile(filepath.Join(reviewReplay, "pr.diff"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Diffs = map[int]string{7: string(diff)}
	return srv
}

func reviewVars(t *testing.T, ws string, srv *fakegh.Server, event, mode string) map[string]string {
	vars := actionVars(t, ws, srv, event)
	vars["INPUT_PATHS"] = ""
	vars["INPUT_JUDGMENTS"] = "reviews/execution.json"
	vars["INPUT_UPLOAD"] = "false"
	vars["INPUT_PR-REVIEW"] = mode
	return vars
}

// The action posts the real reviewer's repair as one suggestion on src/app.py:5, once; the exit
// status is the same as without the review.
func TestActionReviewPostsSuggestionOnce(t *testing.T) {
	ws := reviewWorkspace(t)
	srv := reviewFake(t)
	off := runActionEnv(t, ws, reviewVars(t, ws, srv, "event-pull-request.json", "off"))
	if len(srv.Reviews()) != 0 {
		t.Fatal("pr-review: off posted a review")
	}
	r := runActionEnv(t, ws, reviewVars(t, ws, srv, "event-pull-request.json", "suggestions"))
	checkInert(t, r)
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("requests broke the API:\n%s", strings.Join(v, "\n"))
	}
	if r.code != off.code || r.code != 1 {
		t.Errorf("exit status %d, without the review %d; want 1 both (the judgment blocks)", r.code, off.code)
	}
	rv := srv.Reviews()
	if len(rv) != 1 || len(rv[0].Comments) != 1 {
		t.Fatalf("%d reviews, want 1 with 1 comment\nstderr:\n%s", len(rv), r.stderr)
	}
	c := rv[0].Comments[0]
	if rv[0].CommitID != actHead || c.Path != "src/app.py" || c.Line != 5 || c.StartLine != 0 || !strings.Contains(c.Body, "```suggestion\n```") {
		t.Errorf("review on %s: comment %s:%d (start %d):\n%s", rv[0].CommitID, c.Path, c.Line, c.StartLine, c.Body)
	}
	if !strings.Contains(r.summary, "### Pull-request review") || !strings.Contains(r.summary, "posted 1 suggested change") {
		t.Errorf("job summary does not say what the review posted:\n%s", r.summary)
	}
	again := runActionEnv(t, ws, reviewVars(t, ws, srv, "event-pull-request.json", "suggestions"))
	if len(srv.Reviews()) != 1 || !strings.Contains(again.summary, "1 already commented") {
		t.Errorf("second run: %d reviews, summary:\n%s", len(srv.Reviews()), again.summary)
	}
}

// On a fork's pull request nothing is sent to the review API, one notice says why, and the exit
// status does not change.
func TestActionReviewForkNotice(t *testing.T) {
	ws := reviewWorkspace(t)
	srv := reviewFake(t)
	r := runActionEnv(t, ws, reviewVars(t, ws, srv, "event-fork-pull-request.json", "comments"))
	for _, req := range srv.Requests() {
		if strings.Contains(req, "/reviews") || strings.Contains(req, "/comments") || strings.Contains(req, "graphql") {
			t.Errorf("a fork's run sent %s", req)
		}
	}
	if n := strings.Count(r.stdout, "::notice::pr-review:"); n != 1 || !strings.Contains(r.stdout, "fork") {
		t.Errorf("%d pr-review notices, want 1 naming the fork:\n%s", n, r.stdout)
	}
	if r.code != 1 {
		t.Errorf("exit status %d, want 1 (the judgment's block), as without the review", r.code)
	}
	// pull_request_target runs on the base repository's side with a token that may write.
	vars := reviewVars(t, ws, srv, "event-fork-pull-request.json", "comments")
	vars["GITHUB_EVENT_NAME"] = "pull_request_target"
	runActionEnv(t, ws, vars)
	if len(srv.Reviews()) != 1 {
		t.Errorf("pull_request_target on a fork's pull request: %d reviews, want 1", len(srv.Reviews()))
	}
}

// GitHub refusing (403) is one notice, not a failure.
func TestActionReviewRefusedNotice(t *testing.T) {
	ws := reviewWorkspace(t)
	srv := reviewFake(t)
	refuse := fakegh.Status(403, "Resource not accessible by integration")
	srv.ReviewRefuse = &refuse
	r := runActionEnv(t, ws, reviewVars(t, ws, srv, "event-pull-request.json", "suggestions"))
	if n := strings.Count(r.stdout, "::notice::pr-review:"); n != 1 || !strings.Contains(r.stdout, "403") {
		t.Errorf("%d pr-review notices, want 1 with the 403:\n%s", n, r.stdout)
	}
	if r.code != 1 || len(srv.Reviews()) != 0 {
		t.Errorf("exit status %d, %d reviews; want 1 and none", r.code, len(srv.Reviews()))
	}
}

// The workflow_run recipe for forks: on the base repository's side, with the ref and sha
// inputs naming the fork's pull request, the review is posted there.
func TestActionReviewWorkflowRun(t *testing.T) {
	ws := reviewWorkspace(t)
	srv := reviewFake(t)
	vars := reviewVars(t, ws, srv, "event-pull-request.json", "suggestions")
	ev := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(ev, []byte(`{"action":"completed","workflow_run":{"event":"pull_request","head_sha":"`+actHead+`",`+
		`"head_repository":{"full_name":"stranger/repo"}},"repository":{"full_name":"octo/repo"}}`), 0o644)
	vars["GITHUB_EVENT_PATH"], vars["GITHUB_EVENT_NAME"], vars["GITHUB_REF"] = ev, "workflow_run", "refs/heads/main"
	vars["INPUT_REF"], vars["INPUT_SHA"] = "refs/pull/7/head", actHead
	r := runActionEnv(t, ws, vars)
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("requests broke the API:\n%s", strings.Join(v, "\n"))
	}
	rv := srv.Reviews()
	if len(rv) != 1 || rv[0].Number != 7 || rv[0].CommitID != actHead || len(rv[0].Comments) != 1 {
		t.Fatalf("reviews %+v, want one on pull request 7 at %s\nstdout:\n%s\nstderr:\n%s", rv, actHead, r.stdout, r.stderr)
	}
	if r.code != 1 {
		t.Errorf("exit status %d, want 1 (the judgment's block)", r.code)
	}
}

// docs/review.md shows the comment and the dry-run request the code makes for the real reviewer
// run, exactly, and includes the linted fork workflow verbatim.
func TestReviewDocIsCurrent(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	ws := reviewWorkspace(t)
	diff, _ := os.ReadFile(filepath.Join(reviewReplay, "pr.diff"))
	os.WriteFile(filepath.Join(ws, "pr.diff"), diff, 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: ws, Getenv: func(string) string { return "" }}
	// the layout of the docs' example: the head's files under files/ (here: the workspace itself)
	code := Main(context.Background(), []string{"agc-sarif", "review", "--judgment", "reviews/execution.json",
		"--root", ".", "--diff", "pr.diff", "--commit", actHead, "--dry-run"}, env)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the block)\n%s", code, errb.String())
	}
	var req struct {
		Comments []struct {
			Body string `json:"body"`
		} `json:"comments"`
	}
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || len(req.Comments) != 1 {
		t.Fatalf("dry run: %v\n%s", err, out.String())
	}
	want := "````markdown\n" + req.Comments[0].Body + "\n````\n"
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/review.md does not show the comment the code makes:\n%s", want)
	}
	if readme, err := os.ReadFile(filepath.Join("..", "README.md")); err != nil || !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not show the comment the code makes (%v):\n%s", err, want)
	}
	wf, err := os.ReadFile(filepath.Join("..", "testdata", "review", "fork-pr-review.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "<!-- workflow: testdata/review/fork-pr-review.yml -->\n```yaml\n" + string(wf) + "```\n"; !strings.Contains(string(doc), want) {
		t.Error("docs/review.md does not include testdata/review/fork-pr-review.yml verbatim")
	}
	script, err := os.ReadFile(filepath.Join("testdata", "script", "review.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ = strings.Cut(string(script), "-- want.json --\n")
	if !strings.Contains(string(doc), "```json\n"+want+"```\n") {
		t.Error("docs/review.md's dry-run request is not review.txtar's want.json")
	}
}

// Secrets planted in a reviewer's repairs and messages never reach a request to GitHub: every
// one-line shape of the corpus, through collect, the action and the review (at most 30 comments a
// run, so the runs go on until every finding is posted).
func TestActionReviewPlantedSecrets(t *testing.T) {
	ws := t.TempDir()
	var file, diff strings.Builder
	var fs []map[string]any
	var secrets []string
	for i, s := range secrettest.Planted() {
		if !s.OneLine() {
			continue
		}
		fmt.Fprintf(&file, "x = old%d\n", i)
		fs = append(fs, map[string]any{"rule": fmt.Sprintf("r%d", i), "message": "Found " + s.Text,
			"location": map[string]any{"path": "src/app.py", "line": len(fs) + 1},
			"repair":   map[string]any{"before": fmt.Sprintf("old%d", i), "after": s.Text}})
		secrets = append(secrets, s.Secret)
	}
	fmt.Fprintf(&diff, "diff --git a/src/app.py b/src/app.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/app.py\n@@ -0,0 +1,%d @@\n", len(fs))
	for _, l := range strings.SplitAfter(strings.TrimSuffix(file.String(), "\n"), "\n") {
		diff.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
	}
	block, _ := json.Marshal(map[string]any{"agc": "0.1", "gate": map[string]any{"id": "sec", "kind": "judgment"}, "verdict": "block", "findings": fs})
	os.MkdirAll(filepath.Join(ws, "src"), 0o755)
	os.MkdirAll(filepath.Join(ws, "reviews"), 0o755)
	os.WriteFile(filepath.Join(ws, "src", "app.py"), []byte(file.String()), 0o644)
	os.WriteFile(filepath.Join(ws, "reviews", "execution.json"), []byte("Review.\n\n```agc\n"+string(block)+"\n```\n"), 0o644)
	os.Rename(filepath.Join(ws, "reviews", "execution.json"), filepath.Join(ws, "reviews", "review.md"))
	srv := fakegh.New("octo", "repo", actToken)
	t.Cleanup(srv.Close)
	srv.Diffs = map[int]string{7: diff.String()}
	posted := 0
	for run := 0; run < len(fs)/30+3 && posted < len(fs); run++ { // 30 comments a run
		vars := reviewVars(t, ws, srv, "event-pull-request.json", "comments")
		vars["INPUT_JUDGMENTS"] = "reviews/review.md"
		r := runActionEnv(t, ws, vars)
		if r.code != 1 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		posted = len(srv.Comments(7))
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("requests broke the API:\n%s", strings.Join(v, "\n"))
	}
	if posted != len(fs) || len(srv.Reviews()) < 2 {
		t.Fatalf("%d of %d findings posted in %d reviews", posted, len(fs), len(srv.Reviews()))
	}
	suggested := 0
	for _, rv := range srv.Reviews() {
		for _, s := range secrets {
			if strings.Contains(rv.Raw, s) || strings.Contains(rv.Raw, strings.Trim(fmt.Sprintf("%q", s), `"`)) {
				t.Errorf("secret %q reached a review request", s)
			}
		}
		for _, c := range rv.Comments {
			if strings.Contains(c.Body, "```suggestion") {
				suggested++
			} else if !strings.Contains(c.Body, "looks like a secret") {
				t.Errorf("a comment left its suggestion out without saying why:\n%s", c.Body)
			}
			if strings.Contains(c.Body, "```suggestion") && strings.Contains(c.Body, "[REDACTED:") {
				t.Errorf("a suggestion would commit a redaction placeholder:\n%s", c.Body)
			}
		}
	}
	// Each repair's after text is a planted secret, so no suggestion may be shown.
	if suggested != 0 {
		t.Errorf("%d of %d comments kept a suggestion holding a planted secret", suggested, posted)
	}
}

// review --dry-run shows agent text as the comments would hold it, with every hidden character
// (C0 and C1 controls, DEL, bidi, zero-width, line separators) written as a visible escape, as on
// stderr, and no link: the message's and the fix's hostile text reach stdout inert.
func TestReviewDryRunInert(t *testing.T) {
	ws := t.TempDir()
	hidden := "\x07\x1b[31m\x7f\u0085\u009b\u00ad\u061c\u200b\u200d\u200e\u202a\u202e\u2066\u2069\u2028\u2029\u2060\ufeff"
	msg := "evil" + hidden + " https://evil.example #12 @octocat"
	log := map[string]any{"version": "2.1.0", "runs": []any{map[string]any{
		"tool": map[string]any{"driver": map[string]any{"name": "agc-sarif", "rules": []any{
			map[string]any{"id": "g/r", "shortDescription": map[string]any{"text": "g: r" + hidden}}}}},
		"results": []any{map[string]any{"ruleId": "g/r", "level": "error", "message": map[string]any{"text": msg},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": "src/a.go"}, "region": map[string]any{"startLine": 2}}}},
			"partialFingerprints": map[string]any{"agcFindingKey/v1": strings.Repeat("ab", 32)},
			"properties":          map[string]any{"gate": "g" + hidden, "verdict": "block", "source": ".agc/x" + hidden},
			"fixes": []any{map[string]any{"artifactChanges": []any{map[string]any{
				"artifactLocation": map[string]any{"uri": "src/a.go"},
				"replacements": []any{map[string]any{"deletedRegion": map[string]any{"startLine": 2, "endLine": 2},
					"insertedContent": map[string]any{"text": "x := 2 //" + hidden + "\n"}}}}}}}}}}}}
	data, _ := json.Marshal(log)
	os.WriteFile(filepath.Join(ws, "x.sarif"), data, 0o644)
	os.WriteFile(filepath.Join(ws, "pr.diff"), []byte("diff --git a/src/a.go b/src/a.go\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.go\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n"), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: ws, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), []string{"agc-sarif", "review", "--sarif", "x.sarif", "--diff", "pr.diff",
		"--commit", actHead, "--mode", "comments", "--dry-run"}, env)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	var req struct {
		Comments []struct{ Body string } `json:"comments"`
	}
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || len(req.Comments) != 1 {
		t.Fatalf("dry run: %v\n%s", err, out.String())
	}
	for _, r := range out.String() + errb.String() {
		if visible.Hidden(r) && r != '\n' {
			t.Fatalf("hidden %U on stdout or stderr:\n%q", r, out.String())
		}
	}
	body := req.Comments[0].Body
	for _, r := range body {
		if visible.Hidden(r) && r != '\n' {
			t.Fatalf("hidden %U in the comment's body:\n%q", r, body)
		}
	}
	for _, want := range []string{`\u202e`, `\x1b`, `\x7f`, `\u2028`, "https[:]//evil.example", "[#]12", "＠octocat"} {
		if !strings.Contains(body, want) {
			t.Errorf("the body does not show %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "```suggestion") {
		t.Errorf("a fix holding hidden characters is suggested:\n%s", body)
	}
}
