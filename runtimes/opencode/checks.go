package opencode

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the binding's own checks. Keep them stable: they are SARIF rule ids, and alerts
// are keyed on them.
const (
	CheckPluginFailedClosed     = "agc/opencode-plugin-failed-closed"
	CheckKiloPluginFailedClosed = "agc/kilo-plugin-failed-closed"
)

// failedClosed is the row of a plugin's crash, for the runtime named.
func failedClosed(id, name, runtime, evidence string) gates.Check {
	return gates.Check{ID: id, Name: name, Binding: runtime, Level: "warning",
		Short:    "A plugin crashed in `tool.execute.before`, and the runtime failed closed: the call did not run.",
		Full:     "OpenCode 1.18.33 and Kilo Code 7.7.7 (its fork) treat an exception in a plugin hook as a refusal: the call does not run and the model gets the JavaScript error's message, so the agent is stopped by a bug rather than a gate's decision, and is told nothing useful.",
		Fix:      "Fix the crash named in the message; let a guard plugin throw only the AGC text form (`AGC block: <gate>/<rule>/<target> — …`) on purpose.",
		SpecNote: "Observed with the real runtime (" + evidence + "): a plugin's crash fails closed."}
}

// Rows are the binding's own checks.
func (b Binding) Rows() gates.Rows {
	if b.Kilo {
		return gates.Rows{failedClosed(CheckKiloPluginFailedClosed, "KiloPluginFailedClosed", "kilo-code", "testdata/kilo")}
	}
	return gates.Rows{failedClosed(CheckPluginFailedClosed, "OpenCodePluginFailedClosed", "opencode", "testdata/opencode")}
}
