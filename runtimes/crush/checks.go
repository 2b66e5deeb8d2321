package crush

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Crush binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckAnswerIgnored    = "agc/crush-answer-ignored"
	CheckDenyDropsContext = "agc/crush-deny-drops-context"
)

// rows are the binding's own checks.
var rows = gates.Rows{
	{ID: CheckAnswerIgnored, Name: "CrushAnswerIgnored", Binding: "crush", Level: "error",
		Short:    "A Crush hook answered a decision Crush does not read (a top-level `decision: \"block\"`, or a reason without a deny): the call ran.",
		Full:     "Crush 0.90.0 acts on its envelope's `decision` only when it is `allow` or `deny` (or on `halt`), and on a `hookSpecificOutput` answer only through its own fields: a `decision: \"block\"` or a bare `reason` changes nothing, so the call the gate meant to block ran. Its tool-result metadata still keeps the reason.",
		Fix:      "Block with `{\"decision\": \"deny\", \"reason\": \"AGC block: <gate>/<rule>/<target> — …\"}` or exit 2 with the AGC text on stderr.",
		SpecNote: "Observed with Crush 0.90.0 (testdata/crush/run): decision \"block\" lets the call run."},
	{ID: CheckDenyDropsContext, Name: "CrushDenyDropsContext", Binding: "crush", Level: "warning",
		Short:    "A Crush deny carried its AGC response only in the context, which Crush drops on a deny.",
		Full:     "On a deny or a halt the model gets `Tool call blocked by hook. Reason: <reason>`; the context never reached it, so the agent cannot tell which gate and rule blocked it.",
		Fix:      "Put the AGC text form (`AGC block: <gate>/<rule>/<target> — …`) in the reason.",
		SpecNote: "Observed with Crush 0.90.0 (../shared/runtimes/crush): a deny's context is dropped."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
