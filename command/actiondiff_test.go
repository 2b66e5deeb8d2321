package command

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// filterByDiff is the findings changeFilter keeps (all of them when no diff applies), as
// annotations and the summary show them, with its note.
func filterByDiff(ctx context.Context, gha *githubactions.Action, ghc *githubactions.GitHubContext, in actionInputs, res *collect.Result, pre loadedDiff) ([]findings.Finding, string) {
	keep, note := changeFilter(ctx, gha, ghc, in, res, pre)
	if keep == nil {
		return res.Findings, note
	}
	var kept []findings.Finding
	for i := range res.Findings {
		if keep(&res.Findings[i]) {
			kept = append(kept, res.Findings[i])
		}
	}
	return kept, note
}

// TestFilterByDiff: annotations and the summary show the findings on lines the pull request
// adds; the rest are counted in a note; a base that cannot be read shows everything.
func TestFilterByDiff(t *testing.T) {
	root := t.TempDir()
	git(t, root, "init", "-q")
	os.WriteFile(filepath.Join(root, "a.go"), []byte("one\ntwo\nthree\n"), 0o644)
	git(t, root, "add", "a.go")
	git(t, root, "commit", "-qm", "base")
	base := git(t, root, "rev-parse", "HEAD")
	os.WriteFile(filepath.Join(root, "a.go"), []byte("one\ntwo\nadded\nthree\n"), 0o644)
	git(t, root, "commit", "-qam", "change")

	at := func(line int) findings.Finding {
		return findings.Finding{RuleID: "g/r", Location: &findings.Location{Path: "a.go", StartLine: line}}
	}
	res := &collect.Result{Root: root, Findings: []findings.Finding{at(1), at(3), at(4)}}
	ghc := &githubactions.GitHubContext{Event: map[string]any{"pull_request": map[string]any{"base": map[string]any{"sha": base}}}}
	var out bytes.Buffer
	gha := githubactions.New(githubactions.WithWriter(&out), githubactions.WithGetenv(func(string) string { return "" }))

	shown, note := filterByDiff(context.Background(), gha, ghc, actionInputs{DiffFilter: difffilter.Added}, res, loadedDiff{})
	if len(shown) != 1 || shown[0].Location.StartLine != 3 {
		t.Fatalf("shown = %+v, want only the finding on added line 3", shown)
	}
	if !strings.Contains(note, "the 2 others are listed below and in the SARIF") {
		t.Errorf("note = %q", note)
	}
	shown, _ = filterByDiff(context.Background(), gha, ghc, actionInputs{DiffFilter: difffilter.File}, res, loadedDiff{})
	if len(shown) != 3 {
		t.Errorf("file mode shows %d, want 3", len(shown))
	}
	shown, note = filterByDiff(context.Background(), gha, ghc, actionInputs{DiffFilter: difffilter.Added, Base: strings.Repeat("0", 40)}, res, loadedDiff{})
	if len(shown) != 3 || note != "" || !strings.Contains(out.String(), "::warning::") {
		t.Errorf("unreadable base: shown %d, note %q, output %q; want all shown and a warning", len(shown), note, out.String())
	}
	noPR := &githubactions.GitHubContext{}
	if shown, _ := filterByDiff(context.Background(), gha, noPR, actionInputs{DiffFilter: difffilter.Added}, res, loadedDiff{}); len(shown) != 3 {
		t.Errorf("a push (no base) shows %d, want all 3", len(shown))
	}
}

