package friction

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/redact"
)

func use(file string, line int, msg, id, cmd string) inputs.CallEvent {
	return inputs.CallEvent{Kind: inputs.CallUse, Source: findings.Source{File: file, Line: line}, Session: "s",
		Message: msg, ID: id, Tool: "Bash", Input: []byte(`{"command":` + quote(cmd) + `}`), Cwd: "/repo"}
}

func verdict(id, event string, v gates.Verdict) findings.Finding {
	return findings.Finding{RuleID: "g/r", Kind: findings.RuntimeGate, Verdict: v,
		Call: &findings.Call{ToolUseID: id, Event: event}}
}

func TestTimelineRungs(t *testing.T) {
	tl := NewTimeline()
	tl.Add(use("t", 1, "m1", "A", "git push --force origin main"))
	tl.Add(inputs.CallEvent{Kind: inputs.CallResult, ID: "A", IsError: true, Text: "PreToolUse:Bash hook error: no force"})
	tl.Add(use("t", 2, "m2", "B", "cat out.log"))
	tl.Add(use("t", 3, "m2", "C", "npm publish"))
	tl.Add(inputs.CallEvent{Kind: inputs.CallResult, ID: "C", IsError: true, Text: "This command requires approval"})
	tl.Add(inputs.CallEvent{Kind: inputs.CallDenied, ID: "A", Tool: "Bash"}) // the hook's block, listed again
	tl.Add(inputs.CallEvent{Kind: inputs.CallPrompt, Source: findings.Source{File: "h", Line: 9}, Session: "s",
		Tool: "Bash", Input: []byte(`{ "command" : "npm publish" }`)})
	tl.Add(inputs.CallEvent{Kind: inputs.CallPrompt, Source: findings.Source{File: "h", Line: 10}, Session: "s",
		Tool: "Read", Input: []byte(`{"file_path":"/etc/x"}`)})
	fs := []findings.Finding{
		verdict("A", "PreToolUse", gates.Block),
		verdict("B", "PostToolUse", gates.Block),
		{RuleID: "agc/hook-failed-open", Kind: findings.Contract, Call: &findings.Call{ToolUseID: "B"}},
		verdict("Z", "PreToolUse", gates.Steer),
	}
	calls, unmatched := tl.Calls(fs)
	if unmatched != 1 {
		t.Errorf("unmatched = %d, want 1 (the steer of a call never read)", unmatched)
	}
	got := map[string]*Call{}
	for _, c := range calls {
		got[c.ID] = c
	}
	check := func(id string, rungs Rung, refused bool, turn int) {
		t.Helper()
		c := got[id]
		if c == nil {
			t.Fatalf("no call %s", id)
		}
		if c.Rungs != rungs || c.Refused != refused || turn > 0 && c.Turn != turn {
			t.Errorf("call %s: rungs %b refused %v turn %d; want %b %v %d", id, c.Rungs, c.Refused, c.Turn, rungs, refused, turn)
		}
	}
	check("A", Block, true, 1)             // listed in permission_denials, but a hook's block
	check("B", Block|FailedOpen, false, 2) // a PostToolUse block: it ran
	check("C", Prompted|Denied, true, 2)   // the prompt matched by input, keys in any order
	if len(calls) != 4 || !calls[3].Has(Prompted) || calls[3].Tool != "Read" {
		t.Errorf("a prompt no call matches should stand as a call of its own: %+v", calls)
	}
}

func TestAnalyzeMoves(t *testing.T) {
	tl := NewTimeline()
	seq := []string{"make lint", "make  lint --fast", "tsc -p a", "npx tsc -p a", "tsc -p b", "yarn tsc -p b", "tsc -p c"}
	for i, cmd := range seq {
		id := string(rune('A' + i))
		tl.Add(use("t", i+1, "m"+id, id, cmd))
	}
	fs := []findings.Finding{verdict("A", "PreToolUse", gates.Block), verdict("C", "PreToolUse", gates.Block),
		verdict("E", "PreToolUse", gates.Block), verdict("G", "PreToolUse", gates.Block)}
	rep := tl.Report(fs, Options{Paths: testPaths{}})
	if len(rep.Patterns) != 1 || len(rep.Once) != 1 {
		t.Fatalf("patterns %+v, once %+v", rep.Patterns, rep.Once)
	}
	p := rep.Patterns[0]
	if p.Pattern != "tsc -p <value>" || p.Count != 3 || p.Retries != 2 || p.Suggest != SuggestSteer || p.Before != "" {
		t.Errorf("tsc pattern = %+v; want 3 blocks, 2 retries (the last never retried), steer (corrections varied)", p)
	}
	if o := rep.Once[0]; o.Suggest != SuggestRewrite || o.Before != "" || o.After != "--fast" {
		t.Errorf("make lint = %+v; want a rewrite adding --fast", o)
	}
}

func TestMarkdownHostile(t *testing.T) {
	p := Pattern{Pattern: "<script>alert(1)</script> | @admin", Tool: "Bash", Count: 2, Suggest: SuggestRewrite,
		Before: "`rm`\n## x", After: "[link](http://x)", Examples: []Example{{Source: "a|b.jsonl", Line: 1, Command: "::error::x"}}}
	md := Markdown(Report{Patterns: []Pattern{p}}, 0)
	for _, bad := range []string{"<script>", "@admin", "\n## x", "[link](", "a|b"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown holds %q unescaped:\n%s", bad, md)
		}
	}
	if strings.Count(md, "\n| ") != 2 {
		t.Errorf("the row was split or merged:\n%s", md)
	}
}

func TestMarkdownCap(t *testing.T) {
	var rep Report
	long := strings.Repeat("<&|@", 200)
	for i := 0; i < 3000; i++ {
		rep.Patterns = append(rep.Patterns, Pattern{Pattern: long, Tool: "Bash", Count: 2, Suggest: SuggestSteer,
			Examples: []Example{{Source: long, Line: i, Command: long}}})
		rep.Once = append(rep.Once, Pattern{Pattern: long, Tool: "Bash", Count: 1, Suggest: SuggestNone})
	}
	const limit = 64 << 10
	md := Markdown(rep, limit)
	if len(md) > limit || !strings.Contains(md, "patterns are left out") {
		t.Errorf("Markdown of %d bytes for a limit of %d, or no note of what was left out", len(md), limit)
	}
	if len(Markdown(rep, 0)) <= limit {
		t.Error("without a limit every row should be there")
	}
}

// TestCorrectionRedacted: a secret that only its whole command shows (mysql's -p) is redacted in
// the before and after of a correction, not only in the examples.
func TestCorrectionRedacted(t *testing.T) {
	tl := NewTimeline()
	tl.Add(use("t", 1, "m1", "A", "mysqldump -u root -pzSE9tSM3gUrr6P shop"))
	tl.Add(use("t", 2, "m2", "B", "mysql -u root -pzSE9tSM3gUrr6P shop"))
	rep := tl.Report([]findings.Finding{verdict("A", "PreToolUse", gates.Block)},
		Options{Paths: testPaths{}, Redactor: redact.New(redact.Options{})})
	out, _ := json.Marshal(rep)
	if strings.Contains(string(out), "zSE9tSM3gUrr6P") || len(rep.Once) != 1 || rep.Once[0].Suggest != SuggestRewrite {
		t.Errorf("report %s", out)
	}
}
