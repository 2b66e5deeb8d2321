package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// judgmentRun writes the real reviewer run of testdata/claude/reviewer-block into a temporary
// repository, its stream's final message changed by edit, with the message also as review.md,
// and collects args there; it returns the SARIF results and stderr.
func judgmentRun(t *testing.T, edit func(string) string, args ...string) ([]sarifResult, string) {
	t.Helper()
	dir := t.TempDir()
	src := "../testdata/claude/reviewer-block"
	var final string
	for _, name := range []string{"stream.jsonl", "session.jsonl"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil {
				if rec["type"] == "result" {
					final = edit(rec["result"].(string))
					rec["result"] = final
					nb, _ := json.Marshal(rec)
					line = string(nb)
				} else if name == "session.jsonl" && strings.Contains(line, "```agc") {
					line = editTranscriptText(t, line, edit)
				}
			}
			out = append(out, line)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "review.md"), []byte(final+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Dir: dir, Getenv: func(string) string { return "" }}
	Main(context.Background(), append([]string{"agc-sarif", "collect", "--root", dir, "-o", "-"}, args...), env)
	var log struct {
		Runs []struct {
			Results []sarifResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	return log.Runs[0].Results, stderr.String()
}

// sarifResult is what these tests read of a SARIF result.
type sarifResult struct {
	RuleID  string `json:"ruleId"`
	Message struct {
		Text string `json:"text"`
	} `json:"message"`
	Properties map[string]any `json:"properties"`
}

// editTranscriptText applies edit to the text of the transcript line's assistant message that
// holds the agc block.
func editTranscriptText(t *testing.T, line string, edit func(string) string) string {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		t.Fatal(err)
	}
	msg, _ := rec["message"].(map[string]any)
	content, _ := msg["content"].([]any)
	for _, c := range content {
		if block, ok := c.(map[string]any); ok && block["type"] == "text" {
			block["text"] = edit(block["text"].(string))
		}
	}
	b, _ := json.Marshal(rec)
	return string(b)
}

// TestJudgmentOnce: one reviewer's block read from the file the user named (--judgment
// review.md), the run's stream-json and its transcript is one finding, recorded at the named
// file, which its sources list; and a prose breach of a judgment names no tool call.
func TestJudgmentOnce(t *testing.T) {
	same := func(s string) string { return s }
	results, stderr := judgmentRun(t, same, "--judgment", "review.md", "stream.jsonl", "session.jsonl")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1:\n%s", len(results), stderr)
	}
	r := results[0]
	if r.RuleID != "code-review/missing-limit-check" {
		t.Errorf("rule %s", r.RuleID)
	}
	if c, _ := r.Properties["count"].(float64); c != 1 {
		t.Errorf("count %v, want 1 (one judgment read from three records)", r.Properties["count"])
	}
	if !strings.Contains(r.Message.Text, "Recorded at: review.md:") || strings.Contains(r.Message.Text, "Seen: 2") {
		t.Errorf("message does not say it was recorded at review.md, once:\n%s", r.Message.Text)
	}
	for _, f := range []string{"review.md", "stream.jsonl", "session.jsonl"} {
		if !strings.Contains(r.Properties["sources"].(string)+",", f+",") && !strings.HasSuffix(r.Properties["sources"].(string), f) {
			t.Errorf("sources %q leave out %s", r.Properties["sources"], f)
		}
	}
	if !strings.Contains(stderr, "code-review        1 ") {
		t.Errorf("stderr does not count one block:\n%s", stderr)
	}

	// The same review whose prose names another verdict: the breach, read from every record, is
	// one finding too, and it says nothing of a call.
	prose := func(s string) string {
		return strings.Replace(s, "## Review: refund limit", "## Review: refund limit\n\nVerdict: pass", 1)
	}
	results, stderr = judgmentRun(t, prose, "--judgment", "review.md", "stream.jsonl", "session.jsonl")
	n := 0
	for _, r := range results {
		if strings.Contains(r.Message.Text, "call touched") || strings.Contains(r.Message.Text, "the call") {
			t.Errorf("%s speaks of a call a judgment never made:\n%s", r.RuleID, r.Message.Text)
		}
		if r.RuleID == "agc/judgment-prose-disagrees" {
			n++
			if !strings.Contains(r.Message.Text, "Recorded at: review.md:") {
				t.Errorf("prose breach not recorded at review.md:\n%s", r.Message.Text)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d prose breaches, want 1:\n%s", n, stderr)
	}
}
