package gates

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCodexCheckHook(t *testing.T) {
	repaired := agcJSON("repaired", "ws", "runtime")
	block := agcJSON("block", "git", "runtime")
	steer := agcJSON("steer", "hint", "runtime")
	upd := map[string]any{"command": "x"}
	tests := []struct {
		name     string
		a        HookAnswer
		breaches []string // sorted
		updated  bool     // UpdatedInput kept
	}{
		{name: "repair with allow is Codex's rule", updated: true,
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": upd, "additionalContext": repaired}))},
		{name: "repair without allow is ignored",
			breaches: []string{CheckCodexRepairNoAllow},
			a:        pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": upd, "additionalContext": repaired}))},
		{name: "ask fails open",
			breaches: []string{CheckCodexAnswerIgnored},
			a:        pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "ask", "additionalContext": steer}))},
		{name: "continue false fails open",
			breaches: []string{CheckCodexAnswerIgnored},
			a:        pre(0, hookJSON(map[string]any{"continue": false}, map[string]any{"hookEventName": "PreToolUse", "additionalContext": steer}))},
		{name: "crash fails open", breaches: []string{CheckHookFailedOpen}, a: pre(1, "")},
		{name: "deny blocks", a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "additionalContext": block}))},
		{name: "block without deny lets through", breaches: []string{CheckBlockLetsThrough},
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "additionalContext": block}))},
		{name: "event name is not checked",
			a: pre(0, hookJSON(nil, map[string]any{"hookEventName": "Other", "additionalContext": steer}))},
	}
	b := BindingFor(RuntimeCodex)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := checkBreaches(t, b, tt.a, tt.breaches)
			if (res.UpdatedInput != nil) != tt.updated {
				t.Errorf("updatedInput kept %v, want %v", res.UpdatedInput != nil, tt.updated)
			}
		})
	}
}

func TestBindingFor(t *testing.T) {
	if BindingFor("").Runtime() != RuntimeClaudeCode || BindingFor(RuntimeCodex).Runtime() != RuntimeCodex {
		t.Fatal("registered bindings not found by runtime id")
	}
	u := BindingFor("cursor")
	if u.Runtime() != "cursor" {
		t.Fatalf("unbound runtime named %q", u.Runtime())
	}
	// A Claude-only breach is not held against a runtime without a binding.
	a := pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow",
		"updatedInput": map[string]any{"command": "x"}, "additionalContext": agcJSON("repaired", "ws", "runtime")}))
	if bs := u.CheckHook(a).Breaches; len(bs) != 0 {
		t.Errorf("unbound runtime got breaches %v", bs)
	}
	if bs := BindingFor(RuntimeClaudeCode).CheckHook(a).Breaches; len(bs) != 1 || bs[0].Check != CheckRepairWithAllow {
		t.Errorf("Claude Code breaches %v, want repair-with-allow", bs)
	}
	seen := map[string]bool{}
	for _, b := range Bindings() {
		if seen[b.Runtime()] {
			t.Errorf("runtime %q registered twice", b.Runtime())
		}
		seen[b.Runtime()] = true
		if len(b.ConfigFiles()) == 0 || len(b.Events()) == 0 {
			t.Errorf("binding %q names no config file or event", b.Runtime())
		}
	}
}

func TestToolCall(t *testing.T) {
	c := BindingFor(RuntimeClaudeCode)
	tests := []struct {
		b     Binding
		tool  string
		input string
		want  ToolCall
	}{
		{c, "Bash", `{"command":"ls"}`, ToolCall{Command: "ls"}},
		{c, "Edit", `{"file_path":"a.go","new_string":"x := 1"}`, ToolCall{FilePath: "a.go", NewTexts: []string{"x := 1"}}},
		{c, "NotebookEdit", `{"notebook_path":"n.ipynb","new_source":"print()"}`, ToolCall{FilePath: "n.ipynb", NewTexts: []string{"print()"}}},
		{c, "", `{"notebook_path":"n.ipynb"}`, ToolCall{FilePath: "n.ipynb"}},
		{c, "Grep", `{"file_path":"a.go"}`, ToolCall{}},
		{c, "Bash", `not json`, ToolCall{}},
		{BindingFor(RuntimeCodex), "Bash", `{"command":"ls"}`, ToolCall{Command: "ls"}},
		{BindingFor(RuntimeCodex), "apply_patch", `{"command":"ls"}`, ToolCall{}},
	}
	for _, tt := range tests {
		if got := tt.b.ToolCall(tt.tool, json.RawMessage(tt.input)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s %s: %+v, want %+v", tt.b.Runtime(), tt.tool, tt.input, got, tt.want)
		}
	}
}
