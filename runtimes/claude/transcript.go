package claude

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// transcriptReader reads a Claude Code session transcript, ~/.claude/projects/<project>/<session>.jsonl:
// hook attachments (hook_success, hook_additional_context, hook_blocking_error, …), the tool_result
// of calls a PreToolUse hook refused, the tool_use blocks that say what each call was, and the last
// assistant message of the main chain (sub-agents' sidechains excluded) as a judgment when it holds
// an agc block, or whatever it holds when the file was named as a reviewer's output.
type transcriptReader struct {
	add hookAdder // nil: AddHookEvent
}

// Byte markers that a record must hold to matter; records without any are skipped undecoded.
var (
	markAttachment = []byte(`"attachment"`)
	markHook       = []byte(`"hook_`)
	markTool       = []byte(`"tool_`)
	markToolResult = []byte(`"tool_result"`)
	markToolUse    = []byte(`"tool_use"`)
)

// Transcript is the format of a Claude Code session transcript.
const Transcript inputs.Format = "claude-transcript"

// TranscriptFormat is the transcript's format as the registry lists it: name, sniff, reader; the
// reader reads a judged transcript's final message itself.
func TranscriptFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Transcript, Sniff: sniffTranscript, Reader: transcriptReader{}, FinalMessage: true}
}

// sniffTranscript recognises a transcript by its first records: objects with "type", one of them
// with the camelCase envelope keys ("sessionId", "parentUuid"; "leafUuid" of a summary) that
// stream-json does not use.
func sniffTranscript(h *inputs.Head) bool {
	if inputs.RawStr(h.Get("type")) == "" {
		return false // the first Record says what it is, as every transcript record does
	}
	if h.Get("sessionId") != nil || h.Get("parentUuid") != nil || h.Get("leafUuid") != nil {
		return true
	}
	head := h.Raw()
	i := jsonscan.SkipSpace(head, 0)
	for n := 0; n < 16 && i < len(head); n++ {
		e := jsonscan.ValueEnd(head, i)
		v := head[i:]
		if e > 0 {
			v = head[i:e]
		}
		m := jsonscan.Lookup(v, "type", "sessionId", "parentUuid", "leafUuid")
		if inputs.RawStr(m[0]) == "" {
			return false
		}
		if m[1] != nil || m[2] != nil || m[3] != nil {
			return true
		}
		if e < 0 {
			return false
		}
		i = jsonscan.SkipSpace(head, e)
	}
	return false
}

// firstValue returns the first JSON value of head, or what there is of it when head cuts it.
func firstValue(head []byte) []byte {
	i := jsonscan.SkipSpace(head, 0)
	if e := jsonscan.ValueEnd(head, i); e > 0 {
		return head[i:e]
	}
	return head[i:]
}

func (r transcriptReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := newHookState(in.Name, opts, set, r.add)
	s.judgment = in.Judgment
	var last finalMessage
	err := inputs.ScanWindowed(ctx, transcriptSource(in), opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		var v view
		if rec.Problem == "" && len(rec.Data) > 0 && rec.Data[0] == '{' {
			v = lookupView(rec.Data)
		}
		last.see(rec, &v)
		s.transcriptRecord(rec, &v)
		return nil
	}))
	s.flushAll()
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	last.judge(s)
	return nil
}

// The top-level members of a record that the reader reads (final message and hook records alike),
// found in one walk of the record: a tool result of megabytes is walked once, not once per use.
var viewKeys = [...]string{"type", "attachment", "message", "sessionId", "session_id", "cwd", "timestamp", "isSidechain"}

// Indexes in view.m of the members in viewKeys.
const (
	vType = iota
	vAttachment
	vMessage
	vSessionID
	vSessionIDSnake
	vCwd
	vTime
	vSidechain
)

