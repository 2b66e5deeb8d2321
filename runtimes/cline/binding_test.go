package cline

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func shell(a gates.HookAnswer) gates.HookAnswer {
	a.Tool, a.ToolInput = "run_commands", json.RawMessage(`{"commands":["git push --force"]}`)
	return a
}

func answer(m map[string]any) string { return gates.JSONLine(m) }

func TestClineCheckHook(t *testing.T) {
	pre := func(exit int, stdout string) gates.HookAnswer { return shell(gatestest.Pre(exit, stdout)) }
	block, steer, repaired := gatestest.AGCJSON("block", "g", "runtime"), gatestest.AGCJSON("steer", "g", "runtime"), gatestest.AGCJSON("repaired", "g", "runtime")
	text := "AGC block: g/r1/run_commands.commands — no"
	tests := []struct {
		name     string
		a        gates.HookAnswer
		decision string
		breaches []string
		rules    int // AGC responses found
	}{
		{name: "cancel with the text form is a block", a: pre(0, answer(map[string]any{"cancel": true, "errorMessage": text})), decision: "block", rules: 1},
		{name: "cancel with the AGC only in the context: dropped", a: pre(0, answer(map[string]any{"cancel": true, "errorMessage": "no", "contextModification": block})),
			decision: "block", breaches: []string{CheckCancelDropsContext}},
		{name: "cancel on a HOOK_CONTROL line after other output", a: pre(0, "noise\nHOOK_CONTROL\t"+answer(map[string]any{"cancel": true, "errorMessage": text})+"\n"), decision: "block", rules: 1},
		{name: "overrideInput runs the rewrite", a: pre(0, answer(map[string]any{"overrideInput": map[string]any{"commands": []string{"git push"}}, "contextModification": repaired})), decision: "repaired", rules: 1},
		{name: "a block verdict sent as a context ran", a: pre(0, answer(map[string]any{"contextModification": block})), decision: "context",
			breaches: []string{gates.CheckBlockLetsThrough}, rules: 1},
		{name: "context reaches the model", a: pre(0, answer(map[string]any{"context": steer})), decision: "context", rules: 1},
		{name: "errorMessage without cancel is a context", a: pre(0, answer(map[string]any{"errorMessage": steer})), decision: "context", rules: 1},
		{name: "exit 2 with the text form ran", a: stderr(pre(2, ""), text), breaches: []string{CheckExitIgnored}},
		{name: "exit 2 with an answer on stdout is read", a: pre(2, answer(map[string]any{"cancel": true, "errorMessage": text})), decision: "block", rules: 1},
		{name: "crash fails open", a: stderr(pre(1, ""), "Traceback"), decision: "failed", breaches: []string{gates.CheckHookFailedOpen}},
		{name: "exit 1 with an answer is read", a: pre(1, answer(map[string]any{"context": steer})), decision: "context", rules: 1},
		{name: "invalid JSON fails open", a: pre(0, "{not json"), decision: "failed", breaches: []string{gates.CheckHookFailedOpen}},
		{name: "plain text fails open", a: pre(0, "hello"), decision: "failed", breaches: []string{gates.CheckHookFailedOpen}},
		{name: "silence runs", a: pre(0, "")},
		{name: "PostToolUse context", a: shell(gatestest.Post(answer(map[string]any{"contextModification": steer}))), decision: "context", rules: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sort.Strings(tt.breaches)
			res := gatestest.CheckBreaches(t, Binding{}, tt.a, tt.breaches)
			if res.Decision != tt.decision {
				t.Errorf("decision %q, want %q", res.Decision, tt.decision)
			}
			if len(res.Responses) != tt.rules {
				t.Errorf("%d responses, want %d", len(res.Responses), tt.rules)
			}
			for _, b := range res.Breaches {
				if strings.Contains(b.Message, "Claude") {
					t.Errorf("%s: message names another runtime: %s", b.Check, b.Message)
				}
			}
		})
	}
}

func stderr(a gates.HookAnswer, s string) gates.HookAnswer {
	a.HasStderr, a.Stderr = true, s
	return a
}

func TestClineHookInput(t *testing.T) {
	in := `{"clineVersion":"","taskId":"conv_1","sessionContext":{"rootSessionId":"s1"},"workspaceRoots":["/p"],"hookName":"tool_result","tool_result":{"id":"call_1_0","name":"run_commands","input":{"commands":["ls"]},"output":"x"}}`
	if got := agent.Detect(json.RawMessage(in)); got != agent.Cline {
		t.Errorf("Detect = %q", got)
	}
	c, ok := Binding{}.HookInput([]byte(in))
	if !ok || c.Event != postTool || c.Tool != "run_commands" || c.ToolUseID != "call_1_0" || c.SessionID != "s1" || c.Cwd != "/p" || string(c.Input) != `{"commands":["ls"]}` {
		t.Errorf("HookInput = %+v, %v", c, ok)
	}
	if cmd, _ := (Binding{}).ToolNames("run_commands", c.Input); cmd != "ls" {
		t.Errorf("command %q", cmd)
	}
}

func TestClineEffects(t *testing.T) {
	for _, a := range []gates.Answer{gates.AnswerExit2, gates.AnswerHalt, gates.AnswerCrash, gates.AnswerRewrite, gates.AnswerContext} {
		r, ok := Binding{}.Effects().Of(a)
		if !ok || r.Verified != version {
			t.Errorf("%s: %+v %v", a, r, ok)
		}
	}
	if r, _ := (Binding{}).Effects().Of(gates.AnswerExit2); r.Effect.Enforced() {
		t.Errorf("exit 2 enforced in Cline: %+v", r)
	}
	if r, _ := (Binding{}).Effects().Of(gates.AnswerHalt); r.Effect != gates.EffectHalted {
		t.Errorf("cancel: %+v", r)
	}
}

func TestClineRepairAnswer(t *testing.T) {
	a, ok := DecodeAnswer(Binding{}.RepairAnswer(gates.Rewrite{Command: "ls", Context: "AGC repaired: g/r/t — m"}))
	if !ok || string(a.OverrideInput) != `{"commands":["ls"]}` || a.context() != "AGC repaired: g/r/t — m" {
		t.Errorf("repair answer %+v", a)
	}
}
