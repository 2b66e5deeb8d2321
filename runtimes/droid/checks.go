package droid

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Droid binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckDecisionBlockIgnored = "agc/droid-decision-block-ignored"
	CheckPreToolSteer         = "agc/droid-steer-from-pre-tool-use"
	CheckDenyDropsContext     = "agc/droid-deny-drops-context"
	CheckAskNotAsked          = "agc/droid-ask-not-asked"
	CheckPostBlockIgnored     = "agc/droid-post-block-ignored"
)

// rows are the binding's own checks.
var rows = gates.Rows{
	{ID: CheckDecisionBlockIgnored, Name: "DroidDecisionBlockIgnored", Binding: "factory-droid", Level: "error",
		Short:    "A Factory Droid PreToolUse hook blocked with a top-level `decision: \"block\"`, which Droid ignores: the call ran.",
		Full:     "Factory Droid 0.225.2 reads a PreToolUse answer's `hookSpecificOutput` only: the old top-level `decision` and `reason` are dropped, so the call the gate meant to block ran as the model asked.",
		Fix:      "Block with `hookSpecificOutput.permissionDecision: \"deny\"` and the AGC text form as `permissionDecisionReason`, or exit 2 with it on stderr.",
		SpecNote: "Observed with Factory Droid 0.225.2 (testdata/droid/run): a top-level decision \"block\" lets the call run."},
	{ID: CheckPreToolSteer, Name: "DroidSteerFromPreToolUse", Binding: "factory-droid", Level: "error",
		Short:    "A Factory Droid PreToolUse hook steered through `additionalContext`, which Droid drops.",
		Full:     "Factory Droid 0.225.2 never passes a PreToolUse hook's `additionalContext` to the model: the call ran and the steer never reached it.",
		Fix:      "Steer from a PostToolUse hook, whose `additionalContext` Droid adds as a user message after the tool's result.",
		SpecNote: "Observed with Factory Droid 0.225.2 (testdata/droid/run): PreToolUse additionalContext never reaches the model."},
	{ID: CheckDenyDropsContext, Name: "DroidDenyDropsContext", Binding: "factory-droid", Level: "warning",
		Short:    "A Factory Droid deny carried its AGC response only in `additionalContext`, which Droid drops.",
		Full:     "On `permissionDecision: \"deny\"` the model gets `Error: <permissionDecisionReason>`; the AGC response in `additionalContext` never reached it, so the agent cannot tell which gate and rule blocked it.",
		Fix:      "Put the AGC text form (`AGC block: <gate>/<rule>/<target> — …`) in `permissionDecisionReason`.",
		SpecNote: "Observed with Factory Droid 0.225.2 (../shared/runtimes/droid): a deny's additionalContext is dropped."},
	{ID: CheckAskNotAsked, Name: "DroidAskNotAsked", Binding: "factory-droid", Level: "warning",
		Short:    "A Factory Droid hook answered `permissionDecision: \"ask\"`, which an exec run never asks: the call ran.",
		Full:     "In `droid exec` nobody is asked: Droid's autonomy level (`--auto`) decides, and at the level the run had the call ran as if the hook had said nothing.",
		Fix:      "Answer `deny` with the AGC text form as the reason when the call must stop; ask only in interactive sessions.",
		SpecNote: "Observed with Factory Droid 0.225.2 (testdata/droid/run, --auto high): an ask let the call run."},
	{ID: CheckPostBlockIgnored, Name: "DroidPostToolUseBlockIgnored", Binding: "factory-droid", Level: "error",
		Short:    "A Factory Droid PostToolUse hook blocked with `decision: \"block\"`, which Droid ignores with its reason.",
		Full:     "Factory Droid 0.225.2 drops a PostToolUse `decision: \"block\"` and its `reason`: the tool's result reached the model unchanged. Only an `additionalContext` beside it is delivered, as a user message.",
		Fix:      "Put the AGC response in `additionalContext`; to stop the session, answer `\"continue\": false` with the AGC text form as `stopReason`.",
		SpecNote: "Observed with Factory Droid 0.225.2 (testdata/droid/run): a PostToolUse decision \"block\" changes nothing."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