// view holds the raw values of a record's viewKeys members (nil when absent), each the first
// member of its name written without escapes, as jsonscan.Lookup finds them, and the content
// blocks of its message when the walk that found them read those too.
type view struct {
	m      [len(viewKeys)][]byte
	blocks []block // contentBlocks(m[vMessage]), when walked
	walked bool
}

// contentBlocks is contentBlocks of the record's message.
func (v *view) contentBlocks() []block {
	if v.walked {
		return v.blocks
	}
	return contentBlocks(v.m[vMessage])
}

// lookupView is jsonscan.Lookup(d, viewKeys...), read in one walk with the message's blocks
// (walkView) when it can.
func lookupView(d []byte) view {
	var v view
	if walkView(d, &v) {
		return v
	}
	v = view{}
	left := len(v.m)
	jsonscan.Members(d, func(k, val []byte) bool {
		if n := viewIndex(k); n >= 0 && v.m[n] == nil {
			v.m[n] = val
			left--
		}
		return left > 0
	})
	return v
}

// viewIndex is the index in viewKeys of the raw key k, or -1.
func viewIndex(k []byte) int {
	switch string(k) {
	case "type":
		return vType
	case "attachment":
		return vAttachment
	case "message":
		return vMessage
	case "sessionId":
		return vSessionID
	case "session_id":
		return vSessionIDSnake
	case "cwd":
		return vCwd
	case "timestamp":
		return vTime
	case "isSidechain":
		return vSidechain
	}
	return -1
}

// transcriptBuffer is the read buffer of a big transcript: a line of up to ElideWindow bytes is
// handed to the reader in place, and a longer one reaches its skeleton a buffer at a time, so no
// byte of either is copied again after the read (through collect's 256 KiB buffer, the first
// MiB of every long line was copied into the line reader's own buffer).
const transcriptBuffer = inputs.ElideWindow + 4<<10

// transcriptSource is what a transcript is read from: a file bigger than transcriptBuffer by
// offset from its start (collect has only peeked at its head) through a buffer of that size;
// else the reader collect gives.
func transcriptSource(in inputs.Input) io.Reader {
	if in.At == nil || in.Size <= transcriptBuffer {
		return in.R
	}
	// Read to the end of the file, as a read of in.R would, should the file grow meanwhile.
	return bufio.NewReaderSize(io.NewSectionReader(in.At, 0, math.MaxInt64-1), transcriptBuffer)
}

// finalMessage is the last assistant message of a transcript's main chain, so far. Claude Code
// writes one record per content block, all with the message's id: the text blocks of the records
// of one id make the message. Only the last message is read as a judgment, so the contents of
// the current message's records are kept raw and decoded once, at the end (text).
type finalMessage struct {
	seen    bool
	id      string
	parts   [][]byte // raw contents of the current message's records that may hold text
	line    int      // the message's first Record
	session []byte   // the session and time of its records, raw (decoded in judge: most
	time    []byte   // messages are not the last, and the time changes at every record)
	elided  bool     // a record of it was longer than the window: its text was cut
	unsure  bool     // a record after it could not be read: it may not be the last message
}

// markAssistant is the byte marker of an assistant record.
var markAssistant = []byte(`"assistant"`)

// see takes an assistant record of the main chain into the final message; v holds its members.
func (f *finalMessage) see(rec inputs.Record, v *view) {
	d := rec.Data
	if rec.Problem != "" {
		f.unsure = true
		return
	}
	if len(d) == 0 || d[0] != '{' {
		return
	}
	// A record whose type is written "assistant" holds the marker the reader once looked for
	// first; one whose type is written otherwise must still hold it somewhere.
	if t := v.m[vType]; !bytes.Equal(t, markAssistant) && (inputs.RawStr(t) != "assistant" || !bytes.Contains(d, markAssistant)) {
		return
	}
	if inputs.RawBool(v.m[vSidechain]) {
		return
	}
	msg := jsonscan.Lookup(v.m[vMessage], "id", "content")
	if !f.seen || f.id == "" || !inputs.RawIs(msg[0], f.id) { // a new message (or one without an id)
		*f = finalMessage{seen: true, id: inputs.RawStr(msg[0]), line: rec.Line, parts: f.parts[:0],
			session: f.session[:0], time: f.time[:0]}
	}
	f.session = append(f.session[:0], v.m[vSessionID]...)
	f.time = append(f.time[:0], v.m[vTime]...)
	f.elided = f.elided || rec.Elided
	if c := msg[1]; len(c) > 0 && (c[0] == '"' || bytes.Contains(c, []byte(`"text"`)) || bytes.Contains(c, []byte(`\u`))) {
		f.parts = append(f.parts, bytes.Clone(c)) // may hold text: decoded if this is the last message
	}
}

