package gates

// HookAnswer is what the records tell of one hook invocation at a Claude Code tool boundary.
// Records differ in what they keep (a hook log keeps everything; a transcript may keep only the
// additionalContext and the refusal text), so every piece of evidence has a flag saying whether it
// is known, and checks never accuse a gate on evidence that is missing.
type HookAnswer struct {
	Event string // the event that ran: "PreToolUse", "PostToolUse", …
	Tool  string // the tool of the call: "Bash", "Edit", …
	Hook  string // the hook command as configured, when known

	HasExit  bool // ExitCode is known
	ExitCode int

	HasStdout bool   // Stdout is the hook's complete stdout
	Stdout    string // raw stdout (JSON on exit 0, or text)
	HasStderr bool   // Stderr is the hook's complete stderr
	Stderr    string

	// AdditionalContext holds additionalContext strings seen apart from stdout (transcript
	// hook_additional_context records), when stdout itself is not known.
	AdditionalContext []string

	// Failed says the hook failed open: "crashed" (exit other than 0 or 2), "timeout",
	// "cancelled", or "not-run" (could not be started); "" when it answered.
	Failed string

	// Refused says the runtime refused the call because of a hook (a PreToolUse tool_result with
	// is_error and "PreToolUse:<Tool> hook error: …"); RefusalText is that text after the prefix.
	Refused     bool
	RefusalText string

	// Blocked says the runtime recorded a blocking error from this hook (PostToolUse
	// hook_blocking_error); BlockReason is its text.
	Blocked     bool
	BlockReason string
}

// HookResult is what a hook answer holds for the findings.
type HookResult struct {
	// Responses are the AGC responses found in the answer: additionalContext (JSON or the text
	// form), or stderr on exit 2.
	Responses []*Response
	// Breaches are the binding and contract checks the answer failed.
	Breaches []Breach
	// Unstructured is set when the hook enforced or changed something (exit-2 block, deny, a
	// rewrite) without any AGC response.
	Unstructured *Unstructured
}

// Unstructured is a hook decision that carried no AGC response.
type Unstructured struct {
	Verdict Verdict // block for exit 2 / deny, repaired for a bare rewrite, steer for bare context
	Message string  // the reason the hook gave, or what it did
}

// CheckClaudeHook reads a Claude Code hook answer under the PreToolUse / PostToolUse bindings.
// STUB: replaced by the binding implementation.
func CheckClaudeHook(a HookAnswer) HookResult { return HookResult{} }
