package qwen

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Qwen binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckRepairNotApplied = "agc/qwen-repair-not-applied"
	CheckPreToolSteer     = "agc/qwen-steer-from-pre-tool-use"
	CheckDenyDropsContext = "agc/qwen-deny-drops-context"
	CheckExit2JSON        = "agc/qwen-exit-2-json-answer"
	CheckAskDenies        = "agc/qwen-ask-denies-headless"
	CheckPostBlockIgnored = "agc/qwen-post-block-ignored"
)

// rows are the binding's own checks, in the order the README lists them after the shared ones.
var rows = gates.Rows{
	{ID: CheckRepairNotApplied, Name: "QwenRepairNotApplied", Binding: "qwen-code", Level: "error",
		Short:    "A Qwen Code PreToolUse hook repaired a call with `updatedInput`, which Qwen Code never applies.",
		Full:     "Qwen Code 0.24.4 reads only the decision, its reason and `additionalContext` of a PreToolUse answer: `updatedInput` is dropped in every approval mode, with `allow`, `ask` or no decision, so the original call ran unrepaired (or, with `ask` in a headless run, was denied).",
		Fix:      "Block the call (`permissionDecision: \"deny\"` with the AGC text form as the reason) and let the model make the corrected call; a repair needs a runtime that applies `updatedInput`.",
		SpecNote: "Observed with Qwen Code 0.24.4 (testdata/qwen, every approval mode): updatedInput is never applied."},
	{ID: CheckPreToolSteer, Name: "QwenSteerFromPreToolUse", Binding: "qwen-code", Level: "error",
		Short:    "A Qwen Code PreToolUse hook steered through `additionalContext`, which Qwen Code drops.",
		Full:     "Qwen Code 0.24.4 does not pass a PreToolUse hook's `hookSpecificOutput.additionalContext` to the model: the call ran and the steer never reached it.",
		Fix:      "Steer from a PostToolUse hook, whose `additionalContext` Qwen Code appends to the tool's result.",
		SpecNote: "Observed with Qwen Code 0.24.4 (testdata/qwen): PreToolUse additionalContext never reaches the model."},
	{ID: CheckDenyDropsContext, Name: "QwenDenyDropsContext", Binding: "qwen-code", Level: "warning",
		Short:    "A Qwen Code deny carried its AGC response only in `additionalContext`, which Qwen Code drops on a deny.",
		Full:     "On `permissionDecision: \"deny\"` the model gets exactly `permissionDecisionReason`; the AGC response in `additionalContext` never reached it, so the agent cannot tell which gate and rule blocked it.",
		Fix:      "Put the AGC text form (`AGC block: <gate>/<rule>/<target> — …`) in `permissionDecisionReason`.",
		SpecNote: "Observed with Qwen Code 0.24.4 (testdata/qwen): a deny's additionalContext is dropped."},
	{ID: CheckExit2JSON, Name: "QwenExit2JSONAnswer", Binding: "qwen-code", Level: "error",
		Short:    "A Qwen Code hook exited 2 with JSON on stderr, which Qwen Code reads as its answer: the call ran.",
		Full:     "On exit 2 Qwen Code 0.24.4 parses a JSON stderr as the hook's answer; a body without a deny (an AGC response, say) lets the call run, so a block ran and a repair ran unrepaired.",
		Fix:      "Block with `permissionDecision: \"deny\"` on stdout and exit 0, or put plain text (the AGC text form) on stderr with exit 2.",
		SpecNote: "Observed with Qwen Code 0.24.4 (testdata/qwen): exit 2 with a JSON stderr is read as the answer."},
	{ID: CheckAskDenies, Name: "QwenAskDeniesHeadless", Binding: "qwen-code", Level: "error",
		Short:    "A Qwen Code hook answered `permissionDecision: \"ask\"`, which a headless run turns into a deny.",
		Full:     "Nobody can answer the question in a headless run, so Qwen Code 0.24.4 denies the call: heavier than a verdict that meant to let it run.",
		Fix:      "Answer `deny` with the AGC text form as the reason when the call must stop, or let it run; ask only in interactive sessions.",
		SpecNote: "Observed with Qwen Code 0.24.4 (testdata/qwen, every approval mode): a headless ask is a deny."},
	{ID: CheckPostBlockIgnored, Name: "QwenPostToolUseBlockIgnored", Binding: "qwen-code", Level: "error",
		Short:    "A Qwen Code PostToolUse hook blocked with `decision: \"block\"` or exit 2, which Qwen Code ignores.",
		Full:     "Qwen Code 0.24.4 drops a PostToolUse `decision: \"block\"` with its reason, and exit 2 with its stderr: the tool's result reached the model unchanged. Only `continue: false` with a `stopReason` replaces it.",
		Fix:      "Send `\"continue\": false` with the AGC text form as `stopReason`.",
		SpecNote: "Observed with Qwen Code 0.24.4 (testdata/qwen): only continue: false stops a PostToolUse result."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