// text is the text of the message: its records' text blocks, or a content that is one string.
func (f *finalMessage) text() string {
	var text strings.Builder
	for _, content := range f.parts {
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		var plain string
		if json.Unmarshal(content, &plain) == nil {
			text.WriteString(plain)
			continue
		}
		_ = json.Unmarshal(content, &blocks) // content of another shape has no text
		for _, b := range blocks {
			if b.Type != "text" {
				continue
			}
			if text.Len() > 0 {
				text.WriteString("\n\n")
			}
			text.WriteString(b.Text)
		}
	}
	return text.String()
}

// judge reads the final message as a judgment when it holds an agc block, or always when the
// transcript was named as a reviewer's output (then a transcript without one is a breach).
func (f *finalMessage) judge(s *hookState) {
	text := f.text()
	if !s.judgment && (!f.seen || f.elided || !inputs.HoldsAGCBlock(text)) {
		return
	}
	base := s.finalBase(f.line, inputs.RawStr(f.session))
	if t := inputs.RawStr(f.time); t != "" {
		base.Time = t
	}
	switch {
	case !f.seen:
		base.Source.Line = 1
		inputs.AddMissingJudgment("the reviewer's transcript holds no assistant message", base, s.opts, s.set)
	case f.elided:
		inputs.AddMissingJudgment("the reviewer's final message is too long to read whole", base, s.opts, s.set)
	case f.unsure && s.judgment:
		inputs.AddMissingJudgment("a record after the reviewer's last readable message could not be read, so its final message is unknown", base, s.opts, s.set)
	default:
		base.Named = s.judgment
		inputs.AddFinalJudgment(text, base, s.opts, s.set)
	}
}

// markUser is the raw type of a user record.
var markUser = []byte(`"user"`)

// transcriptRecord reads one record of a transcript; v holds its members.
func (s *hookState) transcriptRecord(rec inputs.Record, v *view) {
	if rec.Problem != "" {
		s.closeLoose()
		s.problem(rec)
		return
	}
	d := rec.Data
	if d[0] != '{' && d[0] != '[' {
		// Not a JSON value at all (binary data, text): say so, rather than pass it over.
		s.closeLoose()
		s.set.Problemf(s.src(rec.Line), inputs.SkipBadJSON, "not JSON: %s; skipped", inputs.Preview(s.opts.Redact, d))
		return
	}
	bl := listBlocks(v)
	if !bl.marked && !mayMatter(d) {
		s.closeLoose()
		s.set.Skip(inputs.SkipNotHook)
		return
	}
	if d[0] != '{' {
		s.closeLoose()
		s.set.Problemf(s.src(rec.Line), inputs.SkipBadJSON, "not a JSON object")
		return
	}
	s.noteEnvelope(v)
	s.typedRecord(rec, v, bl)
}

// blockLists are the tool_result blocks of a user record, or the tool_use blocks of an
// assistant record, as far as listBlocks lists them.
type blockLists struct {
	results []toolResult
	uses    []useBlock
	marked  bool // one block is typed exactly "tool_result" or "tool_use"
}

