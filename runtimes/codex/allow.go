package codex

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Allow: an execpolicy prefix_rule of the command's program and subcommand; files have none.
func (Binding) Allow(c gates.AllowCall) gates.Allowlist {
	if c.File || len(c.Prefix) == 0 {
		return gates.Allowlist{In: "none: Codex has no allowlist for files (its sandbox mode decides writes)"}
	}
	return gates.Allowlist{Entry: fmt.Sprintf("prefix_rule(pattern = %s, decision = \"allow\")", quotedList(c.Prefix)),
		In: "a Codex execpolicy rules file (~/.codex/rules/*.rules)"}
}

// quotedList is a Starlark list of strings.
func quotedList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		b, _ := json.Marshal(w)
		q[i] = string(b)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// RepairAnswer: a PreToolUse hookSpecificOutput whose updatedInput replaces the command, sent
// with permissionDecision "allow" (Codex applies updatedInput only then).
func (Binding) RepairAnswer(r gates.Rewrite) string {
	type output struct {
		HookEventName      string            `json:"hookEventName"`
		PermissionDecision string            `json:"permissionDecision"`
		UpdatedInput       map[string]string `json:"updatedInput"`
		AdditionalContext  string            `json:"additionalContext"`
	}
	return gates.JSONLine(map[string]any{"hookSpecificOutput": output{"PreToolUse", "allow", map[string]string{"command": r.Command}, r.Context}})
}
