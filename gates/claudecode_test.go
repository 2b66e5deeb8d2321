package gates

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// agcJSON builds an AGC response with one finding, as a gate would send it.
func agcJSON(verdict, gate, kind string) string {
	b, _ := json.Marshal(map[string]any{
		"agc": "0.1", "gate": map[string]string{"id": gate, "kind": kind}, "verdict": verdict,
		"findings": []map[string]string{{"rule": "r1", "message": "m", "target": "Bash.command"}},
	})
	return string(b)
}

// hookJSON builds a hook's stdout: top-level fields plus hookSpecificOutput.
func hookJSON(top map[string]any, hso map[string]any) string {
	m := map[string]any{}
	for k, v := range top {
		m[k] = v
	}
	if hso != nil {
		m["hookSpecificOutput"] = hso
	}
	b, _ := json.Marshal(m)
	return string(b)
}

var bashInput = json.RawMessage(`{"command":"git push --force"}`)

// CheckClaudeHook is CheckAnswer for Claude Code, whose answers are read from stdout.
func CheckClaudeHook(a HookAnswer) HookResult { return CheckAnswer(a, Host{Name: "Claude Code"}, nil) }

func pre(exit int, stdout string) HookAnswer {
	return HookAnswer{Event: "PreToolUse", Tool: "Bash", Hook: "/h/guard.sh", HasExit: true, ExitCode: exit,
		HasStdout: true, Stdout: stdout, HasStderr: true, ToolInput: bashInput}
}

func post(stdout string) HookAnswer {
	a := pre(0, stdout)
	a.Event = "PostToolUse"
	return a
}

