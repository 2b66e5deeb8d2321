package gemini

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Allow: run_shell_command with the command's program and subcommand in tools.allowed, which
// names whole tools otherwise: files have none.
func (Binding) Allow(c gates.AllowCall) gates.Allowlist {
	if c.File || len(c.Prefix) == 0 {
		return gates.Allowlist{In: "none: Gemini CLI's tools.allowed names whole tools, not files"}
	}
	return gates.Allowlist{Entry: "run_shell_command(" + strings.Join(c.Prefix, " ") + ")", In: "tools.allowed in .gemini/settings.json"}
}

// RepairAnswer: decision "allow" and a BeforeTool hookSpecificOutput whose tool_input replaces
// the arguments.
func (Binding) RepairAnswer(r gates.Rewrite) string {
	type output struct {
		HookEventName     string            `json:"hookEventName"`
		ToolInput         map[string]string `json:"tool_input"`
		AdditionalContext string            `json:"additionalContext"`
	}
	return gates.JSONLine(struct {
		Decision           string `json:"decision"`
		HookSpecificOutput output `json:"hookSpecificOutput"`
	}{"allow", output{"BeforeTool", map[string]string{"command": r.Command}, r.Context}})
}
