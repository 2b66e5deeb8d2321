package inputs

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
)

// transcriptReader reads a Claude Code session transcript, ~/.claude/projects/<project>/<session>.jsonl:
// hook attachments (hook_success, hook_additional_context, hook_blocking_error, …), the tool_result
// of calls a PreToolUse hook refused, and the tool_use blocks that say what each call was.
type transcriptReader struct {
	add hookAdder // nil: addHookEventReason
}

// Byte markers that a record must hold to matter; records without any are skipped undecoded.
var (
	markAttachment = []byte(`"attachment"`)
	markHook       = []byte(`"hook_`)
	markTool       = []byte(`"tool_`)
	markToolResult = []byte(`"tool_result"`)
	markToolUse    = []byte(`"tool_use"`)
)

// sniffTranscript recognises a transcript by its first records: objects with "type", one of them
// with the camelCase envelope keys ("sessionId", "parentUuid"; "leafUuid" of a summary) that
// stream-json does not use.
func sniffTranscript(head []byte) bool {
	i := skipSpace(head, 0)
	for n := 0; n < 16 && i < len(head); n++ {
		e := valueEnd(head, i)
		v := head[i:]
		if e > 0 {
			v = head[i:e]
		}
		m := members(v, "type", "sessionId", "parentUuid", "leafUuid")
		if rawStr(m[0]) == "" {
			return false
		}
		if m[1] != nil || m[2] != nil || m[3] != nil {
			return true
		}
		if e < 0 {
			return false
		}
		i = skipSpace(head, e)
	}
	return false
}

// firstValue returns the first JSON value of head, or what there is of it when head cuts it.
func firstValue(head []byte) []byte {
	i := skipSpace(head, 0)
	if e := valueEnd(head, i); e > 0 {
		return head[i:e]
	}
	return head[i:]
}

