package qwen

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func shell(a gates.HookAnswer) gates.HookAnswer {
	a.Tool, a.ToolInput = "run_shell_command", json.RawMessage(`{"command":"git push --force","is_background":false}`)
	return a
}

func TestQwenCheckHook(t *testing.T) {
	pre := func(exit int, stdout string) gates.HookAnswer { return shell(gatestest.Pre(exit, stdout)) }
	post := func(stdout string) gates.HookAnswer { return shell(gatestest.Post(stdout)) }
	repaired, steer, block := gatestest.AGCJSON("repaired", "ws", "runtime"), gatestest.AGCJSON("steer", "hint", "runtime"), gatestest.AGCJSON("block", "git", "runtime")
	text := "AGC block: git/r1/run_shell_command.command — no"
	tests := []struct {
		name     string
		a        gates.HookAnswer
		breaches []string
	}{
		{name: "deny with the text form blocks", a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "deny", "permissionDecisionReason": text, "additionalContext": block}))},
		{name: "deny with the response only in additionalContext", breaches: []string{CheckDenyDropsContext},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "deny", "permissionDecisionReason": "no", "additionalContext": block}))},
		{name: "allow with updatedInput runs unrepaired", breaches: []string{CheckRepairNotApplied, CheckPreToolSteer},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "allow", "updatedInput": map[string]any{"command": "git push"}, "additionalContext": repaired}))},
		{name: "updatedInput alone runs unrepaired", breaches: []string{CheckRepairNotApplied, CheckPreToolSteer},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"updatedInput": map[string]any{"command": "git push"}, "additionalContext": repaired}))},
		{name: "steer from PreToolUse is dropped", breaches: []string{CheckPreToolSteer},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"additionalContext": steer}))},
		{name: "ask is a deny headless", breaches: []string{CheckAskDenies},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"permissionDecision": "ask", "permissionDecisionReason": "AGC steer: hint/r1/x — m"}))},
		{name: "top-level decision block is a deny", a: pre(0, `{"decision":"block","reason":"`+text+`"}`)},
		{name: "a block verdict that lets the call run", breaches: []string{gates.CheckBlockLetsThrough, CheckPreToolSteer},
			a: pre(0, gatestest.HookJSON(nil, map[string]any{"additionalContext": block}))},
		{name: "exit 2 with a JSON body ran the call", breaches: []string{CheckExit2JSON}, a: stderr(pre(2, ""), block)},
		{name: "exit 2 with a JSON deny blocks", a: stderr(pre(2, ""), `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}`)},
		{name: "exit 2 with the text form blocks", a: stderr(pre(2, ""), text)},
		{name: "crash fails open", breaches: []string{gates.CheckHookFailedOpen}, a: stderr(pre(1, ""), "Traceback")},
		{name: "PostToolUse steer works", a: post(gatestest.HookJSON(nil, map[string]any{"additionalContext": steer}))},
		{name: "PostToolUse decision block is ignored", breaches: []string{CheckPostBlockIgnored},
			a: post(gatestest.HookJSON(map[string]any{"decision": "block", "reason": text}, map[string]any{"additionalContext": block}))},
		{name: "PostToolUse continue false replaces the result", a: post(`{"continue":false,"stopReason":"` + text + `"}`)},
		{name: "PostToolUse exit 2 is ignored", breaches: []string{CheckPostBlockIgnored}, a: stderr(shell(gates.HookAnswer{Event: "PostToolUse", Hook: "/h/guard.sh", HasExit: true, ExitCode: 2, HasStdout: true}), text)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sort.Strings(tt.breaches)
			res := gatestest.CheckBreaches(t, Binding{}, tt.a, tt.breaches)
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

// logLine is a line of the recorder's log, as far as the test reads it.
type logLine struct {
	Runtime  string          `json:"runtime"`
	Input    json.RawMessage `json:"input"`
	ExitCode *int            `json:"exit_code"`
	Stdout   *string         `json:"stdout"`
	Stderr   *string         `json:"stderr"`
}

// recorded reads the recorder's log of a testdata/qwen folder.
func recorded(t *testing.T, dir string) []logLine {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata/qwen", dir, "hook-log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []logLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l logLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestQwenTestdata checks every hook run Qwen Code 0.24.4 recorded, in each approval mode,
// against the breaches docs/runtimes-qwen.md found for its call (the same 21 calls each run).
func TestQwenTestdata(t *testing.T) {
	want := map[string][]string{
		"call_3_0/PreToolUse":   {CheckPreToolSteer, CheckRepairNotApplied},
		"call_4_0/PreToolUse":   {CheckPreToolSteer, CheckRepairNotApplied},
		"call_5_0/PreToolUse":   {CheckPreToolSteer},
		"call_6_0/PreToolUse":   {CheckExit2JSON},
		"call_8_0/PreToolUse":   {gates.CheckHookFailedOpen},
		"call_9_0/PreToolUse":   {CheckExit2JSON},
		"call_10_0/PreToolUse":  {CheckPreToolSteer, gates.CheckRepairNoInput},
		"call_11_0/PreToolUse":  {gates.CheckBlockLetsThrough, CheckPreToolSteer},
		"call_12_0/PreToolUse":  {gates.CheckAnswerHeavier, CheckDenyDropsContext},
		"call_13_0/PreToolUse":  {CheckAskDenies},
		"call_14_0/PreToolUse":  {CheckAskDenies, CheckRepairNotApplied},
		"call_15_0/PreToolUse":  {CheckPreToolSteer},
		"call_16_0/PostToolUse": {CheckPostBlockIgnored},
		"call_18_0/PostToolUse": {CheckPostBlockIgnored},
		"call_19_0/PreToolUse":  {CheckPreToolSteer, CheckRepairNotApplied},
	}
	for _, dir := range []string{"run", "default", "auto-edit", "auto", "plan"} {
		t.Run(dir, func(t *testing.T) {
			lines := recorded(t, dir)
			if len(lines) < 30 {
				t.Fatalf("%d hook runs recorded, want the scenario's", len(lines))
			}
			for i, l := range lines {
				if l.Runtime != agent.Qwen || agent.Detect(l.Input) != agent.Qwen {
					t.Errorf("line %d: runtime %q, detected %q, want %q", i+1, l.Runtime, agent.Detect(l.Input), agent.Qwen)
				}
				c, ok := Binding{}.HookInput(l.Input)
				if !ok || !strings.HasPrefix(c.ToolUseID, "call_") {
					t.Fatalf("line %d: HookInput = %+v, %v; want the model's call id", i+1, c, ok)
				}
				a := gates.HookAnswer{Event: c.Event, Tool: c.Tool, ToolInput: c.Input, Hook: "guard.py",
					HasExit: l.ExitCode != nil, HasStdout: l.Stdout != nil, HasStderr: l.Stderr != nil}
				if l.ExitCode != nil {
					a.ExitCode = *l.ExitCode
					if a.ExitCode != 0 && a.ExitCode != 2 {
						a.Failed = "crashed"
					}
				}
				if l.Stdout != nil {
					a.Stdout = *l.Stdout
				}
				if l.Stderr != nil {
					a.Stderr = *l.Stderr
				}
				var got []string
				for _, b := range (Binding{}).CheckHook(a).Breaches {
					got = append(got, b.Check)
				}
				sort.Strings(got)
				key := c.ToolUseID + "/" + c.Event
				sort.Strings(want[key])
				if !reflect.DeepEqual(got, want[key]) {
					t.Errorf("line %d (%s): breaches %v, want %v", i+1, key, got, want[key])
				}
			}
		})
	}
}

func TestQwenToolCall(t *testing.T) {
	tests := []struct {
		tool, input string
		want        gates.ToolCall
	}{
		{"run_shell_command", `{"command":"rm -rf build","is_background":false,"description":"x"}`, gates.ToolCall{Command: "rm -rf build"}},
		{"write_file", `{"file_path":"/p/notes.txt","content":"DRAFT notes"}`, gates.ToolCall{FilePath: "/p/notes.txt", NewTexts: []string{"DRAFT notes"}}},
		{"edit", `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, gates.ToolCall{FilePath: "/p/a.go", NewTexts: []string{"b"}}},
		{"read_file", `{"file_path":"/p/a.go"}`, gates.ToolCall{FilePath: "/p/a.go"}},
		{"", `{"file_path":"/p/a.go","content":"x"}`, gates.ToolCall{FilePath: "/p/a.go", NewTexts: []string{"x"}}},
		{"run_shell_command", `{"command":42}`, gates.ToolCall{}},
		{"write_file", `not json`, gates.ToolCall{}},
		{"web_fetch", `{"url":"https://example.invalid"}`, gates.ToolCall{}},
	}
	for _, tt := range tests {
		got := Binding{}.ToolCall(tt.tool, json.RawMessage(tt.input))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ToolCall(%s, %s) = %+v, want %+v", tt.tool, tt.input, got, tt.want)
		}
		cmd, fp := Binding{}.ToolNames(tt.tool, json.RawMessage(tt.input))
		if cmd != tt.want.Command || fp != tt.want.FilePath {
			t.Errorf("ToolNames(%s, %s) = %q, %q, want %q, %q", tt.tool, tt.input, cmd, fp, tt.want.Command, tt.want.FilePath)
		}
	}
}

func TestQwenHookInput(t *testing.T) {
	tests := []struct {
		stdin string
		ok    bool
		want  gates.HookCall
	}{
		{`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_use_id":"toolu_1","tool_call_id":"call_1_0"}`, true,
			gates.HookCall{Event: "PreToolUse", Tool: "run_shell_command", ToolUseID: "call_1_0", SessionID: "s", Cwd: "/p", Input: json.RawMessage(`{"command":"ls"}`)}},
		{`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"write_file","tool_use_id":"toolu_1"}`, true,
			gates.HookCall{Event: "PreToolUse", Tool: "write_file", ToolUseID: "toolu_1", SessionID: "s"}},
		{`{"tool_input":null,"hook_event_name":"Stop"}`, true, gates.HookCall{Event: "Stop"}},
		{`[1]`, false, gates.HookCall{}},
		{`{"tool_call_id":7}`, false, gates.HookCall{}},
	}
	for _, tt := range tests {
		got, ok := Binding{}.HookInput([]byte(tt.stdin))
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("HookInput(%s) = %+v, %v; want %+v, %v", tt.stdin, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzQwenHook: any hook stdin and answer is read without panicking, and every breach is one of
// the binding's checks with a message.
func FuzzQwenHook(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_call_id":"call_1_0"}`),
		`{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"x"}}}`, "", 0)
	f.Add([]byte(`{"hook_event_name":"PostToolUse","tool_name":"write_file","tool_input":{"file_path":"/a","content":"c"}}`),
		`{"decision":"block","reason":"r"}`, `{"agc":"0.1"}`, 2)
	f.Add([]byte(`{`), `{"continue":false}`, "x", 1)
	f.Fuzz(func(t *testing.T, stdin []byte, stdout, stderr string, exit int) {
		c, _ := Binding{}.HookInput(stdin)
		Binding{}.ToolCall(c.Tool, c.Input)
		a := gates.HookAnswer{Event: c.Event, Tool: c.Tool, ToolInput: c.Input, Hook: "h", HasExit: true, ExitCode: exit,
			HasStdout: true, Stdout: stdout, HasStderr: true, Stderr: stderr}
		for _, b := range (Binding{}).CheckHook(a).Breaches {
			if b.Message == "" || !gates.HoldsFor(Binding{})(b.Check) {
				t.Errorf("breach %+v", b)
			}
		}
	})
}
