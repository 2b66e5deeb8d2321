package claude

import (
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

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
		msgID = inputs.RawStr(jsonscan.Lookup(message, "id")[0])
	}
	for _, u := range uses {
		s.calls.add(u.ID, u.Name, u.Input)
		if s.opts.ReadsCalls() {
			s.opts.Sink.Call(inputs.CallEvent{Kind: inputs.CallUse, Source: s.src(line), Time: s.time, Session: s.session, Cwd: s.cwd,
				Message: msgID, ID: u.ID, Tool: u.Name, Input: inputs.KeepInput(u.Input)})
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
	s.opts.Sink.Call(inputs.CallEvent{Kind: inputs.CallResult, Source: s.src(line), Time: s.time, Session: s.session,
		ID: r.ID, Tool: tool, IsError: r.IsError, Text: r.Text})
}

// noteDenials reports the permission_denials of a stream-json result message to opts.Calls.
func (s *hookState) noteDenials(d []byte, line int) {
	if !s.opts.ReadsCalls() {
		return
	}
	jsonscan.Elements(jsonscan.Lookup(d, "permission_denials")[0], func(el []byte) bool {
		m := jsonscan.Lookup(el, "tool_name", "tool_use_id", "tool_input")
		s.opts.Sink.Call(inputs.CallEvent{Kind: inputs.CallDenied, Source: s.src(line), Time: s.time, Session: s.session,
			ID: inputs.RawStr(m[1]), Tool: inputs.RawStr(m[0]), Input: inputs.KeepInput(m[2])})
		return true
	})
}
