package inputs

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
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

// useCalls reads the tool_use blocks of an assistant message into the call table and reports
// each to opts.Calls; it returns how many there were.
func (s *hookState) useCalls(message []byte, line int) int {
	uses, _ := toolUseList(message)
	return s.useCallsOf(message, uses, line)
}

// useCallsOf is useCalls of the tool_use blocks of message, already listed.
func (s *hookState) useCallsOf(message []byte, uses []useBlock, line int) int {
	msgID := ""
	if s.opts.ReadsCalls() {
		msgID = RawStr(jsonscan.Lookup(message, "id")[0])
	}
	for _, u := range uses {
		s.calls.add(u.ID, u.Name, u.Input)
		if s.opts.ReadsCalls() {
			s.opts.Sink.Call(CallEvent{Kind: CallUse, Source: s.src(line), Time: s.time, Session: s.session, Cwd: s.cwd,
				Message: msgID, ID: u.ID, Tool: u.Name, Input: KeepInput(u.Input)})
		}
	}
	return len(uses)
}

// noteResult reports a tool_result to opts.Calls.
func (s *hookState) noteResult(r toolResult, line int) {
	if !s.opts.ReadsCalls() {
		return
	}
	c := s.calls.get(r.ID)
	tool := ""
	if c != nil {
		tool = c.Name
	}
	s.opts.Sink.Call(CallEvent{Kind: CallResult, Source: s.src(line), Time: s.time, Session: s.session,
		ID: r.ID, Tool: tool, IsError: r.IsError, Text: r.Text})
}

// noteDenials reports the permission_denials of a stream-json result message to opts.Calls.
func (s *hookState) noteDenials(d []byte, line int) {
	if !s.opts.ReadsCalls() {
		return
	}
	jsonscan.Elements(jsonscan.Lookup(d, "permission_denials")[0], func(el []byte) bool {
		m := jsonscan.Lookup(el, "tool_name", "tool_use_id", "tool_input")
		s.opts.Sink.Call(CallEvent{Kind: CallDenied, Source: s.src(line), Time: s.time, Session: s.session,
			ID: RawStr(m[1]), Tool: RawStr(m[0]), Input: KeepInput(m[2])})
		return true
	})
}

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