// TestActionDiffFromAPI: in a pull request the action reads the diff from the API (the image has
// no git), and annotations and the summary show only the findings on added lines.
func TestActionDiffFromAPI(t *testing.T) {
	srv := fakegh.New("octo", "repo", actToken)
	defer srv.Close()
	srv.Diffs = map[int]string{7: "diff --git a/src/app.go b/src/app.go\n--- a/src/app.go\n+++ b/src/app.go\n" +
		"@@ -4,1 +4,3 @@\n-\tquery := \"x\"\n+\tquery := \"SELECT * FROM t WHERE id = \" + id\n+\t_ = query\n+\treturn\n"}
	ws := workspace(t, actSHA)
	vars := actionVars(t, ws, srv, "event-pull-request.json")
	vars["INPUT_UPLOAD"] = "false"
	r := runActionEnv(t, ws, vars)
	if r.code != ExitFail {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(strings.Join(srv.Requests(), "\n"), "GET /repos/octo/repo/pulls/7") {
		t.Fatalf("the pull request's diff was not read: %v", srv.Requests())
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("API violations:\n%s", strings.Join(v, "\n"))
	}
	if !regexp.MustCompile(`title=[^:]*code-review/sql-injection`).MatchString(r.stdout) {
		t.Errorf("the finding on added lines 5-6 is not annotated:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "title=style/naming") {
		t.Errorf("a finding on line 1, outside the diff, is annotated:\n%s", r.stdout)
	}
	if !strings.Contains(r.summary, "the 4 others are listed below and in the SARIF file") || !strings.Contains(r.summary, `pull request [#]7`) ||
		!strings.Contains(r.summary, "1 contract finding") {
		t.Errorf("the summary does not say findings were filtered:\n%s", r.summary)
	}
	if !strings.Contains(r.sarif, "style/naming") {
		t.Error("the SARIF must keep every result")
	}
}

// TestActionSessionAnchor runs the action on the real Claude Code session of
// testdata/claude/session-anchor in a pull request whose diff (from the API, read once) is the
// agent's change: the SARIF places the session's Bash events beside its edits, and they are
// annotated, since they stand on lines the change added; session-anchor: config keeps them at the
// hook's line.
func TestActionSessionAnchor(t *testing.T) {
	src := filepath.Join("..", "testdata", "claude", "session-anchor")
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []string{"edit", "config"} {
		t.Run(mode, func(t *testing.T) {
			ws, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			copyFile(filepath.Join(src, "files", "src", "app.py"), filepath.Join(ws, "src", "app.py"))
			copyFile(filepath.Join(src, "files", "README.md"), filepath.Join(ws, "README.md"))
			copyFile(filepath.Join(src, "settings.json"), filepath.Join(ws, ".claude", "settings.json"))
			git(t, ws, "init", "-q", "-b", "main")
			git(t, ws, "add", "-A")
			git(t, ws, "commit", "-q", "-m", "base")
			for _, f := range []string{"app.py", "util.py"} {
				copyFile(filepath.Join(src, "change", "src", f), filepath.Join(ws, "src", f))
			}
			git(t, ws, "add", "-A")
			git(t, ws, "commit", "-q", "-m", "change")
			diff := git(t, ws, "diff", "HEAD~1", "HEAD") + "\n"
			copyFile(filepath.Join(src, "session.jsonl"), filepath.Join(ws, ".agc", "session.jsonl"))

			srv := fakegh.New("octo", "repo", actToken)
			defer srv.Close()
			srv.Diffs = map[int]string{7: diff}
			vars := actionVars(t, ws, srv, "event-pull-request.json")
			vars["INPUT_UPLOAD"] = "false"
			vars["INPUT_FAIL-ON"] = "none"
			vars["INPUT_SESSION-ANCHOR"] = mode
			r := runActionEnv(t, ws, vars)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if n := strings.Count(strings.Join(srv.Requests(), "\n"), "GET /repos/octo/repo/pulls/7"); n != 1 {
				t.Errorf("the pull request's diff was read %d times, want once: %v", n, srv.Requests())
			}
			beside := strings.Count(r.sarif, "Anchored beside the agent's edit of src/")
			annotated := strings.Contains(r.stdout, "title=git-safety/force-push")
			if mode == "edit" && (beside < 6 || !annotated || !strings.Contains(r.sarif, `"relatedLocations"`)) {
				t.Errorf("events beside edits: %d, force-push annotated: %v\n%s", beside, annotated, r.stdout)
			}
			if mode == "config" && (beside != 0 || annotated) {
				t.Errorf("session-anchor config: %d events beside edits, force-push annotated: %v", beside, annotated)
			}
		})
	}
}