// listBlocks lists the blocks of a record whose type is written exactly "user" or "assistant". A
// block typed exactly "tool_result" (or "tool_use") means the record holds the markers mayMatter
// looks for: the bulk of the line (a tool result, a file written) is then not scanned for them.
func listBlocks(v *view) blockLists {
	var bl blockLists
	switch {
	case bytes.Equal(v.m[vType], markUser):
		bl.results, bl.marked = toolResultsIn(v.contentBlocks())
	case bytes.Equal(v.m[vType], markAssistant):
		bl.uses, bl.marked = toolUsesIn(v.contentBlocks())
	}
	return bl
}

// noteEnvelope keeps a record's session, folder and time for its hook records and those after.
func (s *hookState) noteEnvelope(v *view) {
	if !setStr(&s.session, v.m[vSessionID]) && s.session == "" {
		setStr(&s.session, v.m[vSessionIDSnake])
	}
	setStr(&s.cwd, v.m[vCwd])
	setStr(&s.time, v.m[vTime])
}

// typedRecord reads a record that may matter by its type; bl are its blocks as listBlocks
// listed them.
func (s *hookState) typedRecord(rec inputs.Record, v *view, bl blockLists) {
	d, m := rec.Data, &v.m
	switch recordType(m[vType]) {
	case "attachment":
		if rec.Elided && bytes.Contains(d, markHook) && bytes.Contains(d, markAttachment) {
			s.closeLoose()
			s.elidedHookRecord(rec.Line)
			return
		}
		if !s.hookAttachment(m[vAttachment], rec.Line) {
			s.closeLoose()
			s.set.Skip(inputs.SkipNotHook)
		}
	case "user":
		s.closeLoose()
		if !bytes.Equal(m[vType], markUser) { // "user" written with escapes
			bl.results, _ = toolResultsIn(v.contentBlocks())
		}
		if !s.readResultsOf(bl.results, rec.Line, func(g *hookGroup) bool { return pre(g.event) }) {
			s.set.Skip(inputs.SkipNotHook)
		}
	case "assistant":
		s.closeLoose()
		if !bytes.Equal(m[vType], markAssistant) { // "assistant" written with escapes
			bl.uses, _ = toolUsesIn(v.contentBlocks())
		}
		n := s.useCallsOf(m[vMessage], bl.uses, rec.Line)
		if n > 0 {
			s.set.Skip(inputs.SkipToolCall)
		} else {
			s.set.Skip(inputs.SkipNotHook)
		}
	default:
		// api-request-blob, api-request-shape, prompt_snapshot and other copies of what was sent
		// to the model repeat hook text: never read them as hook records.
		s.closeLoose()
		s.set.Skip(inputs.SkipNotHook)
	}
}

// mayMatter reports whether a record holds the markers of a record the reader reads: a hook
// attachment ("hook_ and "attachment"), or a tool_result or tool_use block. The markers are
// looked for in the order that finds them soonest in the records that have them (tool lines,
// most of the bytes, name "tool_ early), so that the bulk of such a line is not scanned again.
func mayMatter(d []byte) bool {
	if bytes.Contains(d, markTool) && (bytes.Contains(d, markToolResult) || bytes.Contains(d, markToolUse)) {
		return true
	}
	return bytes.Contains(d, markHook) && bytes.Contains(d, markAttachment)
}

// recordType is RawStr of a record's type, without allocating for the types the reader reads.
func recordType(v []byte) string {
	for _, t := range [...]string{"attachment", "user", "assistant"} {
		if inputs.RawIs(v, t) {
			return t
		}
	}
	return inputs.RawStr(v)
}

