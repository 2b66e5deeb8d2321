package gemini

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func TestGeminiCheckHook(t *testing.T) {
	before := func(exit int, stdout string) gates.HookAnswer {
		a := gatestest.Pre(exit, stdout)
		a.Event, a.Tool = "BeforeTool", "run_shell_command"
		a.ToolInput = []byte(`{"command":"git push --force","description":"push"}`)
		return a
	}
	repaired, steer, block := gatestest.AGCJSON("repaired", "ws", "runtime"), gatestest.AGCJSON("steer", "hint", "runtime"), gatestest.AGCJSON("block", "git", "runtime")
	tests := []struct {
		name     string
		a        gates.HookAnswer
		breaches []string
		decision string
	}{
		{name: "deny blocks", decision: "block", a: before(0, `{"decision":"deny","reason":"AGC block: git/r1/run_shell_command.command — no"}`)},
		{name: "whole tool_input repairs", decision: "repaired",
			a: before(0, gatestest.HookJSON(map[string]any{"decision": "allow"}, map[string]any{"tool_input": map[string]any{"command": "x", "description": "push"}, "additionalContext": repaired}))},
		{name: "tool_input that drops an argument", decision: "repaired", breaches: []string{CheckRepairDropsArgs},
			a: before(0, gatestest.HookJSON(nil, map[string]any{"tool_input": map[string]any{"command": "x"}, "additionalContext": repaired}))},
		{name: "steer from BeforeTool is lost", decision: "context", breaches: []string{CheckBeforeToolSteer},
			a: before(0, gatestest.HookJSON(nil, map[string]any{"additionalContext": steer}))},
		{name: "ask hangs", decision: "ask", breaches: []string{CheckAsk}, a: before(0, `{"decision":"ask","reason":"AGC steer: hint/r1/x — m"}`)},
		{name: "allow with a block verdict", decision: "allow", breaches: []string{gates.CheckBlockLetsThrough},
			a: before(0, gatestest.HookJSON(map[string]any{"decision": "allow"}, map[string]any{"additionalContext": block}))},
		{name: "invalid JSON fails open", decision: "failed", breaches: []string{gates.CheckHookFailedOpen}, a: before(0, `{not json`)},
		{name: "crash fails open", decision: "failed", breaches: []string{gates.CheckHookFailedOpen}, a: before(1, "")},
		{name: "exit 2 with a JSON body ran the call", decision: "block", breaches: []string{CheckExit2JSON}, a: stderr2(before(2, ""), block)},
		{name: "exit 2 with a JSON deny blocks", decision: "block", a: stderr2(before(2, ""), `{"decision":"deny","reason":"no"}`)},
		{name: "exit 2 with a text reason blocks", decision: "block", a: stderr2(before(2, ""), "AGC block: git/r1/run_shell_command.command — no")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := gatestest.CheckBreaches(t, Binding{}, tt.a, tt.breaches)
			if res.Decision != tt.decision {
				t.Errorf("decision %q, want %q", res.Decision, tt.decision)
			}
		})
	}
}

// stderr2 is a with stderr set.
func stderr2(a gates.HookAnswer, stderr string) gates.HookAnswer {
	a.HasStderr, a.Stderr = true, stderr
	return a
}
