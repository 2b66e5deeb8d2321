package collect_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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
// hide the reviewer's block after it (issue 10 item 1).
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
// still read when a later line is an input (issue 10 item 7).
func TestJunkHeadThenReviewerBlock(t *testing.T) {
	dir := t.TempDir()
	junk := strings.Repeat("junk ", 70<<10/5)
	if err := os.WriteFile(filepath.Join(dir, "reviews.jsonl"), []byte(junk+"\n"+reviewerBlock+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := collectIn(t, dir, time.Minute, "reviews.jsonl")
	o.expect(t, 1, `reviews\.jsonl:1: `, `failing on: judgment-block`)

	// Nothing recognisable anywhere: said loudly, naming the file.
	if err := os.WriteFile(filepath.Join(dir, "junk.jsonl"), []byte(junk+"\n"+junk+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o = collectIn(t, dir, time.Minute, "junk.jsonl")
	o.expect(t, 0, `junk\.jsonl:1: .*no line of it is an AGC response, hook record`)
}

// TestAgentFileCannotDowngradeBlock: an agent-written AGC file naming the hook log's event with a
// steer, read first, must not turn the hook's block into a steer (issue 10 item 10); the finding
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
	}
}
