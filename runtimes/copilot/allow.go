package copilot

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Allow: --allow-tool 'shell(program subcommand)' on each run (Copilot CLI keeps no allowlist
// file); files have none.
func (Binding) Allow(c gates.AllowCall) gates.Allowlist {
	if c.File || len(c.Prefix) == 0 {
		return gates.Allowlist{In: "none: Copilot CLI has no allowlist for files"}
	}
	return gates.Allowlist{Entry: "shell(" + strings.Join(c.Prefix, " ") + ")", In: "--allow-tool on each run (Copilot CLI keeps no allowlist file)"}
}

// RepairAnswer: top-level permissionDecision "allow" with modifiedArgs replacing the arguments
// (Copilot ignores a hookSpecificOutput).
func (Binding) RepairAnswer(r gates.Rewrite) string {
	return gates.JSONLine(struct {
		PermissionDecision string            `json:"permissionDecision"`
		ModifiedArgs       map[string]string `json:"modifiedArgs"`
		AdditionalContext  string            `json:"additionalContext"`
	}{"allow", map[string]string{"command": r.Command}, r.Context})
}
