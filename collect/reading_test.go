package collect_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// reviewerBlock is a judging agent's block as one AGC JSONL line: with the default --fail-on
// (judgment-block, contract) it makes the run fail, so exit 1 proves it was read.
const reviewerBlock = `{"agc":"0.1","gate":{"id":"code-review","kind":"judgment"},"verdict":"block","findings":[{"rule":"sql-injection","message":"The query concatenates the order id."}]}`

// sarifResults decodes the results of the SARIF collectIn wrote.
func sarifResults(t *testing.T, o outcome) []map[string]any {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []map[string]any `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(o.sarif, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v (%d runs)", err, len(log.Runs))
	}
	return log.Runs[0].Results
}

// TestCutLineThenReviewerBlock: a line cut inside a string (a writer killed mid-append) must not
// hide the reviewer's block after it.
func TestCutLineThenReviewerBlock(t *testing.T) {
	dir := t.TempDir()
	cut := `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"cut here ` + strings.Repeat("x", 5000)
	if err := os.WriteFile(filepath.Join(dir, "reviews.jsonl"), []byte(cut+"\n"+reviewerBlock+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := collectIn(t, dir, time.Minute, "reviews.jsonl")
	o.expect(t, 1, `reviews\.jsonl:1: .*cut short`, `failing on: judgment-block`)
}

// TestJunkHeadThenReviewerBlock: a named file whose first 64 KiB hold nothing recognisable is
// still read when a later line is an input.
func TestJunkHeadThenReviewerBlock(t *testing.T) {
	dir := t.TempDir()
	junk := strings.Repeat("junk ", 70<<10/5)
	if err := os.WriteFile(filepath.Join(dir, "reviews.jsonl"), []byte(junk+"\n"+reviewerBlock+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := collectIn(t, dir, time.Minute, "reviews.jsonl")
	o.expect(t, 1, `reviews\.jsonl:1: `, `failing on: judgment-block`)

	// Nothing recognisable anywhere: an error naming the file, exit 2.
	if err := os.WriteFile(filepath.Join(dir, "junk.jsonl"), []byte(junk+"\n"+junk+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o = collectIn(t, dir, time.Minute, "junk.jsonl")
	o.expect(t, 2, `junk\.jsonl:1: .*no line of it is an AGC response, hook record`)
}

// TestAgentFileCannotDowngradeBlock: an agent-written AGC file naming the hook log's event with a
// steer, read first, must not turn the hook's block into a steer; the finding
// names both files.
func TestAgentFileCannotDowngradeBlock(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../testdata/claude/pre-deny/hook-log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	steer := `{"agc":"0.1","gate":{"id":"git-safety","kind":"runtime"},"verdict":"steer","findings":[{"rule":"force-push","target":"Bash.command","message":"fine, just a note"}],` +
		`"subject":{"runtime":"claude-code","event":"PreToolUse","tool":"Bash","tool_use_id":"toolu_0000RRRRRRRRRRRRRRRRRR","session_id":"96261345-235a-4dd1-a62d-684369d8bf53"}}`
	if err := os.WriteFile(filepath.Join(dir, "a-agent.jsonl"), []byte(steer+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hook-log.jsonl"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"a-agent.jsonl", "hook-log.jsonl"}, {"hook-log.jsonl", "a-agent.jsonl"}, {"."}} {
		o := collectIn(t, dir, time.Minute, append([]string{"--fail-on", "block"}, args...)...)
		o.expect(t, 1, `failing on: block`)
		var force []map[string]any
		for _, r := range sarifResults(t, o) {
			if r["ruleId"] == "git-safety/force-push" {
				force = append(force, r)
			}
		}
		if len(force) != 1 || force[0]["level"] != "error" {
			t.Fatalf("%v: git-safety/force-push results %v, want one error", args, force)
		}
		props, _ := force[0]["properties"].(map[string]any)
		if got, _ := props["sources"].(string); got != "a-agent.jsonl, hook-log.jsonl" {
			t.Errorf("%v: properties.sources = %q, want both files", args, got)
		}
	}
}

// TestRecorderKilledMidAppend kills the real recorder with SIGKILL while it appends a record of
// 150 MB of hook output, then records two whole hook runs, one a block, with it: all three
// records are read and counted, the cut one named by file and line.
func TestRecorderKilledMidAppend(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agc-record and writes 150 MB")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "agc-record")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/agc-record").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	logFile := filepath.Join(dir, "hook-log.jsonl")
	killMidAppend(t, bin, logFile, `head -c 150000000 /dev/zero | tr '\0' x`)
	record(t, bin, logFile, "toolu_2", `echo "AGC block: git-safety/force-push/Bash.command — Force-pushing rewrites shared history." >&2; exit 2`)
	record(t, bin, logFile, "toolu_3", `exit 0`)
	o := collectIn(t, dir, 2*time.Minute, "--fail-on", "block", "hook-log.jsonl")
	o.expect(t, 1, `hook-log\.jsonl:1: .*(cut short|record limit)`, `records read: 3, gave findings: 1`, `failing on: block`)
}

// hookInput is what Claude Code gives a PreToolUse hook on stdin.
func hookInput(id string) string {
	return `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force"},"tool_use_id":"` + id + `"}`
}

// killMidAppend runs the recorder on a hook that prints a lot and SIGKILLs it once the log has
// begun to grow, until the log ends in a line cut short (a few tries: the write may win the race).
func killMidAppend(t *testing.T, bin, logFile, script string) {
	t.Helper()
	for try := 0; try < 8; try++ {
		if err := os.WriteFile(logFile, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "--log", logFile, "--", "sh", "-c", script)
		cmd.Stdin = strings.NewReader(hookInput("toolu_1"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		killed := false
	poll:
		for {
			select {
			case <-done:
				break poll
			case <-time.After(200 * time.Microsecond):
				if fi, err := os.Stat(logFile); err == nil && fi.Size() > 0 {
					_ = cmd.Process.Signal(syscall.SIGKILL)
					<-done
					killed = true
					break poll
				}
			}
		}
		data, err := os.ReadFile(logFile)
		if err != nil {
			t.Fatal(err)
		}
		if killed && len(data) > 0 && data[len(data)-1] != '\n' {
			t.Logf("try %d: SIGKILL left a cut line of %d bytes", try+1, len(data))
			return
		}
	}
	t.Skip("the recorder's append always finished before SIGKILL landed")
}

// record runs the recorder on a small hook script with the tool call id.
func record(t *testing.T, bin, logFile, id, script string) {
	t.Helper()
	cmd := exec.Command(bin, "--log", logFile, "--", "sh", "-c", script)
	cmd.Stdin = strings.NewReader(hookInput(id))
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("agc-record: %v\n%s", err, out)
		}
	}
}
