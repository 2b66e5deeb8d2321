package codex

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Codex binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckRepairNoAllow = "agc/codex-repair-without-allow"
	CheckAnswerIgnored = "agc/codex-answer-ignored"
)

// rows are the binding's own checks, in the order the README lists them after the shared ones.
var rows = gates.Rows{
	{ID: CheckRepairNoAllow, Name: "CodexRepairWithoutAllow", Binding: "codex", Level: "error",
		Short:    "A Codex CLI PreToolUse repair was sent without `permissionDecision: \"allow\"`.",
		Full:     "Codex CLI applies `updatedInput` only together with `permissionDecision: \"allow\"` (the opposite of Claude Code); without it the rewrite is ignored and the original call runs.",
		Fix:      "For Codex CLI send `hookSpecificOutput.permissionDecision: \"allow\"` with `updatedInput`.",
		SpecNote: "docs/runtimes.md, Codex CLI: a repair must be sent with permissionDecision allow."},
	{ID: CheckAnswerIgnored, Name: "CodexAnswerIgnored", Binding: "codex", Level: "error",
		Short:    "A Codex CLI hook answered with a field Codex ignores (`ask`, `continue: false`), so it failed open.",
		Full:     "Codex CLI does not support `permissionDecision: \"ask\"` or `continue: false` in PreToolUse; it ignores the answer and runs the call unguarded.",
		Fix:      "Send `permissionDecision: \"deny\"` with a reason to stop the call, or no decision to let it run.",
		SpecNote: "docs/runtimes.md, Codex CLI: ask and continue:false are ignored (the call runs unguarded)."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
