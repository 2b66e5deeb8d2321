package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionJudgments: the judgments input reads a reviewer's execution file fail-closed (a
// workspace without .agc is fine then), and a Markdown file without an agc block that walking
// .agc finds is named in the job summary and on stderr.
func TestActionJudgments(t *testing.T) {
	for _, tc := range []struct {
		name, scenario, rule string
	}{
		{"block", "reviewer-block", "code-review/missing-limit-check"},
		{"no block", "reviewer-no-block", "agc/judgment-no-block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			b, err := os.ReadFile(filepath.Join("..", "testdata", "claude", tc.scenario, "execution.json"))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(ws, "claude-execution-output.json"), b, 0o644)
			dir := t.TempDir()
			r := runActionEnv(t, ws, map[string]string{
				"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
				"INPUT_PATHS": ".agc", "INPUT_JUDGMENTS": "claude-execution-output.json", "INPUT_UPLOAD": "false",
				"INPUT_DIFF-FILTER": "nofilter",
			})
			if r.code != ExitFail {
				t.Fatalf("exit %d, want 1\nstderr:\n%s", r.code, r.stderr)
			}
			if !strings.Contains(r.sarif, `"ruleId":"`+tc.rule+`"`) {
				t.Errorf("SARIF has no %s result", tc.rule)
			}
		})
	}

	t.Run("walked markdown", func(t *testing.T) {
		ws := t.TempDir()
		os.MkdirAll(filepath.Join(ws, ".agc"), 0o755)
		os.WriteFile(filepath.Join(ws, ".agc", "review.md"), []byte("## Review\n\nLooks fine.\n"), 0o644)
		dir := t.TempDir()
		r := runActionEnv(t, ws, map[string]string{
			"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
			"INPUT_PATHS": ".agc", "INPUT_UPLOAD": "false",
		})
		if r.code != ExitOK {
			t.Fatalf("exit %d, want 0\nstderr:\n%s", r.code, r.stderr)
		}
		summary := strings.ReplaceAll(r.summary, `\`, "") // the summary escapes Markdown
		for where, text := range map[string]string{"stderr": r.stderr, "summary": summary, "SARIF": r.sarif} {
			if !strings.Contains(text, ".agc/review.md") || !strings.Contains(text, "name it with --judgment") {
				t.Errorf("%s does not name .agc/review.md as passed over:\n%s", where, text)
			}
		}
	})
}
