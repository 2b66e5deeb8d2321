package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/opens"
	"github.com/agc-sarif/agc-sarif/summary"
)

// TestActionFrictionSection: the action's job summary carries the Friction section of the real
// replay, inside the summary's cap, and the section is rendered escaped; the action opens each
// input once for the SARIF and the section.
func TestActionFrictionSection(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"session.jsonl", "stream.jsonl", "hook-log.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "friction", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(ws, ".agc"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, ".agc", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	var opened opens.Counter
	r := runActionOpen(t, ws, map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
		"INPUT_PATHS": ".agc", "INPUT_UPLOAD": "false", "INPUT_SUMMARY": "true", "INPUT_FAIL-ON": "none",
	}, opened.Open)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"\n## Friction\n", "| 1 | gate interpreter/use-python3 | python … | 3 | 1 | block 3 | 3 | rewrite |",
		"correction: python → python3", "allow: add `Bash(gh pr view:*)` to permissions.allow in .claude/settings.json"} {
		if !strings.Contains(r.summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.summary)
		}
	}
	// The SARIF, the annotations and the Friction section come from one read: each input once.
	for _, f := range []string{"session.jsonl", "stream.jsonl", "hook-log.jsonl"} {
		if n := opened.Of(f); n != 1 {
			t.Errorf("%s opened %d times, want once", f, n)
		}
	}
	if len(r.summary) > summary.Limit || strings.Contains(r.summary, "ghp_0123456789") {
		t.Errorf("summary of %d bytes, or holding the token", len(r.summary))
	}
}
