package claude

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/inputs"
)

func TestParseRefusal(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want refusal
	}{
		{"PreToolUse:Bash hook error: [\"$CLAUDE_PROJECT_DIR\"/g.py]: inputs.AGC block: a/b — no\n", true,
			refusal{Event: "PreToolUse", Tool: "Bash", Text: "[\"$CLAUDE_PROJECT_DIR\"/g.py]: inputs.AGC block: a/b — no\n", Command: "\"$CLAUDE_PROJECT_DIR\"/g.py"}},
		{"PreToolUse:Write hook error: denied by ws", true,
			refusal{Event: "PreToolUse", Tool: "Write", Text: "denied by ws"}},
		{"PreToolUse:mcp__github__push hook error: [x]: No stderr output", true,
			refusal{Event: "PreToolUse", Tool: "mcp__github__push", Text: "[x]: No stderr output", Command: "x"}},
		{"PreToolUse:Bash hook error: [policy]\nmulti", true,
			refusal{Event: "PreToolUse", Tool: "Bash", Text: "[policy]\nmulti"}},
		{"Error: file not found", false, refusal{}},
		{"some text PreToolUse:Bash hook error: x", false, refusal{}},
		{" hook error: x", false, refusal{}},
	}
	for _, tc := range tests {
		got, ok := parseRefusal(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseRefusal(%q) = %+v %v, want %+v %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSplitHookName(t *testing.T) {
	tests := []struct{ name, event, wantEvent, wantTool string }{
		{"PreToolUse:Bash", "PreToolUse", "PreToolUse", "Bash"},
		{"PostToolUse:Edit", "", "PostToolUse", "Edit"},
		{"SessionStart:startup", "SessionStart", "SessionStart", ""},
		{"Stop", "Stop", "Stop", ""},
		{"", "PreToolUse", "PreToolUse", ""},
	}
	for _, tc := range tests {
		e, tool := splitHookName(tc.name, tc.event)
		if e != tc.wantEvent || tool != tc.wantTool {
			t.Errorf("splitHookName(%q, %q) = %q %q", tc.name, tc.event, e, tool)
		}
	}
}

func TestReadStdout(t *testing.T) {
	tests := []struct {
		in   string
		want stdoutAnswer
	}{
		{`{"hookSpecificOutput":{"permissionDecision":"deny","additionalContext":"ctx"}}`, stdoutAnswer{Context: "ctx", Denies: true}},
		{` {"decision":"block","reason":"r"}` + "\n", stdoutAnswer{Denies: true}},
		{`{"hookSpecificOutput":{"permissionDecision":"allow"}}`, stdoutAnswer{}},
		{`{"hookSpecificOutput":{"additionalContext":7}}`, stdoutAnswer{}},
		{`plain text`, stdoutAnswer{}},
		{`{broken`, stdoutAnswer{}},
	}
	for _, tc := range tests {
		if got := readStdout(tc.in); got != tc.want {
			t.Errorf("readStdout(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestRejectedAnswer(t *testing.T) {
	out, ok := rejectedAnswer("Failed to run: Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'. Full stdout: {\n \"a\": 1\n}")
	if !ok || out != "{\n \"a\": 1\n}" {
		t.Errorf("rejectedAnswer = %q %v", out, ok)
	}
	for _, s := range []string{"Traceback: boom", "Failed to run: JSON validation failed. Full stdout: {}", "Failed to run: Hook returned incorrect event name"} {
		if _, ok := rejectedAnswer(s); ok {
			t.Errorf("rejectedAnswer(%q) reported ok", s)
		}
	}
}

func TestToolResults(t *testing.T) {
	msg := `{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"a","content":"big output","is_error":false},` +
		`{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"one"},{"type":"image"},{"type":"text","text":"two"}],"is_error":true},` +
		`{"type":"text","text":"not a result"}]}`
	got, marked := toolResults([]byte(msg))
	want := []toolResult{{ID: "a"}, {ID: "b", IsError: true, Text: "one\ntwo"}}
	if fmt.Sprint(got) != fmt.Sprint(want) || !marked {
		t.Errorf("toolResults = %+v, %v, want %+v, true", got, marked, want)
	}
	if got, marked := toolResults([]byte(`{"role":"user","content":"plain prompt"}`)); len(got) != 0 || marked {
		t.Errorf("a plain prompt gave results %+v, %v", got, marked)
	}
	// A type written with an escape is a tool_result all the same, but not the raw marker.
	got, marked = toolResults([]byte(`{"content":[{"type":"tool\u005fresult","tool_use_id":"c"}]}`))
	if len(got) != 1 || got[0].ID != "c" || marked {
		t.Errorf("escaped type gave %+v, marked %v; want one result, not marked", got, marked)
	}
}

func TestCallTable(t *testing.T) {
	ct := newCallTable()
	ct.add("1", "Bash", []byte(`{"command":"git push"}`))
	ct.add("2", "Edit", []byte(`{"file_path":"/r/a.go","old_string":"x"}`))
	ct.add("3", "Write", []byte(`{"file_path":"/r/big","content":"`+strings.Repeat("x", inputs.MaxCallInput)+`"}`))
	ct.add("1", "Read", nil) // a repeated id keeps the first
	if c := ct.get("1"); c == nil || c.Name != "Bash" || c.Command != "git push" || c.Input == nil {
		t.Errorf("call 1 = %+v", c)
	}
	if c := ct.get("2"); c == nil || c.FilePath != "/r/a.go" {
		t.Errorf("call 2 = %+v", c)
	}
	if c := ct.get("3"); c == nil || c.FilePath != "/r/big" || c.Input != nil {
		t.Errorf("call 3 keeps a raw input over %d bytes: %d", inputs.MaxCallInput, len(c.Input))
	}
	// claim: oldest pending call of the tool without a hook of this event.
	ct.add("4", "Bash", []byte(`{"command":"ls"}`))
	if c := ct.claim("PreToolUse", "Bash"); c == nil || c.ID != "1" {
		t.Fatalf("first claim = %+v", c)
	} else {
		c.mark("PreToolUse")
	}
	if c := ct.claim("PreToolUse", "Bash"); c == nil || c.ID != "4" {
		t.Errorf("second claim = %+v", c)
	}
	ct.finish("4")
	if c := ct.claim("PreToolUse", "Bash"); c == nil || c.ID != "1" {
		t.Errorf("claim after 4 finished = %+v", c)
	}
	for i := 0; i < inputs.MaxCalls+10; i++ {
		ct.add(fmt.Sprint("x", i), "Read", []byte(`{"file_path":"f"}`))
	}
	if len(ct.byID) > inputs.MaxCalls || ct.get("1") != nil {
		t.Errorf("call table holds %d calls (max %d); oldest kept: %v", len(ct.byID), inputs.MaxCalls, ct.get("1") != nil)
	}
}