func TestCheckClaudeHook(t *testing.T) {
	repaired := agcJSON("repaired", "ws", "runtime")
	block := agcJSON("block", "git", "runtime")
	tests := []struct {
		name      string
		a         HookAnswer
		breaches  []string // check ids, sorted
		responses int
		unstruct  Verdict // "" = none
		decision  string
	}{
		{name: "pre repair good", responses: 1, decision: "repaired",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": map[string]any{"command": "x"}, "additionalContext": repaired}))},
		{name: "pre repair with ask is fine", responses: 1, decision: "repaired",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "ask", "updatedInput": map[string]any{"command": "x"}, "additionalContext": repaired}))},
		{name: "pre repair with allow", responses: 1, decision: "repaired", breaches: []string{CheckRepairWithAllow},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": map[string]any{"command": "x"}, "additionalContext": repaired}))},
		{name: "pre repair by exit 2", responses: 1, decision: "block", breaches: []string{CheckRepairByExit2},
			a: func() HookAnswer { a := pre(2, ""); a.Stderr = repaired; return a }()},
		{name: "pre repaired without updatedInput", responses: 1, decision: "context", breaches: []string{CheckRepairNoInput},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": repaired}))},
		{name: "pre repaired, transcript context only: no accusation", responses: 1, decision: "context",
			a: HookAnswer{Event: "PreToolUse", Tool: "Bash", AdditionalContext: []string{repaired}}},
		{name: "pre repaired, refusal without exit-2 form: no exit-2 accusation", responses: 1, decision: "block", breaches: []string{CheckAnswerHeavier},
			a: HookAnswer{Event: "PreToolUse", Tool: "Bash", Hook: "/h/g", AdditionalContext: []string{repaired}, Refused: true, RefusalText: "denied by policy"}},
		{name: "pre repaired, refusal text proves exit 2", responses: 1, decision: "block", breaches: []string{CheckRepairByExit2},
			a: HookAnswer{Event: "PreToolUse", Tool: "Bash", Hook: "/h/g", Refused: true, RefusalText: "[/h/g]: " + repaired}},
		{name: "pre deny good", responses: 1, decision: "block",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": block}))},
		{name: "pre legacy decision block good", responses: 1, decision: "block",
			a: pre(0, hookJSON(map[string]any{"decision": "block", "reason": "no"}, map[string]any{"hookEventName": "PreToolUse", "additionalContext": block}))},
		{name: "pre exit 2 with AGC on stderr", responses: 1, decision: "block",
			a: func() HookAnswer { a := pre(2, ""); a.Stderr = block + "\n"; return a }()},
		{name: "pre exit 2 plain: unstructured block", unstruct: Block, decision: "block",
			a: func() HookAnswer { a := pre(2, ""); a.Stderr = "not allowed"; return a }()},
		{name: "pre bare deny: unstructured block", unstruct: Block, decision: "block",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}))},
		{name: "pre bare updatedInput: unstructured repaired", unstruct: Repaired, decision: "repaired",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": map[string]any{"command": "x"}}))},
		{name: "pre bare context: nothing", decision: "context",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": "remember the tests"}))},
		{name: "pre bare allow: nothing", decision: "allow",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow"}))},
		{name: "pre empty stdout: nothing", a: pre(0, "")},
		{name: "pre block lets call through", responses: 1, decision: "context", breaches: []string{CheckBlockLetsThrough},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": block}))},
		{name: "pre block with ask lets call through", responses: 1, decision: "ask", breaches: []string{CheckBlockLetsThrough},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "ask", "additionalContext": block}))},
		{name: "pre block, exit unknown: no accusation", responses: 1, decision: "context",
			a: func() HookAnswer {
				a := pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": block}))
				a.HasExit = false
				return a
			}()},
		{name: "pre block as plain stdout text exit 0 lets through", responses: 1, breaches: []string{CheckBlockLetsThrough},
			a: pre(0, block)},
		{name: "event name mismatch", responses: 1, decision: "failed", breaches: []string{CheckEventMismatch},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "permissionDecision": "deny", "additionalContext": block}))},
		{name: "event name missing", decision: "failed", breaches: []string{CheckEventMismatch},
			a: pre(0, hookJSON(nil, map[string]any{"permissionDecision": "deny"}))},
		{name: "event name mismatch as the transcript records it", decision: "failed", breaches: []string{CheckEventMismatch},
			a: HookAnswer{Event: "PreToolUse", Tool: "Bash", HasExit: true, ExitCode: 1, HasStdout: true, HasStderr: true,
				Stderr: "Failed to run: Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'. Full stdout: {}"}},
		{name: "event name missing as the transcript records it", decision: "failed", breaches: []string{CheckEventMismatch},
			a: HookAnswer{Event: "PreToolUse", Tool: "Bash", HasExit: true, ExitCode: 1, HasStdout: true, HasStderr: true,
				Stderr: "Hook JSON output validation failed — hookSpecificOutput is missing required field \"hookEventName\"\n\nThe hook's output was: {}"}},
		{name: "crash exit 1", decision: "failed", breaches: []string{CheckHookFailedOpen},
			a: func() HookAnswer { a := pre(1, block); a.Stderr = "Traceback"; return a }()},
		{name: "timeout", decision: "failed", breaches: []string{CheckHookFailedOpen},
			a: HookAnswer{Event: "PreToolUse", Tool: "Bash", Failed: "timeout"}},
		{name: "invalid stdout JSON fails open", decision: "failed", breaches: []string{CheckHookFailedOpen},
			a: pre(0, `{"hookSpecificOutput": {`)},
		{name: "runtime wrong kind", responses: 1, decision: "block", breaches: []string{CheckRuntimeWrongKind},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "additionalContext": agcJSON("block", "rev", "judgment")}))},
		{name: "invalid AGC JSON in context", breaches: []string{CheckInvalidJSON}, decision: "block",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "additionalContext": `{"agc": "0.1", "verdict": `}))},
		{name: "pre steer with deny is heavier", responses: 1, decision: "block", breaches: []string{CheckAnswerHeavier},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "additionalContext": agcJSON("steer", "g", "runtime")}))},
		{name: "pre pass with exit 2 is heavier", responses: 1, decision: "block", breaches: []string{CheckAnswerHeavier},
			a: func() HookAnswer { a := pre(2, ""); a.Stderr = agcJSON("pass", "g", "runtime"); return a }()},
		{name: "pre steer with updatedInput is heavier", responses: 1, decision: "repaired", breaches: []string{CheckAnswerHeavier},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": map[string]any{"command": "x"}, "additionalContext": agcJSON("steer", "g", "runtime")}))},
		{name: "pre repaired with deny is heavier", responses: 1, decision: "block", breaches: []string{CheckAnswerHeavier},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "updatedInput": map[string]any{"command": "x"}, "additionalContext": repaired}))},
		{name: "post steer with decision block is heavier", responses: 1, decision: "block", breaches: []string{CheckAnswerHeavier},
			a: post(hookJSON(map[string]any{"decision": "block", "reason": "r"}, map[string]any{"hookEventName": "PostToolUse", "additionalContext": agcJSON("steer", "g", "runtime")}))},
		{name: "post repair good", responses: 1, decision: "repaired",
			a: post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "updatedToolOutput": map[string]any{"stdout": "x"}, "additionalContext": repaired}))},
		{name: "post repair without updatedToolOutput", responses: 1, decision: "context", breaches: []string{CheckRepairNoOutput},
			a: post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "additionalContext": repaired}))},
		{name: "post repair with MCP output on a non-MCP tool", responses: 1, decision: "context", breaches: []string{CheckRepairNoOutput},
			a: post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "updatedMCPToolOutput": "x", "additionalContext": repaired}))},
		{name: "post block good", responses: 1, decision: "block",
			a: post(hookJSON(map[string]any{"decision": "block", "reason": "secret"}, map[string]any{"hookEventName": "PostToolUse", "additionalContext": block}))},
		{name: "post block without decision", responses: 1, decision: "context", breaches: []string{CheckPostBlockNoDecision},
			a: post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "additionalContext": block}))},
		{name: "post block with empty reason", responses: 1, decision: "block", breaches: []string{CheckPostBlockNoDecision},
			a: post(hookJSON(map[string]any{"decision": "block", "reason": " "}, map[string]any{"hookEventName": "PostToolUse", "additionalContext": block}))},
		{name: "post block without AGC JSON", unstruct: Block, decision: "block", breaches: []string{CheckPostNoAGC},
			a: post(hookJSON(map[string]any{"decision": "block", "reason": "secret"}, nil))},
		{name: "post output replaced without AGC", unstruct: Repaired, decision: "repaired", breaches: []string{CheckPostNoAGC},
			a: post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "updatedToolOutput": "x"}))},
		{name: "post blocking error from transcript only: no accusation", unstruct: Block, decision: "block",
			a: HookAnswer{Event: "PostToolUse", Tool: "Bash", Blocked: true, BlockReason: "secret"}},
		{name: "post blocking error, every context known, none sent", unstruct: Block, decision: "block", breaches: []string{CheckPostNoAGC},
			a: HookAnswer{Event: "PostToolUse", Tool: "Bash", Blocked: true, BlockReason: "secret", ContextComplete: true}},
		{name: "post blocking error, every context known, AGC JSON sent", responses: 1, decision: "block",
			a: HookAnswer{Event: "PostToolUse", Tool: "Bash", Blocked: true, BlockReason: "secret", ContextComplete: true, AdditionalContext: []string{block}}},
		{name: "post exit 2 with AGC only on stderr", responses: 1, decision: "block", breaches: []string{CheckPostNoAGC},
			a: func() HookAnswer { a := post(""); a.ExitCode = 2; a.Stderr = block; return a }()},
		{name: "other event: AGC only", responses: 1, decision: "context",
			a: HookAnswer{Event: "Stop", HasExit: true, HasStdout: true, Stdout: hookJSON(nil, map[string]any{"hookEventName": "Stop", "additionalContext": block})}},
		{name: "other event: crash", decision: "failed", breaches: []string{CheckHookFailedOpen},
			a: HookAnswer{Event: "SessionStart", HasExit: true, ExitCode: 127}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := CheckClaudeHook(tt.a)
			var got []string
			for _, b := range res.Breaches {
				got = append(got, b.Check)
				if b.Message == "" {
					t.Errorf("breach %s has no message", b.Check)
				}
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, tt.breaches) {
				t.Errorf("breaches = %v, want %v", got, tt.breaches)
			}
			if len(res.Responses) != tt.responses {
				t.Errorf("responses = %d, want %d", len(res.Responses), tt.responses)
			}
			var u Verdict
			if res.Unstructured != nil {
				u = res.Unstructured.Verdict
			}
			if u != tt.unstruct {
				t.Errorf("unstructured = %q, want %q", u, tt.unstruct)
			}
			if res.Decision != tt.decision {
				t.Errorf("decision = %q, want %q", res.Decision, tt.decision)
			}
		})
	}
}

