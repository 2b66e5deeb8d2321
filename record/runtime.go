package record

import (
	"encoding/json"
)

// Runtime names for the "runtime" field.
const (
	RuntimeClaudeCode = "claude-code"
	RuntimeCodex      = "codex"
	RuntimeGemini     = "gemini-cli"
	RuntimeCopilot    = "copilot-cli"
	RuntimeCursor     = "cursor"
	RuntimeCline      = "cline"
	RuntimeWindsurf   = "windsurf"
)

// geminiEvents are Gemini CLI's hook event names; Claude Code's are PreToolUse, PostToolUse, ….
var geminiEvents = map[string]bool{
	"BeforeTool": true, "AfterTool": true, "BeforeAgent": true, "AfterAgent": true,
	"BeforeModel": true, "AfterModel": true, "BeforeToolSelection": true,
}

// DetectRuntime names the agent runtime that sent input (a hook's stdin), from fields only
// that runtime sends (research/runtimes.md §5); "claude-code" when none is recognised.
func DetectRuntime(input json.RawMessage) string {
	var f map[string]json.RawMessage
	if json.Unmarshal(input, &f) != nil {
		return RuntimeClaudeCode
	}
	has := func(k string) bool { _, ok := f[k]; return ok }
	var event string
	_ = json.Unmarshal(f["hook_event_name"], &event)
	switch {
	case has("cursor_version"), has("conversation_id") && has("generation_id"):
		return RuntimeCursor
	case has("clineVersion"):
		return RuntimeCline
	case has("trajectory_id"), has("agent_action_name"):
		return RuntimeWindsurf
	case geminiEvents[event]:
		return RuntimeGemini
	case has("turn_id"):
		return RuntimeCodex
	case has("sessionId") && has("toolName"):
		return RuntimeCopilot
	default:
		return RuntimeClaudeCode
	}
}
