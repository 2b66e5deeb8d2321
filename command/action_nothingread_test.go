package command

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// TestActionNoUploadFromNothingRead: a paths typo (a missing folder, a glob matching nothing)
// or a named input that could not be read sends nothing to code scanning, whatever
// if-no-files-found and upload say: an empty or partial analysis would close alerts. Stderr and
// the job summary say that nothing was uploaded and why. Inputs read that hold no finding are
// still uploaded (their fixed alerts close).
func TestActionNoUploadFromNothingRead(t *testing.T) {
	unreadable := func(name string) (*os.File, error) {
		if filepath.Base(name) == "broken.jsonl" {
			return nil, &os.PathError{Op: "open", Path: name, Err: errors.New("input/output error")}
		}
		return os.Open(name)
	}
	for _, tc := range []struct {
		name   string
		vars   map[string]string
		open   func(string) (*os.File, error)
		code   int
		upload bool
		why    string // in stderr and the summary, when nothing is uploaded
	}{
		{name: "missing folder", vars: map[string]string{"INPUT_PATHS": ".agcc"}, code: ExitUsage, why: "an input named could not be read"},
		{name: "missing folder, upload true", vars: map[string]string{"INPUT_PATHS": ".agcc", "INPUT_UPLOAD": "true"}, code: ExitUsage, why: "an input named could not be read"},
		{name: "glob typo", vars: map[string]string{"INPUT_PATHS": ".agcc/**/*.jsonl"}, code: ExitOK, why: "no input file was read"},
		{name: "glob typo, ignore", vars: map[string]string{"INPUT_PATHS": ".agcc/**/*.jsonl", "INPUT_IF-NO-FILES-FOUND": "ignore"}, code: ExitOK, why: "no input file was read"},
		{name: "glob typo, error", vars: map[string]string{"INPUT_PATHS": ".agcc/**/*.jsonl", "INPUT_IF-NO-FILES-FOUND": "error"}, code: ExitUsage, why: "an input named could not be read"},
		{name: "empty folder", vars: map[string]string{"INPUT_PATHS": "empty"}, code: ExitOK, why: "no input file was read"},
		{name: "one of two named files missing", vars: map[string]string{"INPUT_PATHS": ".agc/clean.jsonl\n.agc/gone.jsonl"}, code: ExitUsage, why: "an input named could not be read"},
		{name: "one of two named files unreadable", vars: map[string]string{"INPUT_PATHS": ".agc/clean.jsonl\n.agc/broken.jsonl"}, open: unreadable,
			code: ExitUsage, why: "an input named could not be read"},
		{name: "read, no findings", vars: map[string]string{"INPUT_PATHS": ".agc/clean.jsonl"}, code: ExitOK, upload: true},
		{name: "read empty", vars: map[string]string{"INPUT_PATHS": ".agc/second.jsonl"}, code: ExitOK, upload: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", actToken)
			defer srv.Close()
			srv.Statuses = []fakegh.Reply{fakegh.Processing("complete")}
			ws := workspace(t, actSHA)
			mkdirs(t, filepath.Join(ws, "empty"))
			// a hook log that was read and holds no finding: one allowed tool call
			clean := hookLine(t, "PreToolUse", "Bash", "t1", map[string]any{"command": "ls"}, nil, 0, "", "")
			if err := os.WriteFile(filepath.Join(ws, ".agc", "clean.jsonl"), []byte(clean), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".agc", "broken.jsonl"), []byte(clean), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".agc", "second.jsonl"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			vars := actionVars(t, ws, srv, "event-push.json")
			vars["INPUT_FAIL-ON"] = "none"
			vars["INPUT_WAIT-FOR-PROCESSING"] = "false"
			for k, v := range tc.vars {
				vars[k] = v
			}
			r := runActionOpen(t, ws, vars, tc.open)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			uploads := srv.Received()
			if tc.upload {
				if len(uploads) != 1 || r.outputs["uploaded"] != "true" {
					t.Errorf("%d uploads, output uploaded %q; want 1, true\nstderr:\n%s", len(uploads), r.outputs["uploaded"], r.stderr)
				}
				if len(uploads) == 1 && !strings.Contains(r.sarif, `"results": []`) {
					t.Errorf("want an upload with no result, SARIF:\n%s", r.sarif)
				}
				return
			}
			if reqs := codeScanningRequests(srv.Requests()); len(reqs) > 0 || len(uploads) > 0 {
				t.Errorf("requests to code scanning: %v", reqs)
			}
			if r.outputs["uploaded"] != "false" {
				t.Errorf("output uploaded %q", r.outputs["uploaded"])
			}
			if !strings.Contains(r.stderr, "nothing uploaded to code scanning: "+tc.why) {
				t.Errorf("stderr does not say why nothing was uploaded (%q):\n%s", tc.why, r.stderr)
			}
			if !strings.Contains(r.summary, "not uploaded: "+tc.why) {
				t.Errorf("summary does not say why nothing was uploaded (%q):\n%s", tc.why, r.summary)
			}
		})
	}
}