func TestCheckClaudeHookMessages(t *testing.T) {
	a := pre(1, "")
	a.Stderr = "KeyError: 'policy'\n"
	res := CheckClaudeHook(a)
	if len(res.Breaches) != 1 {
		t.Fatalf("breaches = %v", res.Breaches)
	}
	msg := res.Breaches[0].Message
	for _, want := range []string{"/h/guard.sh", "exit status 1", "git push --force", "unguarded", "KeyError"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	a = pre(2, "")
	a.Stderr = "force-push is not allowed"
	res = CheckClaudeHook(a)
	if res.Unstructured == nil || !strings.Contains(res.Unstructured.Message, "force-push is not allowed") {
		t.Errorf("unstructured = %+v, want the stderr as reason", res.Unstructured)
	}
}

func TestCheckClaudeHookTextForm(t *testing.T) {
	if _, ok := ParseText("AGC block: g/r — m"); !ok {
		t.Fatal("ParseText does not read the text form")
	}
	a := pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": "AGC steer: tests/use-make/Bash.command — Run make test."}))
	res := CheckClaudeHook(a)
	if len(res.Responses) != 1 || res.Responses[0].Verdict != Steer || len(res.Breaches) != 0 {
		t.Errorf("text form in context: %+v", res)
	}
	a = pre(2, "")
	a.Stderr = "AGC block: git-safety/force-push/Bash.command — no force pushes.\n"
	res = CheckClaudeHook(a)
	if len(res.Responses) != 1 || res.Responses[0].Verdict != Block || res.Unstructured != nil {
		t.Errorf("text form on stderr: %+v", res)
	}
	// PostToolUse block whose additionalContext carries only the text form: still no AGC JSON.
	a = post(hookJSON(map[string]any{"decision": "block", "reason": "x"}, map[string]any{"hookEventName": "PostToolUse", "additionalContext": "AGC block: s/r — m"}))
	res = CheckClaudeHook(a)
	if len(res.Breaches) != 1 || res.Breaches[0].Check != CheckPostNoAGC {
		t.Errorf("post text form only: %+v", res.Breaches)
	}
}

func TestFindResponses(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		n      int
		isJSON bool
		breach bool
	}{
		{"whole JSON", agcJSON("block", "g", "runtime"), 1, true, false},
		{"JSON after prose line", "Gate said:\n" + agcJSON("block", "g", "runtime") + "\ntrailer", 1, true, false},
		{"two responses", agcJSON("block", "g", "runtime") + "\n" + agcJSON("steer", "h", "runtime"), 2, true, false},
		{"non-AGC JSON", `{"note": "hello"}`, 0, false, false},
		{"broken AGC JSON", `{"agc": "0.1", "gate": `, 0, true, true},
		{"prose only", "just some context", 0, false, false},
		{"brace mid-line is not a start", `see {"agc": "0.1"}`, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, bs, isJSON := FindResponses(tt.in)
			if len(rs) != tt.n || isJSON != tt.isJSON || (len(bs) > 0) != tt.breach {
				t.Errorf("got %d responses, json=%v, breaches=%v; want %d, %v, breach=%v", len(rs), isJSON, bs, tt.n, tt.isJSON, tt.breach)
			}
		})
	}
}

