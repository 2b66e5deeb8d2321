package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// A workflow_run job uploads a fork pull request's results to the ref and commit the ref and sha
// inputs name, not to the default branch the job runs on.
func TestActionRefAndSHAInputs(t *testing.T) {
	srv := fakegh.New("octo", "repo", actToken)
	defer srv.Close()
	srv.Statuses = []fakegh.Reply{fakegh.Processing("complete")}
	ws := workspace(t, actSHA)
	vars := actionVars(t, ws, srv, "event-push.json")
	vars["GITHUB_EVENT_NAME"] = "workflow_run"
	vars["GITHUB_REF"] = "refs/heads/main"
	vars["INPUT_REF"] = "refs/pull/9/head"
	vars["INPUT_SHA"] = actHead
	r := runActionEnv(t, ws, vars)
	if r.code != ExitFail {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, ExitFail, r.stdout, r.stderr)
	}
	got := srv.Received()
	if len(got) != 1 {
		t.Fatalf("%d uploads, want 1\nstdout:\n%s\nstderr:\n%s", len(got), r.stdout, r.stderr)
	}
	if got[0].Ref != "refs/pull/9/head" || got[0].CommitSHA != actHead {
		t.Errorf("uploaded to %s at %s, want refs/pull/9/head at %s", got[0].Ref, got[0].CommitSHA, actHead)
	}
	if r.outputs["uploaded"] != "true" {
		t.Errorf("outputs %v", r.outputs)
	}
}

// A bad ref or sha input is bad usage naming the input at fault, and a value is never echoed as
// a workflow command of its own.
func TestActionBadRefInputs(t *testing.T) {
	for name, tc := range map[string]struct {
		vars map[string]string
		want string
	}{
		"ref alone":    {map[string]string{"INPUT_REF": "refs/pull/9/head"}, "::error::inputs ref and sha: give both or neither"},
		"sha alone":    {map[string]string{"INPUT_SHA": actHead}, "::error::inputs ref and sha: give both or neither"},
		"short ref":    {map[string]string{"INPUT_REF": "main", "INPUT_SHA": actHead}, "::error::input ref: "},
		"short sha":    {map[string]string{"INPUT_REF": "refs/pull/9/head", "INPUT_SHA": "89abcdef"}, "::error::input sha: "},
		"injected sha": {map[string]string{"INPUT_REF": "refs/pull/9/head", "INPUT_SHA": actHead + "\n::add-mask::x"}, "::error::input sha: "},
	} {
		t.Run(name, func(t *testing.T) {
			r := runActionEnv(t, workspace(t, actSHA), tc.vars)
			if r.code != ExitUsage || !strings.Contains(r.stdout, tc.want) || strings.Contains(r.stdout, "\n::add-mask::x") {
				t.Errorf("exit %d stdout %q, want %q", r.code, r.stdout, tc.want)
			}
		})
	}
}

// In the container, a path outside the workspace that is not there gets an error saying why and
// the step that copies it in; one that is there (the CLI on the runner) or inside is not named.
func TestUnreachable(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	there := filepath.Join(outside, "there.jsonl")
	if err := os.WriteFile(there, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	temp := "/home/runner/work/_temp"
	tests := []struct {
		path, want string // want: the copy step, "" when the path is not named
	}{
		{temp + "/claude-execution-output.json", `mkdir -p .agc && cp "$RUNNER_TEMP/claude-execution-output.json" .agc/`},
		{"~/.claude/projects/**/*.jsonl", `mkdir -p .agc && cp -r "$HOME/.claude/projects" .agc/`},
		{"/elsewhere/a \"b\" $x.md", `mkdir -p .agc && cp "/elsewhere/a \"b\" \$x.md" .agc/`},
		{"../up.md", `mkdir -p .agc && cp "../up.md" .agc/`}, // a run: step starts in the workspace
		{there, ""},
		{".agc", ""},
		{"reviews/**/*.md", ""},
		{filepath.Join(ws, "missing.md"), ""},
	}
	for _, tt := range tests {
		got := unreachable([]string{tt.path}, ws, temp)
		switch {
		case tt.want == "" && len(got) != 0:
			t.Errorf("%s: named: %v", tt.path, got)
		case tt.want != "" && len(got) != 1:
			t.Errorf("%s: not named", tt.path)
		case tt.want != "" && (!strings.Contains(got[0], "`"+tt.want+"`") || !strings.Contains(got[0], "sees only the workspace")):
			t.Errorf("%s:\n got %s\nwant the step %s", tt.path, got[0], tt.want)
		}
	}
}