// TestNoReviewFromNothingRead: the action's pr-review and the review command post no review and
// minimise nothing when the inputs could not be read or none was: the action sends no request but
// the diff filter's GET of the diff, the command none at all.
func TestNoReviewFromNothingRead(t *testing.T) {
	for _, paths := range []string{".agcc", ".agcc/**/*.jsonl", "reviews/execution.json\nreviews/gone.json"} {
		t.Run("action "+paths, func(t *testing.T) {
			ws := reviewWorkspace(t)
			srv := reviewFake(t)
			vars := reviewVars(t, ws, srv, "event-pull-request.json", "comments")
			vars["INPUT_JUDGMENTS"] = ""
			vars["INPUT_PATHS"] = paths
			r := runActionEnv(t, ws, vars)
			if reqs := writes(srv.Requests()); len(reqs) > 0 {
				t.Errorf("requests sent: %v\nstderr:\n%s", reqs, r.stderr)
			}
			if !strings.Contains(r.summary, "### Pull-request review") || !strings.Contains(r.summary, "(no comment posted or minimised)") {
				t.Errorf("summary does not say why no review was posted:\n%s", r.summary)
			}
		})
		t.Run("review "+paths, func(t *testing.T) {
			ws := reviewWorkspace(t)
			srv := reviewFake(t)
			args := []string{"review", "--repo", "octo/repo", "--pr", "7", "--commit", actHead, "--mode", "comments"}
			r := runCLI(t, ws, map[string]string{"GITHUB_TOKEN": actToken, "GITHUB_API_URL": srv.APIURL()},
				append(args, strings.Split(paths, "\n")...)...)
			if reqs := srv.Requests(); len(reqs) > 0 {
				t.Errorf("requests sent: %v\nstderr:\n%s", reqs, r.stderr)
			}
			if !strings.Contains(r.stderr, "review not posted, no comment minimised") {
				t.Errorf("stderr does not say why no review was posted:\n%s", r.stderr)
			}
		})
	}
}

// writes are the requests that are not a GET: those that could change something on GitHub (the
// GraphQL minimising included).
func writes(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if !strings.HasPrefix(r, "GET ") {
			out = append(out, r)
		}
	}
	return out
}

// TestNoMinimiseFromUnreadInput: a review comment posted from the reviewer's judgment is not
// minimised by a later run in which that judgment could not be read (its finding is not gone,
// only unread), by the action or by the review command.
func TestNoMinimiseFromUnreadInput(t *testing.T) {
	clean := hookLine(t, "PreToolUse", "Bash", "t1", map[string]any{"command": "ls"}, nil, 0, "", "")
	for _, via := range []string{"action", "review"} {
		t.Run(via, func(t *testing.T) {
			ws := reviewWorkspace(t)
			mkdirs(t, filepath.Join(ws, ".agc"))
			if err := os.WriteFile(filepath.Join(ws, ".agc", "clean.jsonl"), []byte(clean), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := reviewFake(t)
			run := func(paths string) {
				if via == "action" {
					vars := reviewVars(t, ws, srv, "event-pull-request.json", "comments")
					vars["INPUT_JUDGMENTS"] = ""
					vars["INPUT_PATHS"] = paths
					runActionEnv(t, ws, vars)
					return
				}
				args := []string{"review", "--repo", "octo/repo", "--pr", "7", "--commit", actHead, "--mode", "comments"}
				runCLI(t, ws, map[string]string{"GITHUB_TOKEN": actToken, "GITHUB_API_URL": srv.APIURL()},
					append(args, strings.Split(paths, "\n")...)...)
			}
			run(".agc/clean.jsonl\nreviews/execution.json")
			if n := len(srv.Comments(7)); n != 1 {
				t.Fatalf("first run posted %d comments, want 1", n)
			}
			if err := os.Rename(filepath.Join(ws, "reviews", "execution.json"), filepath.Join(ws, "reviews", "moved.json")); err != nil {
				t.Fatal(err)
			}
			run(".agc/clean.jsonl\nreviews/execution.json")
			if m := srv.MinimizedComments(); len(m) > 0 {
				t.Errorf("a run that could not read the judgment minimised %d comments", len(m))
			}
			if len(srv.Reviews()) != 1 {
				t.Errorf("%d reviews posted, want the first run's only", len(srv.Reviews()))
			}
		})
	}
}
