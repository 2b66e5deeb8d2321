package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// TestActionPermissionsLint: the action lints the permission settings when the pull request
// changes one (the default), always, or never: each result an annotation on the rule's line, a
// summary section and agc-permissions.sarif; it never fails the step.
func TestActionPermissionsLint(t *testing.T) {
	settings := "{\n  \"permissions\": {\n    \"allow\": [\n      \"Write(docs/**)\"\n    ]\n  }\n}\n"
	touching := "diff --git a/.claude/settings.json b/.claude/settings.json\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1,0 +1,7 @@\n+" +
		strings.ReplaceAll(strings.TrimSuffix(settings, "\n"), "\n", "\n+") + "\n"
	other := "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,0 +1,1 @@\n+print(1)\n"
	for _, tc := range []struct {
		name, mode, diff string
		lint             bool
	}{
		{"changed, settings touched", "", touching, true},
		{"changed, settings untouched", "changed", other, false},
		{"always", "always", other, true},
		{"never", "never", touching, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", actToken)
			defer srv.Close()
			srv.Diffs = map[int]string{7: tc.diff}
			ws := workspace(t, actSHA)
			if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
				t.Fatal(err)
			}
			vars := actionVars(t, ws, srv, "event-pull-request.json")
			vars["INPUT_UPLOAD"] = "false"
			vars["INPUT_FAIL-ON"] = "none"
			vars["INPUT_PERMISSIONS-LINT"] = tc.mode
			r := runActionEnv(t, ws, vars)
			if r.code != ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			annotation := "::error file=.claude/settings.json,line=4,title=agc-sarif%3A permissions/never-matches::Write(docs/**) never matches"
			_, err := os.Stat(filepath.Join(ws, "agc-permissions.sarif"))
			if got := strings.Contains(r.stdout, annotation); got != tc.lint {
				t.Errorf("annotation %v, want %v:\n%s", got, tc.lint, r.stdout)
			}
			if got := err == nil; got != tc.lint {
				t.Errorf("agc-permissions.sarif written %v, want %v", got, tc.lint)
			}
			if got := strings.Contains(r.summary, "### Permission settings (Claude Code"); got != tc.lint {
				t.Errorf("summary section %v, want %v:\n%s", got, tc.lint, r.summary)
			}
		})
	}
	t.Run("bad value", func(t *testing.T) {
		srv := fakegh.New("octo", "repo", actToken)
		defer srv.Close()
		ws := workspace(t, actSHA)
		vars := actionVars(t, ws, srv, "event-pull-request.json")
		vars["INPUT_PERMISSIONS-LINT"] = "sometimes"
		if r := runActionEnv(t, ws, vars); r.code != ExitUsage || !strings.Contains(r.stdout+r.stderr, "want changed, always or never") {
			t.Errorf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
}
