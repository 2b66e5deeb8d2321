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
)

// TestReviewDryRunPlantedClasses runs `agc-sarif review --dry-run --mode comments` on a reviewer's
// judgment whose findings hold every one-line variant of every class of secret (issue 33) in their
// messages and in their repairs, on lines of a new file that the diff adds: the printed request
// holds none of the secrets, whole or escaped as JSON, and no comment keeps a suggestion whose
// repair held one; a clean repair beside them is still suggested, so the test sees suggestions.
// The review posts at most 30 comments a run, so the variants go in batches of 25.
func TestReviewDryRunPlantedClasses(t *testing.T) {
	var oneLine []secrettest.Secret
	for _, s := range secrettest.Classes() {
		if s.OneLine() {
			oneLine = append(oneLine, s)
		}
	}
	for from := 0; from < len(oneLine); from += 25 {
		dryRunBatch(t, oneLine[from:min(from+25, len(oneLine))])
	}
}

// dryRunBatch is one run of TestReviewDryRunPlantedClasses, on a batch of variants.
func dryRunBatch(t *testing.T, shapes []secrettest.Secret) {
	ws := t.TempDir()
	var file strings.Builder
	var fs []map[string]any
	var secrets []string
	for i, s := range shapes {
		fmt.Fprintf(&file, "x = old%d\n", i)
		fs = append(fs, map[string]any{"rule": fmt.Sprintf("r%d", i), "message": "Found " + s.Text,
			"location": map[string]any{"path": "src/app.py", "line": len(fs) + 1},
			"repair":   map[string]any{"before": fmt.Sprintf("old%d", i), "after": s.Text}})
		secrets = append(secrets, s.Secret)
	}
	file.WriteString("y = old\n")
	fs = append(fs, map[string]any{"rule": "clean", "message": "rename", "location": map[string]any{"path": "src/app.py", "line": len(fs) + 1},
		"repair": map[string]any{"before": "old", "after": "new"}})
	lines := strings.Count(file.String(), "\n")
	var diff strings.Builder
	fmt.Fprintf(&diff, "diff --git a/src/app.py b/src/app.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/app.py\n@@ -0,0 +1,%d @@\n", lines)
	for _, l := range strings.SplitAfter(strings.TrimSuffix(file.String(), "\n"), "\n") {
		diff.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
	}
	block, _ := json.Marshal(map[string]any{"agc": "0.1", "gate": map[string]any{"id": "sec", "kind": "judgment"}, "verdict": "block", "findings": fs})
	os.MkdirAll(filepath.Join(ws, "src"), 0o755)
	os.MkdirAll(filepath.Join(ws, "reviews"), 0o755)
	os.WriteFile(filepath.Join(ws, "src", "app.py"), []byte(file.String()), 0o644)
	os.WriteFile(filepath.Join(ws, "reviews", "review.md"), []byte("Review.\n\n```agc\n"+string(block)+"\n```\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "pr.diff"), []byte(diff.String()), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: ws, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), []string{"agc-sarif", "review", "--judgment", "reviews/review.md", "--mode", "comments",
		"--root", ".", "--diff", "pr.diff", "--commit", actHead, "--dry-run"}, env)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the block)\n%s", code, errb.String())
	}
	var req struct {
		Comments []struct {
			Body string `json:"body"`
		} `json:"comments"`
	}
	if err := json.Unmarshal(out.Bytes(), &req); err != nil {
		t.Fatalf("dry run: %v\n%s", err, out.String())
	}
	if len(req.Comments) != len(fs) {
		t.Fatalf("%d comments in the dry run for %d findings: the test would not see them all\n%s", len(req.Comments), len(fs), out.String())
	}
	all := out.String() + errb.String()
	for _, s := range secrets {
		if strings.Contains(all, s) || strings.Contains(all, strings.Trim(fmt.Sprintf("%q", s), `"`)) {
			t.Errorf("secret %q reached the dry run's output", s)
		}
	}
	suggested, clean := 0, false
	for _, c := range req.Comments {
		if !strings.Contains(c.Body, "```suggestion") {
			continue
		}
		suggested++
		if strings.Contains(c.Body, "y = new") {
			clean = true
		}
		if strings.Contains(c.Body, "[REDACTED:") {
			t.Errorf("a suggestion would commit a redaction placeholder:\n%s", c.Body)
		}
	}
	if !clean {
		t.Error("the clean repair was not suggested: the test cannot tell a suggestion left out from none made")
	}
	if suggested != 1 {
		t.Errorf("%d suggestions, want only the clean one: a repair holding a secret was suggested", suggested)
	}
}
