package friction

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
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

func ruled(id, rule string, v gates.Verdict) findings.Finding {
	f := verdict(id, "PreToolUse", v)
	f.RuleID = rule
	return f
}

// TestAnalyzeMoves: calls group by the rule that matched them whatever their arguments; a rule
// whose blocks were corrected one way is a rewrite, one corrected several ways a steer, a block
// never retried stands, and the repair of another rule is the ladder working, ranked last.
func TestAnalyzeMoves(t *testing.T) {
	tl := NewTimeline()
	seq := []string{"make lint", "make lint --fast", "make lint src", "make lint --fast src",
		"tsc -p a", "npx tsc -p a", "tsc -p b", "yarn tsc -p b", "tsc -p c", "/repo/scripts/check.sh"}
	for i, cmd := range seq {
		id := string(rune('A' + i))
		tl.Add(use("t", i+1, "m"+id, id, cmd))
	}
	fs := []findings.Finding{ruled("A", "lint/fast", gates.Block), ruled("C", "lint/fast", gates.Block),
		ruled("E", "ts/wrapper", gates.Block), ruled("G", "ts/wrapper", gates.Block), ruled("I", "ts/wrapper", gates.Block),
		ruled("J", "paths/relative", gates.Repaired)}
	rep := tl.Report(fs, Options{Paths: testPaths{}})
	if len(rep.Patterns) != 3 {
		t.Fatalf("patterns %+v", rep.Patterns)
	}
	ts, lint, paths := rep.Patterns[0], rep.Patterns[1], rep.Patterns[2]
	if ts.Pattern != "ts/wrapper" || ts.Commands != "tsc …" || ts.Count != 3 || ts.Retries != 2 || ts.Suggest != SuggestSteer {
		t.Errorf("tsc = %+v; want 3 blocks, 2 retries (the last never retried), steer (corrections varied)", ts)
	}
	if lint.Pattern != "lint/fast" || lint.Commands != "make lint …" || lint.Count != 2 || lint.Retries != 2 ||
		lint.Suggest != SuggestRewrite || lint.Before != "" || lint.After != "--fast" {
		t.Errorf("make lint = %+v; want a rewrite adding --fast", lint)
	}
	if lint.Example == nil || lint.Example.Before != "make lint" || lint.Example.After != "make lint --fast" {
		t.Errorf("make lint example = %+v", lint.Example)
	}
	if len(lint.Repairs) != 1 || !strings.Contains(lint.Repairs[0].Answer, `"updatedInput":{"command":"make lint --fast"}`) ||
		!strings.Contains(lint.Repairs[0].Answer, `\"verdict\":\"repaired\"`) {
		t.Errorf("make lint repairs = %+v", lint.Repairs)
	}
	if paths.Pattern != "paths/relative" || paths.Suggest != SuggestNone || paths.Commands != "scripts/check.sh" {
		t.Errorf("the repair = %+v; want the ladder working, ranked last, its path relative to the repository", paths)
	}
}

// TestAnalyzeAcrossSessions: patterns rank by their retries summed over sessions and say in how
// many sessions they appeared; two blocks in two sessions are "seen twice".
func TestAnalyzeAcrossSessions(t *testing.T) {
	tl := NewTimeline()
	var fs []findings.Finding
	for i, s := range []string{"s1", "s2"} {
		a, b := use("t"+s, 1, "m1", s+"A", "python x.py"), use("t"+s, 2, "m2", s+"B", "python3 x.py")
		a.Session, b.Session = s, s
		tl.Add(a)
		tl.Add(b)
		fs = append(fs, ruled(s+"A", "py/three", gates.Block))
		if i == 0 {
			c := use("t"+s, 3, "m3", s+"C", "rm -rf build")
			c.Session = s
			tl.Add(c)
			fs = append(fs, ruled(s+"C", "fs/no-rm", gates.Block), ruled(s+"C", "fs/no-rm", gates.Block))
		}
	}
	rep := tl.Report(fs, Options{Paths: testPaths{}})
	if rep.Sessions != 2 || len(rep.Patterns) != 2 {
		t.Fatalf("report %+v", rep)
	}
	py := rep.Patterns[0]
	if py.Pattern != "py/three" || py.Sessions != 2 || py.Count != 2 || py.Retries != 2 || py.Suggest != SuggestRewrite {
		t.Errorf("python = %+v; want first, in 2 sessions, a rewrite (blocked twice across sessions)", py)
	}
	if rm := rep.Patterns[1]; rm.Sessions != 1 || rm.Count != 1 || rm.Suggest != SuggestNone {
		t.Errorf("rm = %+v; want one call (two findings of it), a block that stands", rm)
	}
}

