package gates

// Check describes one contract check: a way a gate can break AGC 0.1 or its binding. The SARIF
// rules, the README table and the messages of `agc-sarif check` are all made from these rows: the
// shared ones below and each binding's own (Binding.Rows), joined by the registry.
type Check struct {
	ID       string // rule id, "agc/<check>"
	Name     string // PascalCase name for SARIF reportingDescriptor.name
	Binding  string // where it applies: "any", "judgment", "PreToolUse", "PostToolUse", "hook"
	Level    string // SARIF default level: "error", "warning" or "note"
	Short    string // one sentence: what broke
	Full     string // what it means and why it matters
	Fix      string // how a gate author fixes it (Markdown)
	SpecNote string // the seed or design passage it enforces
}

// Breach is one contract finding: a response or hook answer that broke a Check.
type Breach struct {
	Check   string // Check.ID
	Message string // what is wrong, for people; names the offending value
	Pointer string // JSON pointer into the response, when it applies ("" otherwise)
	Line    int    // 1-based line inside the record or message, when known (0 otherwise)
}

// Check ids. Keep them stable: they are SARIF rule ids, and alerts are keyed on them.
const (
	CheckInvalidJSON         = "agc/invalid-json"
	CheckSchema              = "agc/schema"
	CheckUnsupportedVersion  = "agc/unsupported-version"
	CheckNewerMinorVersion   = "agc/newer-minor-version"
	CheckVerdictTooLight     = "agc/verdict-lighter-than-findings"
	CheckJudgmentNoBlock     = "agc/judgment-no-block"
	CheckJudgmentManyBlocks  = "agc/judgment-multiple-blocks"
	CheckJudgmentNotLast     = "agc/judgment-block-not-last"
	CheckJudgmentWrongKind   = "agc/judgment-wrong-kind"
	CheckJudgmentProse       = "agc/judgment-prose-disagrees"
	CheckRuntimeWrongKind    = "agc/runtime-wrong-kind"
	CheckRepairWithAllow     = "agc/repair-with-allow"
	CheckRepairByExit2       = "agc/repair-by-exit-2"
	CheckRepairNoInput       = "agc/repaired-without-updated-input"
	CheckRepairNoOutput      = "agc/repaired-without-updated-output"
	CheckBlockLetsThrough    = "agc/block-lets-call-through"
	CheckPostBlockNoDecision = "agc/post-block-without-decision"
	CheckPostNoAGC           = "agc/post-without-agc-json"
	CheckEventMismatch       = "agc/hook-event-mismatch"
	CheckHookFailedOpen      = "agc/hook-failed-open"
	CheckAnswerHeavier       = "agc/hook-answer-heavier-than-verdict"
)

