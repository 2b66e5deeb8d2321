package droid

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// TestCheckHook: each answer form as Droid 0.225.2 acts on it (testdata/droid): the decision the
// findings report and the checks it breaks.
func TestCheckHook(t *testing.T) {
	in := json.RawMessage(`{"command":"git push --force"}`)
	agc := func(verdict string) string {
		return `{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"` + verdict + `\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}`
	}
	pre := func(stdout string, exit int, stderr string) gates.HookAnswer {
		return gates.HookAnswer{Event: "PreToolUse", Tool: "Execute", Hook: "guard.py", HasExit: true, ExitCode: exit,
			HasStdout: true, Stdout: stdout, HasStderr: true, Stderr: stderr, ToolInput: in}
	}
	post := pre
	tests := []struct {
		name     string
		a        gates.HookAnswer
		decision string
		checks   []string
		verdicts []gates.Verdict // of the responses found
	}{
		{"deny with the AGC text in the reason", pre(`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"AGC block: g/r/Execute.command — no","additionalContext":"`+agc("block")+`"}}`, 0, ""),
			"block", nil, []gates.Verdict{gates.Block}},
		{"deny with the AGC only in the dropped context", pre(`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"`+agc("block")+`"}}`, 0, ""),
			"block", []string{CheckDenyDropsContext}, nil},
		{"exit 2 with JSON on stderr blocks", pre("", 2, `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"block","findings":[{"rule":"r","message":"m"}]}`),
			"block", nil, []gates.Verdict{gates.Block}},
		{"exit 3 is a block, not a crash", pre("", 3, "AGC block: g/r/Execute.command — stop"),
			"block", nil, []gates.Verdict{gates.Block}},
		{"continue false halts", pre(`{"continue":false,"stopReason":"AGC block: g/r/Execute.command — stop"}`, 0, ""),
			"block", nil, []gates.Verdict{gates.Block}},
		{"crash fails open", pre("", 1, "Traceback"), "failed", []string{gates.CheckHookFailedOpen}, nil},
		{"top-level decision block is ignored", pre(`{"decision":"block","reason":"AGC block: g/r/Execute.command — no"}`, 0, ""),
			"", []string{CheckDecisionBlockIgnored}, nil},
		{"a steer in PreToolUse is dropped", pre(`{"hookSpecificOutput":{"additionalContext":"`+agc("steer")+`"}}`, 0, ""),
			"", []string{CheckPreToolSteer}, nil},
		{"ask is not asked", pre(`{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, 0, ""),
			"", []string{CheckAskNotAsked}, nil},
		{"rewrite keeps its response", pre(`{"hookSpecificOutput":{"updatedInput":{"command":"echo no"},"additionalContext":"`+agc("repaired")+`"}}`, 0, ""),
			"repaired", nil, []gates.Verdict{gates.Repaired}},
		{"rewrite with allow", pre(`{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"echo no"},"additionalContext":"`+agc("repaired")+`"}}`, 0, ""),
			"repaired", []string{gates.CheckRepairWithAllow}, []gates.Verdict{gates.Repaired}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Binding{}.CheckHook(tt.a)
			var checks []string
			for _, b := range res.Breaches {
				checks = append(checks, b.Check)
			}
			var verdicts []gates.Verdict
			for _, r := range res.Responses {
				verdicts = append(verdicts, r.Verdict)
			}
			if res.Decision != tt.decision || !reflect.DeepEqual(checks, tt.checks) || !reflect.DeepEqual(verdicts, tt.verdicts) {
				t.Errorf("decision %q checks %v verdicts %v; want %q %v %v", res.Decision, checks, verdicts, tt.decision, tt.checks, tt.verdicts)
			}
		})
	}
	p := post(`{"decision":"block","reason":"AGC block: g/r/Execute.command — no","hookSpecificOutput":{"additionalContext":"`+agc("block")+`"}}`, 0, "")
	p.Event = "PostToolUse"
	res := Binding{}.CheckHook(p)
	if len(res.Breaches) != 1 || res.Breaches[0].Check != CheckPostBlockIgnored || res.Decision == "block" {
		t.Errorf("PostToolUse decision block: decision %q breaches %+v", res.Decision, res.Breaches)
	}
}

// TestEffects: every row is verified with the version and evidence of the binding, and the
// ignored forms are not enforced.
func TestEffects(t *testing.T) {
	tab := Binding{}.Effects()
	for _, r := range tab {
		if r.Verified != version || r.Evidence == "" {
			t.Errorf("row %s: verified %q evidence %q", r.Answer, r.Verified, r.Evidence)
		}
	}
	for a, want := range map[gates.Answer]gates.Effect{gates.AnswerDecisionBlock: gates.EffectIgnored, gates.AnswerContext: gates.EffectDropped,
		gates.AnswerHalt: gates.EffectHalted, gates.AnswerCrash: gates.EffectFailedOpen, gates.AnswerExit2: gates.EffectNotRun} {
		if r, ok := tab.Of(a); !ok || r.Effect != want {
			t.Errorf("%s: %v %v, want %s", a, r.Effect, ok, want)
		}
	}
}

// TestToolCall reads Execute's command and Create's file and content.
func TestToolCall(t *testing.T) {
	b := Binding{}
	if tc := b.ToolCall("Execute", json.RawMessage(`{"command":"ls","summary":"s"}`)); tc.Command != "ls" || tc.FilePath != "" {
		t.Errorf("Execute: %+v", tc)
	}
	if tc := b.ToolCall("Create", json.RawMessage(`{"file_path":"/p/a.md","content":"x"}`)); tc.FilePath != "/p/a.md" || !reflect.DeepEqual(tc.NewTexts, []string{"x"}) {
		t.Errorf("Create: %+v", tc)
	}
	if c, f := b.ToolNames("Execute", json.RawMessage(`{"command":42}`)); c != "" || f != "" {
		t.Errorf("wrong type read: %q %q", c, f)
	}
}
