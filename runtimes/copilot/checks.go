package copilot

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Copilot binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckAnswerIgnored = "agc/copilot-answer-ignored"
	CheckExit2Reason   = "agc/copilot-exit-2-loses-reason"
	CheckFailedClosed  = "agc/copilot-hook-failed-closed"
)

// rows are the binding's own checks, in the order the README lists them after the shared ones.
var rows = gates.Rows{
	{ID: CheckAnswerIgnored, Name: "CopilotAnswerIgnored", Binding: "copilot-cli", Level: "error",
		Short:    "A Copilot CLI hook answered with Claude Code's `hookSpecificOutput`, which Copilot ignores.",
		Full:     "Copilot CLI reads `permissionDecision`, `permissionDecisionReason`, `modifiedArgs` and `additionalContext` at the top level of the answer; a Claude-style `hookSpecificOutput` is ignored and the call runs unguarded.",
		Fix:      "For Copilot CLI put the fields at the top level: `{\"permissionDecision\": \"deny\", \"permissionDecisionReason\": …}`.",
		SpecNote: "docs/runtimes.md, GitHub Copilot CLI: camelCase, top-level fields."},
	{ID: CheckExit2Reason, Name: "CopilotExit2LosesReason", Binding: "copilot-cli", Level: "warning",
		Short:    "A Copilot CLI hook blocked by exit 2, whose stderr Copilot drops.",
		Full:     "Copilot CLI blocks on exit 2 but tells the model only `hook exited with code 2`: the gate's reason and AGC response never reach it.",
		Fix:      "Exit 0 with `permissionDecision: \"deny\"` and a `permissionDecisionReason` that starts `AGC block: <gate>/<rule>/<target> — `.",
		SpecNote: "docs/runtimes.md, GitHub Copilot CLI: exit 2 blocks but loses stderr (breach: the reason never reaches the model)."},
	{ID: CheckFailedClosed, Name: "CopilotHookFailedClosed", Binding: "copilot-cli", Level: "warning",
		Short:    "A Copilot CLI hook crashed, and Copilot denied the call with `(hook errored)`.",
		Full:     "Copilot CLI fails closed: a hook that exits with an error blocks the call, so the agent is stopped by a bug rather than a gate's decision, and is told nothing useful.",
		Fix:      "Make the hook exit 0 on every path and answer with a decision; fix the crash named in its stderr.",
		SpecNote: "docs/runtimes.md, GitHub Copilot CLI: a crash fails closed (deny (hook errored))."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
