package cline

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Cline binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckExitIgnored        = "agc/cline-exit-status-ignored"
	CheckCancelDropsContext = "agc/cline-cancel-drops-context"
)

// rows are the binding's own checks.
var rows = gates.Rows{
	{ID: CheckExitIgnored, Name: "ClineExitStatusIgnored", Binding: "cline", Level: "error",
		Short:    "A Cline hook blocked by exit 2, which Cline ignores: the call ran.",
		Full:     "Cline 3.0.65 reads only a hook's stdout; the exit status and stderr are never read, so an exit-2 block (with the AGC text form on stderr, the form other runtimes read) let the call run unguarded.",
		Fix:      "Print `{\"cancel\": true, \"errorMessage\": \"AGC block: <gate>/<rule>/<target> — …\"}` on stdout to stop the call (Cline then ends the run), or steer with `contextModification`.",
		SpecNote: "Observed with Cline CLI 3.0.65 (testdata/cline): exit codes are ignored."},
	{ID: CheckCancelDropsContext, Name: "ClineCancelDropsContext", Binding: "cline", Level: "warning",
		Short:    "A Cline hook cancelled a call with a `contextModification`, which Cline drops on a cancel.",
		Full:     "On `cancel: true` Cline 3.0.65 does not run the call and ends the whole run (exit 0): the model gets no tool result and no turn, the context is dropped, and the `errorMessage` is written only to cline.log. An AGC response carried only in the context is lost.",
		Fix:      "Put the AGC text form (`AGC block: <gate>/<rule>/<target> — …`) in `errorMessage`, where the records keep it.",
		SpecNote: "Observed with Cline CLI 3.0.65 (testdata/cline): a cancel drops contextModification."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
