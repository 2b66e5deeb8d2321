package gates

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCopilotCheckHook(t *testing.T) {
	pre := func(exit int, stdout string) HookAnswer {
		return HookAnswer{Event: "preToolUse", Tool: "bash", Hook: "/h/guard.py", HasExit: true, ExitCode: exit,
			HasStdout: true, Stdout: stdout, HasStderr: true, ToolInput: json.RawMessage(`{"command":"rm -rf /"}`)}
	}
	block := agcJSON("block", "g", "runtime")
	tests := []struct {
		name     string
		a        HookAnswer
		breaches []string
		decision string
	}{
		{name: "top-level deny blocks", decision: "block",
			a: pre(0, hookJSON(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": block}, nil))},
		{name: "modifiedArgs repairs", decision: "repaired",
			a: pre(0, hookJSON(map[string]any{"permissionDecision": "allow", "modifiedArgs": map[string]any{"command": "ls"}, "additionalContext": agcJSON("repaired", "g", "runtime")}, nil))},
		{name: "Claude-style answer is ignored", breaches: []string{CheckCopilotAnswerIgnored},
			a: pre(0, hookJSON(nil, map[string]any{"permissionDecision": "deny", "additionalContext": block}))},
		{name: "exit 2 loses its reason", decision: "block", breaches: []string{CheckCopilotExit2Reason}, a: pre(2, "")},
		{name: "crash fails closed", decision: "failed", breaches: []string{CheckCopilotFailedClosed}, a: pre(1, "")},
		{name: "crash whose exit status Copilot did not record still fails closed", decision: "failed", breaches: []string{CheckCopilotFailedClosed},
			a: HookAnswer{Event: "preToolUse", Tool: "bash", Failed: "crashed", ToolInput: json.RawMessage(`{"command":"ls"}`)}},
		{name: "invalid JSON fails open", decision: "failed", breaches: []string{CheckHookFailedOpen}, a: pre(0, "{not json")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := checkBreaches(t, BindingFor(RuntimeCopilot), tt.a, tt.breaches)
			if res.Decision != tt.decision {
				t.Errorf("decision %q, want %q", res.Decision, tt.decision)
			}
		})
	}
}

func TestCopilotHookInput(t *testing.T) {
	b := BindingFor(RuntimeCopilot)
	c, ok := b.HookInput([]byte(`{"sessionId":"s","cwd":"/p","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success"}}`))
	want := HookCall{Event: "postToolUse", Tool: "bash", SessionID: "s", Cwd: "/p", Input: json.RawMessage(`{"command":"ls"}`)}
	if !ok || !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v %v, want %+v", c, ok, want)
	}
	if _, ok := BindingFor(RuntimeClaudeCode).HookInput([]byte(`{}`)); ok {
		t.Error("Claude Code's stdin is read by the default reader")
	}
}
