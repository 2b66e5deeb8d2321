package command

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// TestActionFailsOutsideDiff: with default inputs, on a pull request whose diff touches neither
// failing finding (a reviewer's block on src/app.go:5 and a contract breach anchored to the
// responses file), the step still says why it failed: an ::error names each, and the summary's
// first section lists them. The diff filter narrows only the rest.
func TestActionFailsOutsideDiff(t *testing.T) {
	srv := fakegh.New("octo", "repo", actToken)
	defer srv.Close()
	srv.Diffs = map[int]string{7: "diff --git a/src/app.go b/src/app.go\n--- a/src/app.go\n+++ b/src/app.go\n" +
		"@@ -1,1 +1,1 @@\n-package old\n+package app\n"}
	ws := workspace(t, actSHA)
	vars := actionVars(t, ws, srv, "event-pull-request.json")
	for _, k := range []string{"INPUT_FORMAT", "INPUT_FAIL-ON", "INPUT_SARIF-FILE", "INPUT_WAIT-FOR-PROCESSING",
		"INPUT_MAX-ANNOTATIONS", "INPUT_SUMMARY", "INPUT_INCLUDE-UNSTRUCTURED", "INPUT_PATHS"} {
		delete(vars, k) // the action.yml defaults
	}
	vars["INPUT_UPLOAD"] = "false"
	r := runActionEnv(t, ws, vars)
	if r.code != ExitFail {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	checkInert(t, r)
	if !strings.Contains(strings.Join(srv.Requests(), "\n"), "GET /repos/octo/repo/pulls/7") {
		t.Fatalf("the pull request's diff was not read: %v", srv.Requests())
	}
	for _, want := range []string{
		`^::error endLine=6,file=src/app\.go,line=5,title=Fails this step%3A code-review/sql-injection::User input reaches the query\.`,
		`^::error [^:]*file=\.agc/responses\.jsonl[^:]*title=Fails this step%3A agc/verdict-lighter-than-findings::`,
	} {
		if !regexp.MustCompile(`(?m)` + want).MatchString(r.stdout) {
			t.Errorf("no annotation matching %s:\n%s", want, r.stdout)
		}
	}
	// stderr ends with the same two findings, one line each, in the annotations' words.
	tail := r.stderr[strings.LastIndex(r.stderr, "agc-sarif: failing on:"):]
	tail = regexp.MustCompile(`(?m)^::[0-9a-f]{32}::\n?`).ReplaceAllString(tail, "") // the end of the escaped stretch
	for _, want := range []string{
		`(?m)^agc-sarif: failing on: judgment-block, contract, because of 2 findings:$`,
		`(?m)^src/app\.go:5: code-review/sql-injection: User input reaches the query\.`,
		`(?m)^\.agc/responses\.jsonl:4: agc/verdict-lighter-than-findings: `,
	} {
		if !regexp.MustCompile(want).MatchString(tail) {
			t.Errorf("stderr does not end with a line matching %s:\n%s", want, tail)
		}
	}
	if strings.Count(strings.TrimSpace(tail), "\n") != 2 {
		t.Errorf("stderr does not end with exactly the two failing findings:\n%s", tail)
	}
	if strings.Contains(r.stdout, "title=broken-gate/x") {
		t.Errorf("a non-failing finding outside the diff is annotated:\n%s", r.stdout)
	}
	// The summary opens with why the step failed, naming both findings, before anything else.
	first := r.summary[:strings.Index(r.summary, "\n### Session events")]
	why := strings.Index(r.summary, "### Why this step failed")
	if why < 0 || why > strings.Index(r.summary, "| Verdict |") {
		t.Fatalf("the summary does not open with why the step failed:\n%s", r.summary)
	}
	section := first[why:strings.Index(first, "\nSARIF:")]
	for _, want := range []string{"2 findings make the exit status 1",
		"1. **block** code-review/sql-injection at [src/app.go:5](https://github.com/octo/repo/blob/",
		"2. **contract** agc/verdict-lighter-than-findings at [.agc/responses.jsonl:4]("} {
		if !strings.Contains(section, want) {
			t.Errorf("the first section lacks %q:\n%s", want, section)
		}
	}
	if !strings.Contains(r.summary, "### On this change's lines (1)") || !strings.Contains(r.summary, "### Elsewhere in the repository (3)") {
		t.Errorf("groups:\n%s", r.summary)
	}
}