// TestPromptAndDenialOnce: a prompt and the denial of the same call are one call, grouped by the
// permission rule that would allow it: two Writes of Markdown files are one pattern of two calls.
func TestPromptAndDenialOnce(t *testing.T) {
	tl := NewTimeline()
	for i, f := range []string{"NOTES.md", "CHANGES.md"} {
		id := string(rune('A' + i))
		in := []byte(`{"file_path":"/repo/` + f + `","content":"x"}`)
		tl.Add(inputs.CallEvent{Kind: inputs.CallUse, Source: findings.Source{File: "t", Line: 2*i + 1}, Session: "s", ID: id, Tool: "Write", Input: in, Cwd: "/repo"})
		tl.Add(inputs.CallEvent{Kind: inputs.CallResult, Source: findings.Source{File: "t", Line: 2*i + 2}, Session: "s", ID: id, IsError: true,
			Text: "Claude requested permissions to write to /repo/" + f + ", but you haven't granted it yet."})
		tl.Add(inputs.CallEvent{Kind: inputs.CallPrompt, Source: findings.Source{File: "h", Line: i + 1}, Session: "s", Tool: "Write", Input: in, Cwd: "/repo",
			Suggestions: []byte(`[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`)})
		tl.Add(inputs.CallEvent{Kind: inputs.CallDenied, Source: findings.Source{File: "st", Line: 9}, Session: "s", ID: id, Tool: "Write", Input: in})
	}
	rep := tl.Report(nil, Options{Paths: testPaths{}})
	if len(rep.Patterns) != 1 {
		t.Fatalf("patterns %+v", rep.Patterns)
	}
	p := rep.Patterns[0]
	if p.Kind != KindPermission || p.Pattern != "Edit(*.md)" || p.Commands != "Write *.md" || p.Count != 2 ||
		p.Rungs.Prompted != 2 || p.Rungs.Denied != 2 || p.Suggest != SuggestAllowlist || p.Allow != "Edit(*.md)" {
		t.Errorf("pattern %+v; want Edit(*.md), 2 calls prompted and denied, allowlist", p)
	}
	for _, e := range p.Examples {
		if strings.Contains(e.Command, "/repo") || !strings.HasPrefix(e.Command, "Write ") {
			t.Errorf("example %q: want the path relative to the repository", e.Command)
		}
	}
}

func TestMarkdownHostile(t *testing.T) {
	p := Pattern{Kind: KindGate, Pattern: "<script>alert(1)</script> | @admin", Tool: "Bash", Commands: "*x* \\ \n## y", Count: 2, Suggest: SuggestRewrite,
		Before: "`rm`\n## x", After: "[link](http://x)", Example: &Correction{Before: "`a`", After: "b"}, Repairs: []Repair{{Runtime: "x", Answer: "{\"a\":\"```\\n# h\"}"}},
		Examples: []Example{{Source: "a|b.jsonl", Line: 1, Command: "::error::x"}}}
	md := Markdown(Report{Patterns: []Pattern{p}}, 0)
	for _, bad := range []string{"<script>", "@admin", "\n## x", "\n## y", "[link](", "a|b", "\n```\\n"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown holds %q unescaped:\n%s", bad, md)
		}
	}
	if strings.Count(md, "\n| ") != 2 {
		t.Errorf("the row was split or merged:\n%s", md)
	}
	text := Text(Report{Patterns: []Pattern{p}})
	for _, want := range []string{"<script>alert(1)</script> | @admin", "[link](http://x)", "*x*"} {
		if !strings.Contains(text, want) {
			t.Errorf("the plain text lacks %q as it is:\n%s", want, text)
		}
	}
	for _, bad := range []string{"&lt;", "\\*", "\\[", "\n## y"} {
		if strings.Contains(text, bad) {
			t.Errorf("the plain text holds %q:\n%s", bad, text)
		}
	}
}