func FuzzCheckClaudeHook(f *testing.F) {
	f.Add("PreToolUse", 0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": map[string]any{"command": "x"}, "additionalContext": agcJSON("repaired", "g", "runtime")}), "", "")
	f.Add("PreToolUse", 2, "", agcJSON("block", "g", "runtime"), "")
	f.Add("PostToolUse", 0, `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":1}}`, "", "AGC block: a/b — c")
	f.Add("PreToolUse", 1, "{", "boom", "[x]: y")
	f.Add("Stop", 0, `{"hookSpecificOutput":{"hookEventName":7,"additionalContext":{"agc":1}}}`, "", "")
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr, refusal string) {
		a := HookAnswer{Event: event, Tool: "Bash", Hook: "h", HasExit: exit >= 0, ExitCode: exit,
			HasStdout: true, Stdout: stdout, HasStderr: true, Stderr: stderr,
			AdditionalContext: []string{stdout}, Refused: refusal != "", RefusalText: refusal, ToolInput: json.RawMessage(stdout)}
		res := CheckClaudeHook(a)
		for _, b := range res.Breaches {
			if _, ok := LookupCheck(b.Check); !ok && !strings.HasPrefix(b.Check, "agc/") {
				t.Errorf("breach with unknown check %q", b.Check)
			}
		}
		for _, r := range res.Responses {
			if r == nil {
				t.Error("nil response")
			}
		}
	})
}

func BenchmarkCheckClaudeHook(b *testing.B) {
	a := pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow",
		"updatedInput": map[string]any{"command": "x"}, "additionalContext": agcJSON("repaired", "ws", "runtime")}))
	for i := 0; i < b.N; i++ {
		CheckClaudeHook(a)
	}
}
