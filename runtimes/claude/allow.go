package claude

import (
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/runtimes/claude/permissions"
)

// Allow: the rule itself goes in permissions.allow, for shell commands and files alike, unless it
// would name a path outside the repository.
func (Binding) Allow(c gates.AllowCall) gates.Allowlist {
	if strings.Contains(c.Rule, "<") {
		return gates.Allowlist{In: "none: the rule would name a path outside the repository"}
	}
	a := gates.Allowlist{Entry: c.Rule, In: "permissions.allow in .claude/settings.json"}
	if len(c.Calls) > 0 {
		calls := make([]permissions.Call, len(c.Calls))
		for i, hc := range c.Calls {
			calls[i] = permissions.Call{Tool: hc.Tool, Input: hc.Input, Cwd: hc.Cwd}
		}
		n, miss := permissions.Covers(c.Rule, calls)
		a.Checked = fmt.Sprintf("Claude Code %s's matching lets %d of %d calls run with it", permissions.Verified, n, len(calls))
		if miss != "" {
			a.Checked += "; " + miss
		}
	}
	return a
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
