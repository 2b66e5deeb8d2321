package command

import (
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// TestActionIfNoFilesFound: the action's if-no-files-found input decides what a glob of paths
// that matches nothing means: a ::warning by default, a failed step (exit 2) with error, nothing
// with ignore; a value of another kind is refused.
func TestActionIfNoFilesFound(t *testing.T) {
	srv := fakegh.New("octo", "repo", actToken)
	defer srv.Close()
	ws := workspace(t, actSHA)
	for _, tc := range []struct {
		value string
		code  int
		want  string // in stdout (workflow commands), "" for none
	}{
		{"", ExitOK, "::warning::nothing/*.jsonl: no file matches (if-no-files-found: warn)"},
		{"warn", ExitOK, "::warning::nothing/*.jsonl: no file matches (if-no-files-found: warn)"},
		{"error", ExitUsage, "::error::could not read nothing/*.jsonl: no file matches"},
		{"ignore", ExitOK, ""},
		{"sometimes", ExitUsage, "not warn, error or ignore"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			vars := actionVars(t, ws, srv, "event-push.json")
			vars["INPUT_PATHS"] = "nothing/*.jsonl"
			vars["INPUT_UPLOAD"] = "false"
			vars["INPUT_FAIL-ON"] = "none"
			vars["INPUT_IF-NO-FILES-FOUND"] = tc.value
			r := runActionEnv(t, ws, vars)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			all := r.stdout + r.stderr
			if tc.want != "" && !strings.Contains(all, tc.want) {
				t.Errorf("no %q in the output:\n%s", tc.want, all)
			}
			if tc.want == "" && strings.Contains(all, "no file matches") {
				t.Errorf("ignore still said it:\n%s", all)
			}
		})
	}
}