// setStr sets *dst to the JSON string v when v holds a non-empty one (RawStr), and reports
// whether it does. A value equal to *dst as written is not decoded again: the session, folder
// and time repeat on every record, and this spares a string per record.
func setStr(dst *string, v []byte) bool {
	if n := len(v); n > 2 && v[0] == '"' && v[n-1] == '"' && string(v[1:n-1]) == *dst &&
		bytes.IndexByte(v[1:n-1], '\\') < 0 {
		// RawStr(v) is *dst, or "" when v holds a raw control character: *dst stays either way.
		return true
	}
	if t := inputs.RawStr(v); t != "" {
		*dst = t
		return true
	}
	return false
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
	a := jsonscan.Lookup(att, "type", "hookName", "toolUseID", "inputs.HookEvent", "content", "stdout", "stderr",
		"exitCode", "command", "blockingError", "timedOut", "timeoutMs")
	typ := inputs.RawStr(a[0])
	if !strings.HasPrefix(typ, "hook_") {
		return false
	}
	id, name, event := inputs.RawStr(a[2]), inputs.RawStr(a[1]), inputs.RawStr(a[3])
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
		p.a.Hook = inputs.RawStr(a[8])
		if code, ok := inputs.RawInt(a[7]); ok {
			p.a.HasExit, p.a.ExitCode = true, code
		}
		g.parts = append(g.parts, p)
		return p
	}
	switch typ {
	case "hook_success":
		p := part()
		p.a.HasStdout, p.a.Stdout = a[5] != nil, inputs.RawStr(a[5])
		p.a.HasStderr, p.a.Stderr = a[6] != nil, inputs.RawStr(a[6])
	case "hook_non_blocking_error":
		p := part()
		p.a.HasStdout, p.a.Stdout = a[5] != nil, inputs.RawStr(a[5])
		p.a.HasStderr = a[6] != nil
		p.a.Stderr = strings.TrimPrefix(inputs.RawStr(a[6]), "Failed with non-blocking status code: ")
		if out, ok := rejectedAnswer(p.a.Stderr); ok {
			p.a.HasExit, p.a.HasStderr, p.a.Stderr = false, false, ""
			p.a.HasStdout, p.a.Stdout = true, out
		} else if !p.a.HasExit || p.a.ExitCode != 0 && p.a.ExitCode != 2 {
			p.a.Failed = "crashed"
		}
	case "hook_blocking_error":
		p := part()
		be := jsonscan.Lookup(a[9], "blockingError", "command")
		p.a.Blocked, p.a.BlockReason = true, inputs.RawStr(be[0])
		if p.a.Hook == "" {
			p.a.Hook = inputs.RawStr(be[1])
		}
		if p.a.Hook != "" && strings.HasPrefix(p.a.BlockReason, "["+p.a.Hook+"]: ") {
			p.a.HasExit, p.a.ExitCode = true, 2
			p.a.HasStderr, p.a.Stderr = true, p.a.BlockReason[len(p.a.Hook)+4:]
		}
	case "hook_cancelled":
		p := part()
		p.a.Failed = "cancelled"
		if inputs.RawBool(a[10]) {
			p.a.Failed = "timeout"
			if ms, err := strconv.Atoi(string(a[11])); err == nil && ms > 0 {
				p.a.Limit = time.Duration(ms) * time.Millisecond
			}
		}
	case "hook_error_during_execution":
		p := part()
		p.a.Failed = "not-run"
		p.a.HasStderr, p.a.Stderr = true, inputs.RawStr(a[4])
	case "hook_additional_context":
		if g.ctxRecords == 0 {
			g.ctxLine = line
		}
		g.ctxRecords++
		if len(a[4]) > 0 && a[4][0] == '"' {
			g.contexts = append(g.contexts, inputs.RawStr(a[4]))
		}
		jsonscan.Elements(a[4], func(el []byte) bool {
			if c := inputs.RawStr(el); c != "" {
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
	results, _ := toolResults(message)
	return s.readResultsOf(results, line, done)
}

// readResultsOf is readResults of the tool_result blocks of a message, already listed.
func (s *hookState) readResultsOf(results []toolResult, line int, done func(*hookGroup) bool) bool {
	counted := false
	for _, r := range results {
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
		s.noteResult(r, line)
		s.calls.finish(r.ID)
		s.flushCall(r.ID, done)
	}
	return counted
}
