package opencode

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func TestOpenCodeCheckHook(t *testing.T) {
	bash := func(a gates.HookAnswer) gates.HookAnswer {
		a.Tool, a.ToolInput = "bash", json.RawMessage(`{"command":"git push --force","description":"x"}`)
		return a
	}
	pre := func(exit int, stdout string) gates.HookAnswer { return bash(gatestest.Pre(exit, stdout)) }
	repaired, block := gatestest.AGCJSON("repaired", "g", "runtime"), gatestest.AGCJSON("block", "g", "runtime")
	text := "AGC block: g/r1/bash.command — no"
	tests := []struct {
		name     string
		a        gates.HookAnswer
		decision string
		breaches []string
	}{
		{name: "deny blocks", a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "deny", "permissionDecisionReason": text})), decision: "block"},
		{name: "ask is a deny", a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "ask", "permissionDecisionReason": text})), decision: "block"},
		{name: "allow with updatedInput rewrites, no breach: permission rules still apply",
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "allow", "updatedInput": map[string]any{"command": "git push"}, "additionalContext": repaired})), decision: "repaired"},
		{name: "no hookEventName is no failure", a: pre(0, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"`+text+`"}}`), decision: "block"},
		{name: "exit 2 blocks", a: stderr(pre(2, ""), text), decision: "block"},
		{name: "crash fails open", a: stderr(pre(1, ""), "boom"), decision: "failed", breaches: []string{gates.CheckHookFailedOpen}},
		{name: "a plugin's crash fails closed", a: bash(gates.HookAnswer{Event: "PreToolUse", Refused: true, RefusalText: "undefined is not an object (evaluating 'x.y')"}),
			decision: "block", breaches: []string{CheckPluginFailedClosed}},
		{name: "a native guard's throw is a block", a: bash(gates.HookAnswer{Event: "PreToolUse", Refused: true, RefusalText: block}), decision: "block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sort.Strings(tt.breaches)
			res := gatestest.CheckBreaches(t, Binding{}, tt.a, tt.breaches)
			if res.Decision != tt.decision {
				t.Errorf("decision %q, want %q", res.Decision, tt.decision)
			}
			for _, b := range res.Breaches {
				if strings.Contains(b.Message, "Claude") {
					t.Errorf("%s names another runtime: %s", b.Check, b.Message)
				}
			}
		})
	}
	res := Binding{Kilo: true}.CheckHook(gates.HookAnswer{Event: "PreToolUse", Refused: true, RefusalText: "TypeError: x is not a function"})
	if len(res.Breaches) != 1 || res.Breaches[0].Check != CheckKiloPluginFailedClosed || !strings.Contains(res.Breaches[0].Message, "Kilo Code") {
		t.Errorf("Kilo crash: %+v", res.Breaches)
	}
}

func stderr(a gates.HookAnswer, s string) gates.HookAnswer {
	a.HasStderr, a.Stderr = true, s
	return a
}

func TestOpenCodeBindings(t *testing.T) {
	if (Binding{}).Runtime() != agent.OpenCode || (Binding{Kilo: true}).Runtime() != agent.Kilo {
		t.Error("runtime ids")
	}
	for _, b := range []Binding{{}, {Kilo: true}} {
		if r, ok := b.Effects().Of(gates.AnswerDeny); !ok || r.Effect != gates.EffectNotRun || r.Verified != b.version() {
			t.Errorf("%s deny effect %+v", b.Runtime(), r)
		}
		if len(b.Rows()) != 1 || b.Rows()[0].ID != b.failedClosed() {
			t.Errorf("%s rows %+v", b.Runtime(), b.Rows())
		}
	}
	if cmd, _ := (Binding{}).ToolNames("bash", json.RawMessage(`{"command":"ls"}`)); cmd != "ls" {
		t.Error("bash command")
	}
	if tc := (Binding{}).ToolCall("write", json.RawMessage(`{"filePath":"/p/a","content":"x"}`)); tc.FilePath != "/p/a" || len(tc.NewTexts) != 1 {
		t.Errorf("write: %+v", tc)
	}
}

// TestOpenCodeToolCallShapes: a call is read in OpenCode's names (its records) and in the Claude
// Code names agc-hooks.js gives it in a hook's stdin (the recorder's log).
func TestOpenCodeToolCallShapes(t *testing.T) {
	cases := []struct {
		tool, input   string
		command, file string
		newTexts      int
	}{
		{"bash", `{"command":"ls"}`, "ls", "", 0},
		{"Bash", `{"command":"ls"}`, "ls", "", 0},
		{"Bash", `{"file_path":"/p/a"}`, "", "", 0},
		{"write", `{"filePath":"/p/a","content":"x"}`, "", "/p/a", 1},
		{"Write", `{"file_path":"/p/a","content":"x"}`, "", "/p/a", 1},
		{"Edit", `{"file_path":"/p/a","old_string":"a","new_string":"b"}`, "", "/p/a", 1},
		{"edit", `{"filePath":"/p/a","oldString":"a","newString":"b"}`, "", "/p/a", 1},
		{"Read", `{"file_path":"/p/a"}`, "", "/p/a", 0},
		{"Read", `{"command":"ls"}`, "", "", 0},
		{"glob", `{"pattern":"*"}`, "", "", 0},
	}
	for _, c := range cases {
		tc := (Binding{}).ToolCall(c.tool, json.RawMessage(c.input))
		if tc.Command != c.command || tc.FilePath != c.file || len(tc.NewTexts) != c.newTexts {
			t.Errorf("ToolCall(%s, %s) = %+v, want command %q file %q %d texts", c.tool, c.input, tc, c.command, c.file, c.newTexts)
		}
		if cmd, file := (Binding{}).ToolNames(c.tool, json.RawMessage(c.input)); cmd != c.command || file != c.file {
			t.Errorf("ToolNames(%s, %s) = %q, %q", c.tool, c.input, cmd, file)
		}
	}
}