var checks = Rows{
	{ID: CheckInvalidJSON, Name: "InvalidJSON", Binding: "any", Level: "error",
		Short:    "An AGC response is not valid JSON.",
		Full:     "The gate sent something that was meant to be an AGC response but does not parse as JSON, so no runtime or orchestrator can act on its verdict.",
		Fix:      "Emit the response with a JSON encoder (`jq -n`, `json.dumps`, `encoding/json`), never by pasting strings together.",
		SpecNote: "docs/runtimes.md, any binding: invalid JSON."},
	{ID: CheckSchema, Name: "SchemaViolation", Binding: "any", Level: "error",
		Short:    "An AGC response breaks the AGC 0.1 schema.",
		Full:     "A required field is missing, a value has the wrong type, or a value is outside what AGC 0.1 allows (verdict, gate kind, id pattern, severity, location lines).",
		Fix:      "Validate the gate's output against the schema printed by `agc-sarif schema` (point your editor's JSON Schema support at it).",
		SpecNote: "docs/contract.md, the response fields."},
	{ID: CheckUnsupportedVersion, Name: "UnsupportedVersion", Binding: "any", Level: "error",
		Short:    "An AGC response names a major version this tool does not read.",
		Full:     "The `agc` field is not `0.x`. A response of another major version is not read: its verdict is unknown, so the gate counts as broken.",
		Fix:      "Send `\"agc\": \"0.1\"`, or upgrade agc-sarif to a version that reads the newer contract.",
		SpecNote: "docs/contract.md: another major is a contract error, not read."},
	{ID: CheckNewerMinorVersion, Name: "OtherMinorVersion", Binding: "any", Level: "warning",
		Short:    "An AGC response names a 0.x version other than 0.1.",
		Full:     "The response was read as AGC 0.1; fields that the other minor version adds are ignored.",
		Fix:      "Send `\"agc\": \"0.1\"` until agc-sarif reads the newer minor version.",
		SpecNote: "docs/contract.md: another 0.x is read with a contract warning."},
	{ID: CheckVerdictTooLight, Name: "VerdictLighterThanFindings", Binding: "any", Level: "error",
		Short:    "A response's verdict is lighter than its heaviest finding.",
		Full:     "The ladder orders verdicts block > repaired > steer > pass, and a response must be at least as heavy as any of its findings. A runtime acting on the lighter verdict would let through what a finding blocked.",
		Fix:      "Set the response's `verdict` to the heaviest verdict among its findings.",
		SpecNote: "docs/contract.md: a response's verdict must be at least as heavy as its heaviest finding."},
	{ID: CheckJudgmentNoBlock, Name: "JudgmentWithoutAGCBlock", Binding: "judgment", Level: "error",
		Short:    "A judging agent's final message has no ```agc block.",
		Full:     "The orchestrator parses only the fenced block whose info string is `agc`. Without it the judgment has no verdict, and agc-sarif fails closed.",
		Fix:      "End the reviewer's final message with exactly one fenced block with info string `agc` holding the AGC JSON.",
		SpecNote: "Spec, Judgment agents: ends its final message with exactly one fenced block whose info string is agc."},
	{ID: CheckJudgmentManyBlocks, Name: "JudgmentWithSeveralAGCBlocks", Binding: "judgment", Level: "error",
		Short:    "A judging agent's final message has more than one ```agc block.",
		Full:     "Exactly one block is allowed, so that the verdict is not ambiguous. The last block is read; the others are ignored.",
		Fix:      "Keep one ```agc block, at the end of the message; quote examples in ```json blocks instead.",
		SpecNote: "Spec, Judgment agents: exactly one fenced block."},
	{ID: CheckJudgmentNotLast, Name: "JudgmentAGCBlockNotLast", Binding: "judgment", Level: "error",
		Short:    "The ```agc block is not the end of the judging agent's final message.",
		Full:     "Text after the block may change what the reviewer means, and orchestrators that read the tail of the message will miss the block.",
		Fix:      "Put the ```agc block last; move any closing prose above it.",
		SpecNote: "Spec, Judgment agents: ends its final message with the block."},
	{ID: CheckJudgmentWrongKind, Name: "JudgmentWrongGateKind", Binding: "judgment", Level: "error",
		Short:    "A judgment block names a gate whose kind is not `judgment`.",
		Full:     "A verdict in a judging agent's message must come from a judgment gate; a runtime gate's response in this place means the wrong thing was pasted or the gate is misconfigured.",
		Fix:      "Set `gate.kind` to `judgment` in the reviewer's ```agc block.",
		SpecNote: "docs/runtimes.md, judgment agents: gate.kind not judgment."},
	{ID: CheckJudgmentProse, Name: "JudgmentProseDisagrees", Binding: "judgment", Level: "error",
		Short:    "The prose of a judgment names another verdict than its ```agc block.",
		Full:     "The AGC specification requires the prose for people to agree with the block for machines. A line such as `Verdict: pass` above a `block` verdict misleads whoever reads only one of them.",
		Fix:      "Make the prose's verdict line match the block's `verdict`, or drop the line.",
		SpecNote: "AGC spec §12; docs/runtimes.md, judgment agents: prose that disagrees with the block."},
	{ID: CheckRuntimeWrongKind, Name: "RuntimeWrongGateKind", Binding: "hook", Level: "error",
		Short:    "A hook's AGC response names a gate whose kind is not `runtime`.",
		Full:     "Responses that travel through a tool-boundary hook come from runtime gates. A `judgment` kind here means the response was copied from a reviewer or the gate is misconfigured.",
		Fix:      "Set `gate.kind` to `runtime` in the hook's response.",
		SpecNote: "docs/contract.md: gate.kind runtime is a hook at a tool boundary."},
	{ID: CheckRepairWithAllow, Name: "RepairSentWithAllow", Binding: "PreToolUse", Level: "error",
		Short:    "A PreToolUse repair was sent with `permissionDecision: \"allow\"`.",
		Full:     "The answer `allow` skips the permission prompt, so the rewritten call runs without the person's permission settings deciding. A gate that repairs a call must not also approve it.",
		Fix:      "Send `updatedInput` without `permissionDecision`, or with `\"ask\"` to always show the rewritten call.",
		SpecNote: "Spec, PreToolUse: never send permissionDecision: \"allow\" with a repair."},
	{ID: CheckRepairByExit2, Name: "RepairSignalledByExit2", Binding: "PreToolUse", Level: "error",
		Short:    "A `repaired` verdict was signalled by exit status 2.",
		Full:     "Exit 2 blocks the call and Claude Code ignores `updatedInput`, so the repair is lost and the agent only sees a refusal.",
		Fix:      "Exit 0 and send the repair as JSON: `hookSpecificOutput.updatedInput` plus the AGC response in `additionalContext`.",
		SpecNote: "Spec, PreToolUse: a gate that returns repaired MUST use the JSON output."},
	{ID: CheckRepairNoInput, Name: "RepairedWithoutUpdatedInput", Binding: "PreToolUse", Level: "error",
		Short:    "A PreToolUse `repaired` verdict came without `updatedInput`.",
		Full:     "The response claims the call was rewritten, but the hook answer carries no `hookSpecificOutput.updatedInput`, so the original call ran unchanged.",
		Fix:      "Put the rewritten tool input in `hookSpecificOutput.updatedInput`.",
		SpecNote: "docs/runtimes.md, PreToolUse: repaired without updatedInput."},
	{ID: CheckRepairNoOutput, Name: "RepairedWithoutUpdatedToolOutput", Binding: "PostToolUse", Level: "error",
		Short:    "A PostToolUse `repaired` verdict came without `updatedToolOutput`.",
		Full:     "After the tool has run, a repair can only replace its result; without `hookSpecificOutput.updatedToolOutput` (an exit-2 answer cannot carry one: its stderr goes beside the output) the model sees the original output.",
		Fix:      "Exit 0 and put the replacement result in `hookSpecificOutput.updatedToolOutput`.",
		SpecNote: "Spec, PostToolUse: repaired uses updatedToolOutput."},
	{ID: CheckBlockLetsThrough, Name: "BlockLetsCallThrough", Binding: "PreToolUse", Level: "error",
		Short:    "A `block` verdict was sent with an answer that lets the call run.",
		Full:     "The hook exited 0 without `permissionDecision: \"deny\"` (or sent allow/ask), so Claude Code ran the call the gate meant to block.",
		Fix:      "Exit 0 with `hookSpecificOutput.permissionDecision: \"deny\"` and a reason, or exit 2 with the reason on stderr.",
		SpecNote: "docs/runtimes.md, PreToolUse: a block verdict whose answer lets the call through."},
	{ID: CheckPostBlockNoDecision, Name: "PostToolUseBlockWithoutDecision", Binding: "PostToolUse", Level: "error",
		Short:    "A PostToolUse `block` verdict came without top-level `decision: \"block\"` and `reason`.",
		Full:     "PostToolUse blocks through the top-level `decision` and `reason` fields; without them the model is never told.",
		Fix:      "Send `\"decision\": \"block\"` and a non-empty `\"reason\"` at the top level of the hook's JSON.",
		SpecNote: "Spec, PostToolUse: block uses the top-level decision: \"block\" with a reason."},
	{ID: CheckPostNoAGC, Name: "PostToolUseWithoutAGC", Binding: "PostToolUse", Level: "error",
		Short:    "A PostToolUse hook acted without an AGC response in `additionalContext`.",
		Full:     "A PostToolUse hook blocked or replaced output but put no AGC JSON in `hookSpecificOutput.additionalContext`, so nobody can tell which gate and rule acted.",
		Fix:      "Put the AGC JSON (serialized as a string) in `hookSpecificOutput.additionalContext`.",
		SpecNote: "Spec, PostToolUse: put the AGC JSON in additionalContext either way."},
	{ID: CheckEventMismatch, Name: "HookEventNameMismatch", Binding: "hook", Level: "error",
		Short:    "The hook's `hookSpecificOutput.hookEventName` does not match the event that ran.",
		Full:     "Claude Code rejects the hook's answer when the event name differs (`Hook returned incorrect event name`), so the gate's decision is lost.",
		Fix:      "Echo the `hook_event_name` of the hook's input in `hookSpecificOutput.hookEventName`.",
		SpecNote: "docs/runtimes.md, PreToolUse: hookEventName not matching the event."},
	{ID: CheckHookFailedOpen, Name: "HookFailedOpen", Binding: "hook", Level: "error",
		Short:    "A guard hook crashed, timed out or was cancelled, and the call ran unguarded.",
		Full:     "Claude Code treats a hook that exits with a status other than 0 or 2, times out or is cancelled as a non-blocking error: the tool call goes ahead as if no gate existed.",
		Fix:      "Make the hook exit 0 or 2 on every path; fix the crash named in its stderr, or raise its timeout.",
		SpecNote: "docs/runtimes.md, any binding: a hook that crashed or timed out (it failed open)."},
	{ID: CheckAnswerHeavier, Name: "HookAnswerHeavierThanVerdict", Binding: "hook", Level: "warning",
		Short:    "A hook blocked or rewrote a call while its AGC verdict says less.",
		Full:     "The hook's answer (exit 2, `deny`, `decision: \"block\"`, `updatedInput`, `updatedToolOutput`) did more than its AGC response's verdict: a `pass` or `steer` that blocked, or a `steer` that rewrote. Reports and orchestrators that read the verdict miss what the runtime enforced.",
		Fix:      "Send the verdict that matches the answer: `block` with a deny or exit 2, `repaired` with `updatedInput` / `updatedToolOutput`.",
		SpecNote: "docs/contract.md (the ladder) and docs/runtimes.md (the bindings): the verdict says what the gate did at the tool boundary."},
}

// Rows is a table of contract checks: the shared rows of this package, a binding's own rows
// (Binding.Rows), or both as the registry joins them.
type Rows []Check

// Lookup returns the row of the check with the given id.
func (r Rows) Lookup(id string) (Check, bool) {
	for _, c := range r {
		if c.ID == id {
			return c, true
		}
	}
	return Check{}, false
}

// Checks returns the shared contract checks, those of every response and of Claude-shaped hook
// answers, in the order the README lists them; each binding's own rows follow them there.
func Checks() Rows { return append(Rows(nil), checks...) }

// LookupCheck returns the shared check with the given id; a binding's own checks are in its Rows.
func LookupCheck(id string) (Check, bool) { return checks.Lookup(id) }
