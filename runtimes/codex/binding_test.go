package codex

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func TestCodexCheckHook(t *testing.T) {
	repaired := gatestest.AGCJSON("repaired", "ws", "runtime")
	block := gatestest.AGCJSON("block", "git", "runtime")
	steer := gatestest.AGCJSON("steer", "hint", "runtime")
	upd := map[string]any{"command": "x"}
	tests := []struct {
		name     string
		a        gates.HookAnswer
		breaches []string // sorted
		updated  bool     // UpdatedInput kept
	}{
		{name: "repair with allow is Codex's rule", updated: true,
			a: gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": upd, "additionalContext": repaired}))},
		{name: "repair without allow is ignored",
			breaches: []string{CheckRepairNoAllow},
			a:        gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": upd, "additionalContext": repaired}))},
		{name: "ask fails open",
			breaches: []string{CheckAnswerIgnored},
			a:        gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "ask", "additionalContext": steer}))},
		{name: "continue false fails open",
			breaches: []string{CheckAnswerIgnored},
			a:        gatestest.Pre(0, gatestest.HookJSON(map[string]any{"continue": false}, map[string]any{"hookEventName": "PreToolUse", "additionalContext": steer}))},
		{name: "crash fails open", breaches: []string{gates.CheckHookFailedOpen}, a: gatestest.Pre(1, "")},
		{name: "deny blocks", a: gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "additionalContext": block}))},
		{name: "block without deny lets through", breaches: []string{gates.CheckBlockLetsThrough},
			a: gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": block}))},
		{name: "event name is not checked",
			a: gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "Other", "additionalContext": steer}))},
	}
	b := Binding{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := gatestest.CheckBreaches(t, b, tt.a, tt.breaches)
			if (res.UpdatedInput != nil) != tt.updated {
				t.Errorf("updatedInput kept %v, want %v", res.UpdatedInput != nil, tt.updated)
			}
		})
	}
}
