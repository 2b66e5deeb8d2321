package record

import (
	"encoding/json"
	"testing"
)

func TestDetectRuntime(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"tool_use_id":"t"}`, RuntimeClaudeCode},
		{`{"session_id":"s","turn_id":"u","hook_event_name":"PreToolUse","model":"m","tool_name":"Bash"}`, RuntimeCodex},
		{`{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"x"}`, RuntimeGemini},
		{`{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{}"}`, RuntimeCopilot},
		{`{"hook_event_name":"beforeShellExecution","conversation_id":"c","generation_id":"g","command":"ls"}`, RuntimeCursor},
		{`{"cursor_version":"1.7","hook_event_name":"preToolUse"}`, RuntimeCursor},
		{`{"clineVersion":"3","hookName":"PreToolUse","taskId":"t"}`, RuntimeCline},
		{`{"agent_action_name":"pre_run_command","trajectory_id":"t","tool_info":{}}`, RuntimeWindsurf},
		{`"not an object"`, RuntimeClaudeCode},
		{`[1,2]`, RuntimeClaudeCode},
		{`{"hook_event_name":42}`, RuntimeClaudeCode},
		{``, RuntimeClaudeCode},
	}
	for _, tc := range tests {
		if got := DetectRuntime(json.RawMessage(tc.input)); got != tc.want {
			t.Errorf("DetectRuntime(%s) = %q, want %q", tc.input, got, tc.want)
		}
	}
}

func TestInputValue(t *testing.T) {
	tests := []struct {
		stdin   string
		want    string
		wantEnc string
	}{
		{`{"a": 1}` + "\n", `{"a": 1}` + "\n", ""}, // compacted when the record is encoded
		{"plain text", `"plain text"`, ""},
		{"", `""`, ""},
		{`{"cut": "sh`, `"{\"cut\": \"sh"`, ""},
		{"\"\xff\"", `"Iv8i"`, "base64"}, // JSON syntax but not UTF-8
	}
	for _, tc := range tests {
		got, enc := inputValue([]byte(tc.stdin), false)
		if string(got) != tc.want || enc != tc.wantEnc {
			t.Errorf("inputValue(%q) = %s, %q; want %s, %q", tc.stdin, got, enc, tc.want, tc.wantEnc)
		}
	}
}