func TestMarkdownCap(t *testing.T) {
	var rep Report
	long := strings.Repeat("<&|@", 200)
	for i := 0; i < 3000; i++ {
		rep.Patterns = append(rep.Patterns, Pattern{Kind: KindGate, Pattern: long, Tool: "Bash", Count: 2, Suggest: SuggestSteer,
			Why: long, Examples: []Example{{Source: long, Line: i, Command: long}}})
	}
	const limit = 64 << 10
	md := Markdown(rep, limit)
	if len(md) > limit || !strings.Contains(md, "patterns are left out") {
		t.Errorf("Markdown of %d bytes for a limit of %d, or no note of what was left out", len(md), limit)
	}
	if len(Markdown(rep, 0)) <= limit {
		t.Error("without a limit every pattern should be there")
	}
}

// TestCorrectionRedacted: calls reach the ladder as the run's one redaction step (the sink's)
// hands them; a secret that only its whole command shows (mysql's -p) is then gone from the before
// and after of a correction too, and the correction is still found.
func TestCorrectionRedacted(t *testing.T) {
	red := collect.NewRedactor(true)
	tl := NewTimeline()
	tl.Add(use("t", 1, "m1", "A", red.String("mysqldump -u root -pzSE9tSM3gUrr6P shop")))
	tl.Add(use("t", 2, "m2", "B", red.String("mysql -u root -pzSE9tSM3gUrr6P shop")))
	rep := tl.Report([]findings.Finding{verdict("A", "PreToolUse", gates.Block)}, Options{Paths: testPaths{}})
	out, _ := json.Marshal(rep)
	if strings.Contains(string(out), "zSE9tSM3gUrr6P") || len(rep.Patterns) != 1 || rep.Patterns[0].Suggest != SuggestHabit ||
		rep.Patterns[0].Before != "mysqldump" {
		t.Errorf("report %s", out)
	}
}

// TestPromptRelativePathOnce: the model's Write names the file relative to its working folder
// (docs/NOTES.md), the runtime's PermissionRequest hook input names it absolute
// (/repo/docs/NOTES.md): one call, as the runtime ran it, not a call and a prompt of its own.
func TestPromptRelativePathOnce(t *testing.T) {
	tl := NewTimeline()
	for i, f := range []string{"docs/NOTES.md", "CHANGES.md"} {
		id := string(rune('A' + i))
		tl.Add(inputs.CallEvent{Kind: inputs.CallUse, Source: findings.Source{File: "t", Line: 2*i + 1}, Session: "s", ID: id, Tool: "Write",
			Input: []byte(`{"file_path":"` + f + `","content":"x"}`), Cwd: "/repo"})
		tl.Add(inputs.CallEvent{Kind: inputs.CallResult, Source: findings.Source{File: "t", Line: 2*i + 2}, Session: "s", ID: id, IsError: true,
			Text: "Claude requested permissions to write to /repo/" + f + ", but you haven't granted it yet."})
		tl.Add(inputs.CallEvent{Kind: inputs.CallPrompt, Source: findings.Source{File: "h", Line: i + 1}, Session: "s", Tool: "Write",
			Input: []byte(`{"file_path":"/repo/` + f + `","content":"x"}`), Cwd: "/repo"})
	}
	calls, _ := tl.Calls(nil)
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2 (each Write once):\n%+v", len(calls), calls)
	}
	for _, c := range calls {
		if !c.Has(Prompted) {
			t.Errorf("call %s: its prompt was not joined to it", c.ID)
		}
	}
}
