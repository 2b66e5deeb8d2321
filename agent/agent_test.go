package agent

import (
	"encoding/json"
	"testing"
)

func TestDetectEnv(t *testing.T) {
	claude := json.RawMessage(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`)
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		input  json.RawMessage
		getenv func(string) string
		want   string
	}{
		{claude, nil, ClaudeCode},
		{claude, env(), ClaudeCode},
		{claude, env("FACTORY_PROJECT_DIR", "/p", "CLAUDE_PROJECT_DIR", "/p"), Droid},
		{claude, env("CRUSH", "1", "AGENT", "crush"), Crush},
		{claude, env("AGENT", "crush"), Crush},
		// The input wins: a Codex hook run from inside a Droid session is Codex's.
		{json.RawMessage(`{"session_id":"s","turn_id":"u","hook_event_name":"PreToolUse"}`), env("FACTORY_PROJECT_DIR", "/p"), Codex},
	}
	for _, tc := range tests {
		if got := DetectEnv(tc.input, tc.getenv); got != tc.want {
			t.Errorf("DetectEnv(%s) = %q, want %q", tc.input, got, tc.want)
		}
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{`{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"tool_use_id":"t"}`, ClaudeCode},
		{`{"session_id":"s","turn_id":"u","hook_event_name":"PreToolUse","model":"m","tool_name":"Bash"}`, Codex},
		{`{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"x"}`, Gemini},
		{`{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{}"}`, Copilot},
		{`{"hook_event_name":"beforeShellExecution","conversation_id":"c","generation_id":"g","command":"ls"}`, Cursor},
		{`{"cursor_version":"1.7","hook_event_name":"preToolUse"}`, Cursor},
		{`{"clineVersion":"3","hookName":"PreToolUse","taskId":"t"}`, Cline},
		{`{"agent_action_name":"pre_run_command","trajectory_id":"t","tool_info":{}}`, Windsurf},
		{`{"session_id":"s","transcript_path":"/h/.qwen/projects/p/chats/s.jsonl","hook_event_name":"PreToolUse","prompt_id":"s########0","tool_name":"run_shell_command","tool_input":{},"tool_use_id":"toolu_1","tool_call_id":"call_1_0"}`, Qwen},
		{`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_call_id":"call_1_0"}`, Qwen},
		{`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt_id":"s########0"}`, Qwen},
		{`{"session_id":"s","transcript_path":"C:\\u\\.qwen\\projects\\p\\chats\\s.jsonl","hook_event_name":"Stop"}`, Qwen},
		{`{"session_id":"ses_1","cwd":"/p","hook_event_name":"PreToolUse","plugin_hook":"tool.execute.before","plugin_host":"opencode","tool_name":"bash","tool_use_id":"call_1_0","tool_input":{"command":"ls"}}`, OpenCode},
		{`{"session_id":"ses_1","cwd":"/p","hook_event_name":"PreToolUse","plugin_hook":"tool.execute.before","tool_name":"bash","tool_use_id":"call_1_0","tool_input":{"command":"ls"}}`, OpenCode},
		{`{"session_id":"ses_1","cwd":"/p","hook_event_name":"PostToolUse","plugin_hook":"tool.execute.after","plugin_host":"kilo","tool_name":"bash","tool_use_id":"call_1_0","tool_input":{"command":"ls"},"tool_response":"x"}`, Kilo},
		{`{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","hook_event_name":"Stop"}`, ClaudeCode},
		// Claude Code 2.1 sends a prompt_id as well, a bare UUID (a real PreToolUse input of 2.1.332).
		{`{"cwd":"/w","effort":"medium","hook_event_name":"PreToolUse","permission_mode":"default","prompt_id":"1e59c977-d691-4d40-b6dc-aed8fc16abb0","session_id":"8b201d7c-9f26-476e-8eb8-42d6f8f1c578","tool_input":{"command":"ls"},"tool_name":"Bash","tool_use_id":"toolu_1","transcript_path":"/h/.claude/projects/p/s.jsonl"}`, ClaudeCode},
		// Factory Droid 0.225.2 (testdata/droid/run/hook-log.jsonl): Claude Code's fields, no call id.
		{`{"session_id":"s","transcript_path":"/h/.factory/sessions/-tmp-p/s.jsonl","cwd":"/p","permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls"}}`, Droid},
		{`{"session_id":"s","permission_mode":"auto-low","hook_event_name":"SessionStart","source":"startup"}`, Droid},
		// Crush 0.90.0 (testdata/crush): "event", not hook_event_name.
		{`{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls"}}`, Crush},
		{`{"transcript_path":42,"hook_event_name":"Stop"}`, ClaudeCode},
		{`"not an object"`, ClaudeCode},
		{`[1,2]`, ClaudeCode},
		{`{"hook_event_name":42}`, ClaudeCode},
		{``, ClaudeCode},
	}
	for _, tc := range tests {
		if got := Detect(json.RawMessage(tc.input)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", tc.input, got, tc.want)
		}
	}
}
