package command

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
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

	shown, note := filterByDiff(context.Background(), gha, ghc, actionInputs{DiffFilter: difffilter.Added}, res)
	if len(shown) != 1 || shown[0].Location.StartLine != 3 {
		t.Fatalf("shown = %+v, want only the finding on added line 3", shown)
	}
	if !strings.Contains(note, "2 more are in the SARIF") {
		t.Errorf("note = %q", note)
	}
	shown, _ = filterByDiff(context.Background(), gha, ghc, actionInputs{DiffFilter: difffilter.File}, res)
	if len(shown) != 3 {
		t.Errorf("file mode shows %d, want 3", len(shown))
	}
	shown, note = filterByDiff(context.Background(), gha, ghc, actionInputs{DiffFilter: difffilter.Added, Base: strings.Repeat("0", 40)}, res)
	if len(shown) != 3 || note != "" || !strings.Contains(out.String(), "::warning::") {
		t.Errorf("unreadable base: shown %d, note %q, output %q; want all shown and a warning", len(shown), note, out.String())
	}
	noPR := &githubactions.GitHubContext{}
	if shown, _ := filterByDiff(context.Background(), gha, noPR, actionInputs{DiffFilter: difffilter.Added}, res); len(shown) != 3 {
		t.Errorf("a push (no base) shows %d, want all 3", len(shown))
	}
}
