package crush

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// TestCheckHook: each answer form as Crush 0.90.0 acts on it (testdata/crush): the decision the
// findings report, the checks it breaks and the responses read.
func TestCheckHook(t *testing.T) {
	in := json.RawMessage(`{"command":"git push --force"}`)
	agc := func(verdict string) string {
		return `{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"` + verdict + `\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}`
	}
	pre := func(stdout string, exit int, stderr string) gates.HookAnswer {
		return gates.HookAnswer{Event: "PreToolUse", Tool: "bash", Hook: "guard.py", HasExit: true, ExitCode: exit,
			HasStdout: true, Stdout: stdout, HasStderr: true, Stderr: stderr, ToolInput: in}
	}
	stored := func(stdout string) gates.HookAnswer { // as the store keeps it: no exit, no stderr
		return gates.HookAnswer{Event: "PreToolUse", Tool: "bash", Hook: "ship-guard", HasStdout: true, Stdout: stdout, ToolInput: in}
	}
	tests := []struct {
		name     string
		a        gates.HookAnswer
		decision string
		checks   []string
		verdicts []gates.Verdict
	}{
		{"envelope deny, AGC in the reason", pre(`{"decision":"deny","reason":"AGC block: g/r/bash.command — no","context":"`+agc("block")+`"}`, 0, ""),
			"block", nil, []gates.Verdict{gates.Block}},
		{"envelope deny, AGC only in the dropped context", pre(`{"decision":"deny","reason":"no","context":"`+agc("block")+`"}`, 0, ""),
			"block", []string{CheckDenyDropsContext}, nil},
		{"envelope rewrite with its context", pre(`{"updated_input":{"command":"echo no"},"context":"`+agc("repaired")+`"}`, 0, ""),
			"repaired", nil, []gates.Verdict{gates.Repaired}},
		{"envelope context list is a delivered steer", pre(`{"context":["`+agc("steer")+`"]}`, 0, ""),
			"context", nil, []gates.Verdict{gates.Steer}},
		{"Claude deny", pre(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"AGC block: g/r/bash.command — no"}}`, 0, ""),
			"block", nil, []gates.Verdict{gates.Block}},
		{"Claude rewrite with allow", pre(`{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"echo no"},"additionalContext":"`+agc("repaired")+`"}}`, 0, ""),
			"repaired", []string{gates.CheckRepairWithAllow}, []gates.Verdict{gates.Repaired}},
		{"decision block is ignored", pre(`{"decision":"block","reason":"AGC block: g/r/bash.command — no"}`, 0, ""),
			"", []string{CheckAnswerIgnored}, nil},
		{"exit 2", pre("", 2, "AGC block: g/r/bash.command — no"), "block", nil, []gates.Verdict{gates.Block}},
		{"exit 49 halts: a block, not a crash", pre("", 49, "AGC block: g/r/bash.command — stop"), "block", nil, []gates.Verdict{gates.Block}},
		{"halt in the envelope", pre(`{"halt":true,"reason":"AGC block: g/r/bash.command — stop"}`, 0, ""), "block", nil, []gates.Verdict{gates.Block}},
		{"crash fails open", pre("", 1, "Traceback"), "failed", []string{gates.CheckHookFailedOpen}, nil},
		{"invalid JSON fails open", pre(`{"decision": "deny", `, 0, ""), "failed", []string{gates.CheckHookFailedOpen}, nil},
		{"exit 2 with a repaired verdict", pre("", 2, `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"repaired","findings":[{"rule":"r","message":"m"}]}`),
			"block", []string{gates.CheckRepairByExit2}, []gates.Verdict{gates.Repaired}},
		{"the store's deny of a repaired verdict: no check of the form", stored(`{"decision":"deny","reason":"{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"repaired\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}"}`),
			"block", nil, []gates.Verdict{gates.Repaired}},
		{"the store's reason without a deny", stored(`{"reason":"AGC block: g/r/bash.command — no"}`), "", []string{CheckAnswerIgnored}, nil},
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
}

// TestHookInput reads Crush's "event" as the hook event.
func TestHookInput(t *testing.T) {
	c, ok := Binding{}.HookInput([]byte(`{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls"}}`))
	if !ok || c.Event != "PreToolUse" || c.Tool != "bash" || c.SessionID != "s" || string(c.Input) != `{"command":"ls"}` || c.ToolUseID != "" {
		t.Errorf("got %+v %v", c, ok)
	}
	if _, ok := (Binding{}).HookInput([]byte(`{"hook_event_name":"PreToolUse"}`)); ok {
		t.Error("Claude Code's stdin read as Crush's")
	}
}

// TestEffects: every row names the version and evidence; what Crush ignores is not enforced.
func TestEffects(t *testing.T) {
	tab := Binding{}.Effects()
	for _, r := range tab {
		if r.Verified != version || r.Evidence == "" {
			t.Errorf("row %s: verified %q evidence %q", r.Answer, r.Verified, r.Evidence)
		}
	}
	for a, want := range map[gates.Answer]gates.Effect{gates.AnswerDecisionBlock: gates.EffectIgnored, gates.AnswerContext: gates.EffectDelivered,
		gates.AnswerHalt: gates.EffectHalted, gates.AnswerCrash: gates.EffectFailedOpen} {
		if r, ok := tab.Of(a); !ok || r.Effect != want || r.Effect.Enforced() != (want == gates.EffectHalted) {
			t.Errorf("%s: %v %v, want %s", a, r.Effect, ok, want)
		}
	}
}
