package qwen

import "github.com/agc-sarif/agc-sarif/gates"

// Allow: none. Qwen Code's permissions.allow (.qwen/settings.json) was verified only with whole
// tools (docs/runtimes-qwen.md), an entry that would allow far more than the calls did.
func (Binding) Allow(gates.AllowCall) gates.Allowlist {
	return gates.Allowlist{In: "none: " + name + "'s permissions.allow was verified only with whole tools (run_shell_command), wider than these calls"}
}

// RepairAnswer: none. Qwen Code ignores a PreToolUse updatedInput (the call runs unchanged,
// CheckRepairNotApplied), so no hook answer makes a gate run the correction.
func (Binding) RepairAnswer(gates.Rewrite) string { return "" }
