package droid

import "github.com/agc-sarif/agc-sarif/gates"

// Allow: none. Droid's own command allowlist (commandAllowlist in ~/.factory/settings.json) was not
// exercised by the replays, so no entry is suggested in its syntax.
func (Binding) Allow(gates.AllowCall) gates.Allowlist {
	return gates.Allowlist{In: "none: " + name + "'s command allowlist was not verified with its real build"}
}

// RepairAnswer: a PreToolUse hookSpecificOutput whose updatedInput replaces the command, with no
// decision (Droid merges it into the input and runs it; "allow" would skip its permission check).
func (Binding) RepairAnswer(r gates.Rewrite) string {
	type output struct {
		HookEventName     string            `json:"hookEventName"`
		UpdatedInput      map[string]string `json:"updatedInput"`
		AdditionalContext string            `json:"additionalContext"`
	}
	return gates.JSONLine(map[string]any{"hookSpecificOutput": output{"PreToolUse", map[string]string{"command": r.Command}, r.Context}})
}