func (r transcriptReader) Read(ctx context.Context, in Input, opts Options, set *findings.Set) error {
	s := newHookState(in.Name, opts, set, r.add)
	err := scanWindowed(ctx, in.R, opts.MaxRecord, func(rec record) error {
		s.transcriptRecord(rec)
		return nil
	})
	s.flushAll()
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// transcriptRecord reads one record of a transcript.
func (s *hookState) transcriptRecord(rec record) {
	if rec.Problem != "" {
		s.closeLoose()
		s.problem(rec)
		return
	}
	d := rec.Data
	if d[0] != '{' && d[0] != '[' {
		// Not a JSON value at all (binary data, text): say so, rather than pass it over.
		s.closeLoose()
		s.set.Problemf(s.src(rec.Line), skipBadJSON, "not JSON: %s; skipped", preview(d))
		return
	}
	hasHook, hasTool := bytes.Contains(d, markHook), bytes.Contains(d, markTool)
	hookAtt := hasHook && bytes.Contains(d, markAttachment)
	if !hookAtt && (!hasTool || !bytes.Contains(d, markToolResult) && !bytes.Contains(d, markToolUse)) {
		s.closeLoose()
		s.set.Skip(skipNotHook)
		return
	}
	if d[0] != '{' {
		s.closeLoose()
		s.set.Problemf(s.src(rec.Line), skipBadJSON, "not a JSON object")
		return
	}
	m := members(d, "type", "attachment", "message", "sessionId", "session_id", "cwd", "timestamp")
	typ := rawStr(m[0])
	if sid := rawStr(m[3]); sid != "" {
		s.session = sid
	} else if sid := rawStr(m[4]); sid != "" && s.session == "" {
		s.session = sid
	}
	if cwd := rawStr(m[5]); cwd != "" {
		s.cwd = cwd
	}
	if t := rawStr(m[6]); t != "" {
		s.time = t
	}
	switch typ {
	case "attachment":
		if rec.Elided && hookAtt {
			s.closeLoose()
			s.elidedHookRecord(rec.Line)
			return
		}
		if !s.hookAttachment(m[1], rec.Line) {
			s.closeLoose()
			s.set.Skip(skipNotHook)
		}
	case "user":
		s.closeLoose()
		if !s.readResults(m[2], rec.Line, func(g *hookGroup) bool { return pre(g.event) }) {
			s.set.Skip(skipNotHook)
		}
	case "assistant":
		s.closeLoose()
		n := toolUses(m[2], func(id, name string, input []byte) { s.calls.add(id, name, input) })
		if n > 0 {
			s.set.Skip(skipToolCall)
		} else {
			s.set.Skip(skipNotHook)
		}
	default:
		// api-request-blob, api-request-shape, prompt_snapshot and other copies of what was sent
		// to the model repeat hook text: never read them as hook records.
		s.closeLoose()
		s.set.Skip(skipNotHook)
	}
}

// closeLoose emits the groups that wait for nothing more: a hook's records come together, so any
// other record ends them. PreToolUse groups wait for their call's tool_result (the refusal).
func (s *hookState) closeLoose() {
	if s.loose == 0 {
		return
	}
	s.flushWhere(func(g *hookGroup) bool { return !g.waitForResult })
}

// hookAttachment adds a hook_* attachment to its group; false when it is not one.
func (s *hookState) hookAttachment(att []byte, line int) bool {
	a := members(att, "type", "hookName", "toolUseID", "hookEvent", "content", "stdout", "stderr",
		"exitCode", "command", "blockingError", "timedOut")
	typ := rawStr(a[0])
	if !strings.HasPrefix(typ, "hook_") {
		return false
	}
	id, name, event := rawStr(a[2]), rawStr(a[1]), rawStr(a[3])
	if name == "" && event == "" {
		return false
	}
	g := s.group(id, event, name, line, s.time)
	if pre(g.event) && g.key.id != "" {
		if c := s.calls.get(g.key.id); c == nil || !c.done {
			s.wait(g)
		}
	}
	part := func() *hookPart {
		p := &hookPart{line: line, time: s.time, records: 1}
		p.a.Hook = rawStr(a[8])
		if code, ok := rawInt(a[7]); ok {
			p.a.HasExit, p.a.ExitCode = true, code
		}
		g.parts = append(g.parts, p)
		return p
	}
	switch typ {
	case "hook_success":
		p := part()
		p.a.HasStdout, p.a.Stdout = a[5] != nil, rawStr(a[5])
		p.a.HasStderr, p.a.Stderr = a[6] != nil, rawStr(a[6])
	case "hook_non_blocking_error":
		p := part()
		p.a.HasStdout, p.a.Stdout = a[5] != nil, rawStr(a[5])
		p.a.HasStderr = a[6] != nil
		p.a.Stderr = strings.TrimPrefix(rawStr(a[6]), "Failed with non-blocking status code: ")
		if out, ok := rejectedAnswer(p.a.Stderr); ok {
			p.a.HasExit, p.a.HasStderr, p.a.Stderr = false, false, ""
			p.a.HasStdout, p.a.Stdout = true, out
		} else if !p.a.HasExit || p.a.ExitCode != 0 && p.a.ExitCode != 2 {
			p.a.Failed = "crashed"
		}
	case "hook_blocking_error":
		p := part()
		be := members(a[9], "blockingError", "command")
		p.a.Blocked, p.a.BlockReason = true, rawStr(be[0])
		if p.a.Hook == "" {
			p.a.Hook = rawStr(be[1])
		}
		if p.a.Hook != "" && strings.HasPrefix(p.a.BlockReason, "["+p.a.Hook+"]: ") {
			p.a.HasExit, p.a.ExitCode = true, 2
			p.a.HasStderr, p.a.Stderr = true, p.a.BlockReason[len(p.a.Hook)+4:]
		}
	case "hook_cancelled":
		p := part()
		p.a.Failed = "cancelled"
		if rawBool(a[10]) {
			p.a.Failed = "timeout"
		}
	case "hook_error_during_execution":
		p := part()
		p.a.Failed = "not-run"
		p.a.HasStderr, p.a.Stderr = true, rawStr(a[4])
	case "hook_additional_context":
		if g.ctxRecords == 0 {
			g.ctxLine = line
		}
		g.ctxRecords++
		if len(a[4]) > 0 && a[4][0] == '"' {
			g.contexts = append(g.contexts, rawStr(a[4]))
		}
		arrayElements(a[4], func(el []byte) bool {
			if c := rawStr(el); c != "" {
				g.contexts = append(g.contexts, c)
			}
			return true
		})
	default: // hook_stopped_continuation, hook_system_message, hook_permission_decision, …
		g.otherRecords++
	}
	return true
}

// pre reports whether an event's hooks run before the tool call (so its refusal follows them).
func pre(event string) bool { return event == "PreToolUse" || event == "PermissionRequest" }

// readResults reads the tool_result blocks of a user message: a refusal joins its call's group,
// and each result completes the groups of its call that done selects (a transcript writes the
// PostToolUse records after the result, stream-json writes every hook response before it). It
// reports whether the record was counted.
func (s *hookState) readResults(message []byte, line int, done func(*hookGroup) bool) bool {
	counted := false
	for _, r := range toolResults(message) {
		if r.IsError {
			if ref, ok := parseRefusal(r.Text); ok && ref.Event != "" {
				g := s.group(r.ID, ref.Event, ref.Event+":"+ref.Tool, line, s.time)
				if g.tool == "" {
					g.tool = ref.Tool
				}
				g.ref, g.refLine, g.refTime = &ref, line, s.time
				if !counted {
					g.refRecords++
					counted = true
				}
			}
		}
		s.calls.finish(r.ID)
		s.flushCall(r.ID, done)
	}
	return counted
}
