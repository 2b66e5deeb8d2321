package claude

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// streamJSONReader reads `claude -p --output-format stream-json --verbose` output (one message per
// line) and the claude-code-action execution file (a JSON array of the same messages):
// system/hook_response records (all hooks with --include-hook-events), the tool_result of refused
// calls, tool_use blocks, and the final result message when it holds an ```agc block.
type streamJSONReader struct {
	add hookAdder // nil: AddHookEvent
}

// StreamJSON is the format of claude -p stream-json, or of an execution_file JSON array.
const StreamJSON inputs.Format = "stream-json"

// StreamJSONFormat is stream-json's format as the registry lists it: name, sniff, reader; the
// reader reads a judged stream's final result itself.
func StreamJSONFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: StreamJSON, Sniff: sniffStreamJSON, Reader: streamJSONReader{}, FinalMessage: true}
}

// sniffStreamJSON recognises stream-json by its first message, `"type":"system"` with a subtype,
// either as the first line or as the first element of an array.
func sniffStreamJSON(h *inputs.Head) bool {
	if i := jsonscan.SkipSpace(h.Raw(), 0); i < len(h.Raw()) && h.Raw()[i] == '[' { // a JSON array of messages
		v := firstValue(h.Raw())
		i := jsonscan.SkipSpace(v, 1)
		if e := jsonscan.ValueEnd(v, i); e > 0 {
			v = v[i:e]
		} else {
			v = v[i:]
		}
		m := jsonscan.Lookup(v, "type", "subtype", "sessionId", "parentUuid")
		return inputs.RawStr(m[0]) == "system" && inputs.RawStr(m[1]) != "" && m[2] == nil && m[3] == nil
	}
	return inputs.RawIs(h.Get("type"), "system") && inputs.RawStr(h.Get("subtype")) != "" && h.Get("sessionId") == nil && h.Get("parentUuid") == nil
}

func (r streamJSONReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := newHookState(in.Name, opts, set, r.add)
	s.judgment = in.Judgment
	br := inputs.BufReader(in.R)
	scan := inputs.ScanWindowed
	if head, _ := br.Peek(inputs.SniffSize); len(head) > 0 {
		if i := jsonscan.SkipSpace(head, 0); i < len(head) && head[i] == '[' {
			scan = inputs.ScanArray
		}
	}
	err := scan(ctx, br, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		s.streamRecord(rec)
		return nil
	}))
	s.flushAll()
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	if s.judgment && s.finals == 0 {
		inputs.AddMissingJudgment("the reviewer's stream-json has no result message (the run did not finish)", s.finalBase(1, ""), opts, set)
	}
	return nil
}

// streamRecord reads one stream-json message.
func (s *hookState) streamRecord(rec inputs.Record) {
	if rec.Problem != "" {
		s.problem(rec)
		return
	}
	d := rec.Data
	if !bytes.HasPrefix(d, []byte(`{"type":"system","subtype":"hook_started"`)) {
		s.lastStart.batch = false
	}
	if d[0] != '{' {
		s.set.Problemf(s.src(rec.Line), inputs.SkipBadJSON, "not a JSON object")
		return
	}
	m := jsonscan.Lookup(d, "type", "subtype", "session_id", "timestamp", "message")
	typ, sub := inputs.RawStr(m[0]), inputs.RawStr(m[1])
	if sid := inputs.RawStr(m[2]); sid != "" {
		s.session = sid
	}
	if t := inputs.RawStr(m[3]); t != "" {
		s.time = t
	}
	switch {
	case typ == "system" && sub == "init":
		if cwd := inputs.RawStr(jsonscan.Lookup(d, "cwd")[0]); cwd != "" {
			s.cwd = cwd
		}
		s.set.Skip(inputs.SkipNotHook)
	case typ == "system" && sub == "hook_started":
		s.hookStarted(d)
		s.set.Skip(skipHookStarted)
	case typ == "system" && sub == "hook_response" && rec.Elided:
		s.elidedHookRecord(rec.Line)
	case typ == "system" && sub == "hook_response":
		s.hookResponse(d, rec.Line)
	case typ == "assistant":
		n := s.useCalls(m[4], rec.Line)
		if n > 0 {
			s.set.Skip(inputs.SkipToolCall)
		} else {
			s.set.Skip(inputs.SkipNotHook)
		}
	case typ == "user" && bytes.Contains(d, markToolResult):
		// stream-json gives a call's hook responses before its result: the result completes them all.
		if !s.readResults(m[4], rec.Line, func(*hookGroup) bool { return true }) {
			s.set.Skip(inputs.SkipNotHook)
		}
	case typ == "result" && rec.Elided:
		s.elidedHookRecord(rec.Line)
		if s.judgment {
			s.finals++
			inputs.AddMissingJudgment("the reviewer's result message is too long to read whole", s.finalBase(rec.Line, ""), s.opts, s.set)
		}
	case typ == "result":
		s.result(d, rec.Line)
	default:
		s.set.Skip(inputs.SkipNotHook)
	}
}

