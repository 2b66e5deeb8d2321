package copilot

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func TestCopilotCheckHook(t *testing.T) {
	pre := func(exit int, stdout string) gates.HookAnswer {
		return gates.HookAnswer{Event: "preToolUse", Tool: "bash", Hook: "/h/guard.py", HasExit: true, ExitCode: exit,
			HasStdout: true, Stdout: stdout, HasStderr: true, ToolInput: json.RawMessage(`{"command":"rm -rf /"}`)}
	}
	block := gatestest.AGCJSON("block", "g", "runtime")
	tests := []struct {
		name     string
		a        gates.HookAnswer
		breaches []string
		decision string
	}{
		{name: "top-level deny blocks", decision: "block",
			a: pre(0, gatestest.HookJSON(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": block}, nil))},
		{name: "modifiedArgs repairs", decision: "repaired",
			a: pre(0, gatestest.HookJSON(map[string]any{"permissionDecision": "allow", "modifiedArgs": map[string]any{"command": "ls"}, "additionalContext": gatestest.AGCJSON("repaired", "g", "runtime")}, nil))},
		{name: "Claude-style answer is ignored", breaches: []string{CheckAnswerIgnored},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "deny", "additionalContext": block}))},
		{name: "exit 2 loses its reason", decision: "block", breaches: []string{CheckExit2Reason}, a: pre(2, "")},
		{name: "crash fails closed", decision: "failed", breaches: []string{CheckFailedClosed}, a: pre(1, "")},
		{name: "crash whose exit status Copilot did not record still fails closed", decision: "failed", breaches: []string{CheckFailedClosed},
			a: gates.HookAnswer{Event: "preToolUse", Tool: "bash", Failed: "crashed", ToolInput: json.RawMessage(`{"command":"ls"}`)}},
		{name: "invalid JSON fails open", decision: "failed", breaches: []string{gates.CheckHookFailedOpen}, a: pre(0, "{not json")},
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

func TestCopilotHookInput(t *testing.T) {
	b := Binding{}
	c, ok := b.HookInput([]byte(`{"sessionId":"s","cwd":"/p","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success"}}`))
	want := gates.HookCall{Event: "postToolUse", Tool: "bash", SessionID: "s", Cwd: "/p", Input: json.RawMessage(`{"command":"ls"}`)}
	if !ok || !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v %v, want %+v", c, ok, want)
	}
}
