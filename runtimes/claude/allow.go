package claude

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Allow: the rule itself goes in permissions.allow, for shell commands and files alike, unless it
// would name a path outside the repository.
func (Binding) Allow(c gates.AllowCall) gates.Allowlist {
	if strings.Contains(c.Rule, "<") {
		return gates.Allowlist{In: "none: the rule would name a path outside the repository"}
	}
	return gates.Allowlist{Entry: c.Rule, In: "permissions.allow in .claude/settings.json"}
}

// RepairAnswer: a PreToolUse hookSpecificOutput whose updatedInput replaces the command, with no
// decision (an "allow" would skip the permission check).
func (Binding) RepairAnswer(r gates.Rewrite) string {
	type output struct {
		HookEventName     string            `json:"hookEventName"`
		UpdatedInput      map[string]string `json:"updatedInput"`
		AdditionalContext string            `json:"additionalContext"`
	}
	return gates.JSONLine(map[string]any{"hookSpecificOutput": output{"PreToolUse", map[string]string{"command": r.Command}, r.Context}})
}
