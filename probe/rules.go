package probe

import "github.com/agc-sarif/agc-sarif/gates"

// Rule ids of probe's own findings. Keep them stable: other tools and code scanning alerts are
// keyed on them.
const (
	RuleHang          = "probe/hang"
	RuleCrash         = "probe/crash"
	RuleFailsClosed   = "probe/fails-closed"
	RuleSlow          = "probe/slow"
	RuleStdoutNotJSON = "probe/stdout-not-json"
	RuleChanged       = "probe/changed"
	RuleNoAGC         = "probe/decision-without-agc"
)

// Rows are the table rows of probe's own rules, in the shape of the contract checks, so the
// SARIF rules and the fixes the report prints come from one place.
func Rows() gates.Rows {
	return gates.Rows{
		{ID: RuleHang, Name: "GuardHangs", Binding: "hook", Level: "error",
			Short:    "The guard did not finish before the timeout and was killed.",
			Full:     "A guard that can hang the tool it guards is worse than no guard: the agent is wedged mid-task. probe killed the guard's whole process group at its runtime's hook timeout (or at --timeout, when given).",
			Fix:      "Bound every read and wait (read stdin once to EOF, put timeouts on network calls and subprocesses), and exit 0 when anything is unexpected.",
			SpecNote: "Seed 003: a guard that can hang the tool it guards is worse than no guard."},
		{ID: RuleCrash, Name: "GuardCrashes", Binding: "hook", Level: "error",
			Short:    "The guard exited with a status other than 0 or 2, or printed a traceback.",
			Full:     "A crash is not a decision: most runtimes run the call unguarded, one denies it with no reason. Either way the guard did not say what it meant.",
			Fix:      "Catch every error at the top of the guard and exit 0 with no answer (fail open); keep exit 2 for a deliberate block.",
			SpecNote: "Seed 003: the guard fails open; docs/runtimes.md: a hook that crashed failed open."},
		{ID: RuleFailsClosed, Name: "GuardFailsClosed", Binding: "hook", Level: "error",
			Short:    "The guard blocked or denied a call on hostile input.",
			Full:     "On input it cannot read (empty, cut, not JSON, unknown tool or event, wrong field types) a guard must get out of the way; a block there stops the agent for no reason it can fix.",
			Fix:      "When the input does not parse or names a tool or event the guard does not know, exit 0 with no output.",
			SpecNote: "Seed 003: any parse problem, any unexpected input, and it exits 0 and gets out of the way."},
		{ID: RuleSlow, Name: "GuardSlow", Binding: "hook", Level: "warning",
			Short:    "The guard's slowest run was over the time budget.",
			Full:     "A guard runs before or after every tool call; its time is added to each. probe takes the worst of --runs runs of each event and compares it with --budget.",
			Fix:      "Do less per call: avoid starting interpreters or subprocesses you do not need, cache what does not change, return early for tools the guard does not judge.",
			SpecNote: "Issue 32: the worst of --runs runs over --budget."},
		{ID: RuleStdoutNotJSON, Name: "GuardStdoutNotJSON", Binding: "hook", Level: "error",
			Short:    "The guard exited 0 with stdout that is not one JSON answer.",
			Full:     "On exit 0 the runtime reads stdout as the hook's JSON answer; a progress line or a banner there makes the answer unreadable, so the decision is lost or shown as text.",
			Fix:      "Print only the JSON answer on stdout (or nothing); send progress and debugging lines to stderr.",
			SpecNote: "docs/runtimes.md: the answer is JSON on stdout on exit 0."},
		{ID: RuleChanged, Name: "GuardAnswerChanged", Binding: "hook", Level: "warning",
			Short:    "A recorded call gets another answer from the guard than it got when it was recorded.",
			Full:     "probe --replay re-ran the call with its recorded stdin: the verdict, the permission decision, the rewritten input or the exit status differs from the recording.",
			Fix:      "Check that the change is meant; if it is, the finding is the review of it.",
			SpecNote: "Issue 32: replay before shipping."},
		{ID: RuleNoAGC, Name: "DecisionWithoutAGC", Binding: "hook", Level: "warning",
			Short:    "The guard decided (blocked, denied, rewrote or steered) without an AGC response.",
			Full:     "The runtime enforces the decision, but no AGC response says which gate and rule acted, so reviewers and code scanning see only the hook's name.",
			Fix:      "Put the AGC JSON in the answer's additionalContext (or the reason's text form `AGC block: gate/rule — message`; for exit 2, on stderr).",
			SpecNote: "docs/contract.md: a hook decision with no AGC response."},
	}
}
