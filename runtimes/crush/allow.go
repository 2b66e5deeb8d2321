package crush

import (
	"github.com/agc-sarif/agc-sarif/gates"
)

// Allow: none. Crush's permissions.allowed_tools names whole tools ("bash"), wider than these
// calls, and was not verified with its real build.
func (Binding) Allow(gates.AllowCall) gates.Allowlist {
	return gates.Allowlist{In: "none: " + name + "'s permissions.allowed_tools names whole tools, wider than these calls"}
}

// RepairAnswer: Crush's envelope with updated_input (merged into the input) and the AGC response
// as its context, which reaches the model beside the rewritten call's output.
func (Binding) RepairAnswer(r gates.Rewrite) string {
	return gates.JSONLine(map[string]any{"updated_input": map[string]string{"command": r.Command}, "context": r.Context})
}
