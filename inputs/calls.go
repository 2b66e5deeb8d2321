package inputs

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/findings"
)

// The tool-call timeline: the readers of every runtime's records (Claude Code's transcript and
// stream-json, Codex CLI's rollout, Gemini CLI's stream-json, session and telemetry, Copilot CLI's
// events, the recorder's log) report every tool call, its result, each refusal the runtime listed,
// and each permission prompt to the Sink (Options.Calls), in record order,
// so that a caller (the friction ladder) can follow what the agent did after a refusal. Findings
// are unaffected; without Options.Calls nothing is reported.

// CallKind says what a CallEvent reports.
type CallKind string

// Call event kinds.
const (
	CallUse    CallKind = "use"    // the agent issued a tool call (an assistant tool_use block)
	CallResult CallKind = "result" // the call's tool_result came back
	CallDenied CallKind = "denied" // stream-json's permission_denials listed the call
	CallPrompt CallKind = "prompt" // a PermissionRequest hook ran for the call (hook log)
	CallHook   CallKind = "hook"   // another hook ran at the call (hook log): the call was made
)

// CallEvent is one step of a session's tool calls. Its byte slices are the receiver's to keep.
type CallEvent struct {
	Kind    CallKind
	Source  findings.Source
	Time    string
	Session string
	Cwd     string // the agent's working folder, when the record says
	Message string // CallUse: the id of the assistant message (one model turn) that holds it
	ID      string // the runtime's tool_use_id ("" when the record names none)
	// Key names the call by its order (runtimes whose hook input names no call: Gemini CLI,
	// Copilot CLI), the same in every file of the run that records it; "" when ID names it.
	Key     string
	Tool    string
	Input   []byte // tool input JSON (CallUse, CallDenied, CallPrompt), when small enough to keep
	IsError bool   // CallResult: the result is an error
	Text    string // CallResult: the error text
	Refused bool   // CallResult: the runtime told the model a hook refused the call
	// Suggestions is CallPrompt's permission_suggestions JSON (Claude Code's PermissionRequest
	// input), when the record carries it: the rules the runtime would add to allow the call.
	Suggestions []byte
}

// Bounds the readers share: a reader keeps at most MaxCalls calls waiting for their hook events
// (past it the oldest are forgotten), and a tool input of at most MaxCallInput bytes.
const (
	// MaxCalls is the most calls a reader keeps at once.
	MaxCalls = 4096
	// MaxCallInput is the largest raw tool input kept (for anchoring and the timeline).
	MaxCallInput = 64 << 10
)

// NoteHookCall reports a hook-log record at a tool call to opts.Calls: a PermissionRequest hook
// as a prompt (its input names no tool_use_id) with the hook input's permission_suggestions
// (suggestions; nil when unknown), any other as the call it ran at.
func NoteHookCall(opts Options, ev HookEvent, suggestions []byte) {
	if !opts.ReadsCalls() || ev.Call.Tool == "" {
		return
	}
	kind := CallHook
	if ev.Call.Event == "PermissionRequest" {
		kind = CallPrompt
	} else {
		suggestions = nil
	}
	opts.Sink.Call(CallEvent{Kind: kind, Source: ev.Source, Time: ev.Time, Session: ev.Call.SessionID,
		Cwd: ev.Call.Cwd, ID: ev.Call.ToolUseID, Key: ev.CallKey, Tool: ev.Call.Tool, Input: KeepInput(ev.Call.Input),
		Suggestions: KeepInput(suggestions)})
}

// KeepInput copies a tool input for the receiver, or nil when it is too big to keep.
func KeepInput(b []byte) []byte {
	if len(b) == 0 || len(b) > MaxCallInput || string(b) == "null" {
		return nil
	}
	return bytes.Clone(b)
}
