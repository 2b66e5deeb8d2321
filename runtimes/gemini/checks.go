package gemini

import "github.com/agc-sarif/agc-sarif/gates"

// Check ids of the Gemini binding's own checks. Keep them stable: they are SARIF rule ids, and
// alerts are keyed on them.
const (
	CheckBeforeToolSteer = "agc/gemini-steer-from-before-tool"
	CheckRepairDropsArgs = "agc/gemini-repair-drops-arguments"
	CheckAsk             = "agc/gemini-ask-hangs"
	CheckExit2JSON       = "agc/gemini-exit-2-json-answer"
)

// rows are the binding's own checks, in the order the README lists them after the shared ones.
var rows = gates.Rows{
	{ID: CheckBeforeToolSteer, Name: "GeminiSteerFromBeforeTool", Binding: "gemini-cli", Level: "error",
		Short:    "A Gemini CLI BeforeTool hook steered through `additionalContext`, which BeforeTool ignores.",
		Full:     "Gemini CLI does not pass a BeforeTool hook's `hookSpecificOutput.additionalContext` to the model, so the steer never reached it.",
		Fix:      "Steer from an AfterTool hook, whose `additionalContext` is appended to the tool's output.",
		SpecNote: "docs/runtimes.md, Gemini CLI: BeforeTool ignores additionalContext (a steer there never reaches the model)."},
	{ID: CheckRepairDropsArgs, Name: "GeminiRepairDropsArguments", Binding: "gemini-cli", Level: "error",
		Short:    "A Gemini CLI repair's `tool_input` lacks arguments of the original call.",
		Full:     "Gemini CLI replaces the call's arguments with `hookSpecificOutput.tool_input` instead of merging it, so every argument the hook left out was dropped.",
		Fix:      "Send the whole tool input with the changed fields: copy the original `tool_input` and change what the repair changes.",
		SpecNote: "docs/runtimes.md, Gemini CLI: tool_input replaces the arguments (a repair that drops arguments is a breach)."},
	{ID: CheckAsk, Name: "GeminiAskHangs", Binding: "gemini-cli", Level: "error",
		Short:    "A Gemini CLI hook answered `decision: \"ask\"`, which hangs a headless run.",
		Full:     "In headless mode nobody can answer Gemini CLI's question, so the run waits until it is killed (even with --yolo) and the call never runs.",
		Fix:      "Answer `deny` with a reason, or let the call run; ask only in interactive sessions.",
		SpecNote: "docs/runtimes.md, Gemini CLI: decision ask hangs a headless run."},
	{ID: CheckExit2JSON, Name: "GeminiExit2JSONAnswer", Binding: "gemini-cli", Level: "error",
		Short:    "A Gemini CLI hook exited 2 with JSON on stderr, which Gemini reads as its answer: the call ran.",
		Full:     "On exit 2 Gemini CLI 0.61.0 parses a JSON stderr as the hook's answer; a body without `decision: \"deny\"` (an AGC response, say) is an allow, so the call the hook meant to block ran.",
		Fix:      "Block with `{\"decision\": \"deny\", \"reason\": …}` on stdout and exit 0, or put plain text (the AGC text form) on stderr with exit 2.",
		SpecNote: "Observed with Gemini CLI 0.61.0 (testdata/gemini): exit 2 with a JSON stderr is read as the answer."},
}

// Rows are the binding's own checks.
func (Binding) Rows() gates.Rows { return rows }
