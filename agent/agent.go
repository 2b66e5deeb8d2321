// Package agent names the agent runtimes: their ids, as the recorder's log and findings spell
// them, and which runtime sent a hook's stdin. It imports nothing of this module, so that the
// recorder and the runtime bindings share it without linking each other.
package agent

import (
	"encoding/json"
	"strings"
)

// Runtime ids, as the "runtime" field of the recorder's log and findings spell them.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	Gemini     = "gemini-cli"
	Copilot    = "copilot-cli"
	Qwen       = "qwen-code"
	Droid      = "factory-droid"
	Crush      = "crush"
	Cursor     = "cursor"
	Cline      = "cline"
	Windsurf   = "windsurf"
	OpenCode   = "opencode"
	Kilo       = "kilo-code"
)

// Fallback is the runtime Detect names when nothing in a hook's input tells which one sent it.
const Fallback = ClaudeCode

// ProjectDirVars are the environment variables in which the runtimes name the project folder a
// hook runs for, in the order they are looked up: Claude Code's (Qwen Code sets it too), Gemini
// CLI's (Qwen Code too), Qwen Code's, then those the OpenCode plugin (plugins/opencode) sets.
func ProjectDirVars() []string {
	return []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "QWEN_PROJECT_DIR", "OPENCODE_PROJECT_DIR", "KILO_PROJECT_DIR"}
}

// ProjectDirNames is ProjectDirVars as a usage text says them: "$A, $B or $C".
func ProjectDirNames() string {
	v := ProjectDirVars()
	return "$" + strings.Join(v[:len(v)-1], ", $") + " or $" + v[len(v)-1]
}

// WorktreeDir is where Claude Code keeps the work trees of its sub-agents inside a project
// (WorktreeDir + "<name>/…"): a path recorded inside one names the same file of the project.
const WorktreeDir = ".claude/worktrees/"

// geminiEvents are Gemini CLI's hook event names; Claude Code's are PreToolUse, PostToolUse, ….
var geminiEvents = map[string]bool{
	"BeforeTool": true, "AfterTool": true, "BeforeAgent": true, "AfterAgent": true,
	"BeforeModel": true, "AfterModel": true, "BeforeToolSelection": true,
}

// Detect names the agent runtime that sent input (a hook's stdin), from fields only that
// runtime sends (research/runtimes.md §5); "claude-code" when none is recognised.
func Detect(input json.RawMessage) string {
	var f map[string]json.RawMessage
	if json.Unmarshal(input, &f) != nil {
		return ClaudeCode
	}
	has := func(k string) bool { _, ok := f[k]; return ok }
	var event string
	_ = json.Unmarshal(f["hook_event_name"], &event)
	switch {
	case has("cursor_version"), has("conversation_id") && has("generation_id"):
		return Cursor
	case has("clineVersion"):
		return Cline
	case has("plugin_hook"):
		return pluginHost(f["plugin_host"])
	case has("trajectory_id"), has("agent_action_name"):
		return Windsurf
	case geminiEvents[event]:
		return Gemini
	case has("tool_call_id"), qwenPromptID(f["prompt_id"]), qwenTranscript(f["transcript_path"]):
		return Qwen
	case droidInput(f):
		return Droid
	case has("event") && !has("hook_event_name") && has("tool_name"):
		return Crush
	case has("turn_id"):
		return Codex
	case has("sessionId") && has("toolName"):
		return Copilot
	default:
		return ClaudeCode
	}
}

// pluginHost names the runtime whose plugin ran a command hook (plugins/opencode/agc-hooks.js
// sends plugin_hook and plugin_host): Kilo Code when it says so, else OpenCode, whose fork Kilo is
// (the harness's bridge sends no plugin_host).
func pluginHost(host json.RawMessage) string {
	var h string
	_ = json.Unmarshal(host, &h)
	if h == "kilo" {
		return Kilo
	}
	return OpenCode
}

// DetectEnv is Detect, with the hook's environment (getenv; nil: none) naming the runtime when
// nothing in input does: Factory Droid sets FACTORY_PROJECT_DIR, Crush CRUSH=1 and AGENT=crush.
// Input that names a runtime wins, since an agent may run inside another's shell.
func DetectEnv(input json.RawMessage, getenv func(string) string) string {
	d := Detect(input)
	if d != Fallback || getenv == nil {
		return d
	}
	switch {
	case getenv("FACTORY_PROJECT_DIR") != "" || getenv("DROID_PROJECT_DIR") != "":
		return Droid
	case getenv("CRUSH") == "1" || getenv("AGENT") == "crush" || getenv("CRUSH_PROJECT_DIR") != "":
		return Crush
	}
	return d
}

// droidInput reports whether a hook's stdin is Factory Droid's: Claude Code's fields with the
// transcript under .factory/sessions/ or an autonomy level as permission_mode (auto-low, …).
func droidInput(f map[string]json.RawMessage) bool {
	var p, mode string
	_ = json.Unmarshal(f["transcript_path"], &p)
	_ = json.Unmarshal(f["permission_mode"], &mode)
	return strings.Contains(strings.ReplaceAll(p, `\`, "/"), "/.factory/sessions/") || strings.HasPrefix(mode, "auto-")
}

// qwenPromptID reports whether id is a Qwen Code prompt id, "<session>########<n>": Claude Code
// sends a prompt_id too, a bare UUID, so the field alone tells nothing.
func qwenPromptID(id json.RawMessage) bool {
	var s string
	_ = json.Unmarshal(id, &s)
	return strings.Contains(s, "########")
}

// qwenTranscript reports whether path is a Qwen Code chat transcript (under .qwen/), for input
// that lacks Qwen Code's tool_call_id and prompt_id (docs/runtimes-qwen.md).
func qwenTranscript(path json.RawMessage) bool {
	var p string
	_ = json.Unmarshal(path, &p)
	return strings.Contains(strings.ReplaceAll(p, `\`, "/"), "/.qwen/")
}