// hookCalls remembers, per hook_id, the tool call a started hook was assigned to.
func (s *hookState) hookCall(hookID, event, tool string) string {
	if s.started == nil {
		s.started = map[string]string{}
	}
	if id, ok := s.started[hookID]; ok && hookID != "" {
		delete(s.started, hookID)
		return id
	}
	if !toolEvents[event] || tool == "" {
		return ""
	}
	c := s.calls.claim(event, tool)
	if c == nil {
		return ""
	}
	c.mark(event)
	return c.ID
}

// hookStarted assigns a starting hook to its tool call: stream-json does not name the call, so
// the hook goes to the oldest pending call of its tool that has no hook of this event yet.
// Consecutive starts of the same hook name (several hooks on one event) share one call.
func (s *hookState) hookStarted(d []byte) {
	m := jsonscan.Lookup(d, "hook_id", "hook_name", "hook_event")
	hookID, name := inputs.RawStr(m[0]), inputs.RawStr(m[1])
	event, tool := splitHookName(name, inputs.RawStr(m[2]))
	if hookID == "" {
		return
	}
	if s.started == nil {
		s.started = map[string]string{}
	}
	if len(s.started) > maxOpenGroups {
		clear(s.started)
	}
	var id string
	if s.lastStart.name == name && s.lastStart.batch {
		id = s.lastStart.call
	} else {
		id = s.hookCall("", event, tool)
	}
	s.started[hookID] = id
	s.lastStart = startedHook{name: name, call: id, batch: true}
}

// hookResponse turns a system/hook_response message into a hook answer in its call's group.
func (s *hookState) hookResponse(d []byte, line int) {
	m := jsonscan.Lookup(d, "hook_id", "hook_name", "hook_event", "stdout", "stderr", "exit_code", "outcome", "output")
	name := inputs.RawStr(m[1])
	event, tool := splitHookName(name, inputs.RawStr(m[2]))
	id := s.hookCall(inputs.RawStr(m[0]), event, tool)
	g := s.group(id, event, name, line, s.time)
	p := &hookPart{line: line, time: s.time, records: 1}
	p.a.HasStdout, p.a.Stdout = m[3] != nil, inputs.RawStr(m[3])
	p.a.HasStderr, p.a.Stderr = m[4] != nil, inputs.RawStr(m[4])
	if code, ok := inputs.RawInt(m[5]); ok {
		p.a.HasExit, p.a.ExitCode = true, code
	}
	switch inputs.RawStr(m[6]) {
	case "cancelled": // the exit status 1 of a cancelled hook is the runtime's, not the hook's
		p.a.Failed, p.a.HasExit = "cancelled", false
	case "error":
		if !p.a.HasExit {
			p.a.Failed = "not-run"
		}
	}
	if out, ok := rejectedAnswer(p.a.Stderr); ok && strings.TrimSpace(p.a.Stdout) == "" {
		p.a.HasExit, p.a.HasStderr, p.a.Stderr, p.a.Failed = false, false, "", ""
		p.a.HasStdout, p.a.Stdout = true, out
	}
	if !p.a.HasStdout && !p.a.HasStderr && m[7] != nil {
		p.a.HasStdout, p.a.Stdout = true, inputs.RawStr(m[7])
	}
	g.parts = append(g.parts, p)
	if g.key.id == "" || !toolEvents[g.event] {
		s.flush(g)
	}
}

// result reads the final result message: its text is a judging agent's final message when it
// holds an agc block, or whatever it holds when the file was named as a reviewer's output.
// permission_denials only repeat refusals already read from tool results.
func (s *hookState) result(d []byte, line int) {
	s.finals++
	s.noteDenials(d, line)
	m := jsonscan.Lookup(d, "result", "session_id")
	text := inputs.RawStr(m[0])
	if !s.judgment && !inputs.HoldsAGCBlock(text) {
		s.set.Skip(inputs.SkipNoAGCBlock)
		return
	}
	base := s.finalBase(line, inputs.RawStr(m[1]))
	base.Named = s.judgment
	inputs.AddFinalJudgment(text, base, s.opts, s.set)
}

// finalBase is the finding a final message's findings start from: its record and run.
func (s *hookState) finalBase(line int, session string) findings.Finding {
	if session == "" {
		session = s.session
	}
	return findings.Finding{Source: s.src(line), Time: s.time,
		Call: &findings.Call{Runtime: agent.ClaudeCode, SessionID: session, Cwd: s.cwd}}
}
