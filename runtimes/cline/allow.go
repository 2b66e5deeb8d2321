package cline

import "github.com/agc-sarif/agc-sarif/gates"

// Allow: none. Cline's headless run approves every tool (--auto-approve defaults to true) and the
// replays showed no per-command allowlist a hook's denial could be lifted by.
func (Binding) Allow(gates.AllowCall) gates.Allowlist {
	return gates.Allowlist{In: "none: " + name + " auto-approves tools headless and has no per-command allowlist that was verified"}
}

// RepairAnswer is the answer that makes Cline run r.Command instead of the shell call: an
// overrideInput with the new command list, and the AGC response as contextModification.
func (Binding) RepairAnswer(r gates.Rewrite) string {
	return gates.JSONLine(map[string]any{"overrideInput": map[string]any{"commands": []string{r.Command}}, "contextModification": r.Context})
}
