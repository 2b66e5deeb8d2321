package copilot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Events is the format of GitHub Copilot CLI's typed events: the session's
// session-state/<id>/events.jsonl, or the stdout of `copilot -p … --output-format json`.
const Events inputs.Format = "copilot-events"

// EventsFormat is the events' format as the registry lists it: name, sniff, reader.
func EventsFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Events, Sniff: sniffCopilotEvents, Reader: copilotEventsReader{}}
}

// copilotEventsReader reads Copilot CLI's events ({type, data, id, timestamp, parentId}). The
// session file keeps hook runs: hook.start (its input names the tool calls with their ids and
// args) and hook.end (success; output keyed by call id with the text a denial gave the model;
// error with the crashed hook's stderr). The --output-format json stream is the same minus the
// hook.* events: a denial shows there only as a tool.execution_complete with error code
// "denied". Neither keeps an answer that let the call run (a rewrite or a context): those are
// only in the recorder's log. One reader serves both, since a file with hook.end records reads
// its denials from them and one without reads them from the tool results.
//
// Copilot's hook stdin, which the recorder logs, carries no tool-call id, so one event is matched
// across the log and these files by its order key (OrdinalKeys): session, event, tool, the exact
// args and how many calls with those args came before in the session. A call this file cannot
// place (args over MaxCallInput or unknown) is keyed by its call id, which only these files know.
type copilotEventsReader struct{}

// copilotPreTool is the hook event these files keep answers of.
const copilotPreTool = "preToolUse"

// Texts Copilot gives the model for a call a preToolUse hook denied.
const (
	copilotDenied      = "Denied by preToolUse hook: "
	copilotDeniedFrom  = "Denied by preToolUse hook from "
	copilotExited      = "hook exited with code "
	copilotFailedCode  = "Hook command failed with code "
	copilotPostBlocked = "Tool result blocked: "
)

// Skip reasons of Copilot event records that are no hook event by themselves.
const (
	skipCopilotHookStart = "hook run started (its end follows)"
	skipCopilotRan       = "hook let the call run (Copilot records no answer that allows)"
	skipCopilotSettled   = "denial already read from its hook.end"
	skipCopilotPost      = "postToolUse hook run (not read: unverified)"
	skipCopilotOther     = "hook run of another event (not read)"
)

// copilotTypePrefixes are the type prefixes a Copilot events file starts with.
var copilotTypePrefixes = []string{"session.", "user.", "assistant.", "tool.", "hook.", "system."}

// sniffCopilotEvents recognises a Copilot events file by its first record: a dotted type of
// Copilot's (session.start in the session file) read first, and an id, data or timestamp.
func sniffCopilotEvents(h *inputs.Head) bool {
	head := h.Raw()
	key, val := h.First()
	s := inputs.RawStr(val)
	if inputs.RawStr(key) != "type" || !strings.Contains(s, ".") {
		return false
	}
	for _, p := range copilotTypePrefixes {
		if strings.HasPrefix(s, p) {
			return bytes.Contains(head, []byte(`"data"`)) && bytes.Contains(head, []byte(`"timestamp"`))
		}
	}
	return false
}

// copilotRecord is the part of an event line the reader uses; data is decoded by type.
type copilotRecord struct {
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	SessionID string          `json:"sessionId"` // the stream's final result record
	Data      json.RawMessage `json:"data"`
}

// copilotToolCall is one call named by a preToolUse hook.start input.
type copilotToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// copilotData is the union of the data fields the reader uses.
type copilotData struct {
	SessionID string `json:"sessionId"`
	Context   struct {
		Cwd string `json:"cwd"`
	} `json:"context"`
	HookInvocationID string          `json:"hookInvocationId"`
	HookType         string          `json:"hookType"`
	Input            json.RawMessage `json:"input"`
	Success          *bool           `json:"success"`
	Output           json.RawMessage `json:"output"`
	Error            json.RawMessage `json:"error"`
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Arguments        json.RawMessage `json:"arguments"`
}

// copilotError is the error of a hook.end or a tool result.
type copilotError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

// copilotCall is a tool call seen starting, with its place among the calls with its args.
type copilotCall struct {
	tool string
	args json.RawMessage
	slot inputs.OrdinalSlot
}

// copilotPending is an event waiting for the session id (the stream names it only at its end).
type copilotPending struct {
	ev         inputs.HookEvent
	slot       inputs.OrdinalSlot
	noUnstruct bool
	count      bool
}

// copilotEvents is the state of one events file being read.
type copilotEvents struct {
	name         string
	opts         inputs.Options
	set          *findings.Set
	session, cwd string
	keys         *inputs.OrdinalKeys     // places calls counted per file: the stream names its session last
	calls        map[string]*copilotCall // by call id, from tool.execution_start
	hooks        map[string][]copilotToolCall
	settled      map[string]bool // call ids whose hook.end was read
	pending      []copilotPending
	pendingCalls []copilotCallEvent // timeline events waiting for the session id
}

// copilotCallEvent is a timeline event of a call, keyed by the call's place once the session is
// known.
type copilotCallEvent struct {
	ev   inputs.CallEvent
	slot inputs.OrdinalSlot
}

func (copilotEventsReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := &copilotEvents{name: in.Name, opts: opts, set: set, keys: inputs.NewOrdinalKeys(opts),
		calls: map[string]*copilotCall{}, hooks: map[string][]copilotToolCall{}, settled: map[string]bool{}}
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		s.record(rec)
		return nil
	}))
	s.flush()
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// record reads one event line: every line is used or counted as a skip with its reason.
func (s *copilotEvents) record(rec inputs.Record) {
	var r copilotRecord
	var d copilotData
	src, ok := inputs.DecodeLine(s.set, s.name, rec, "a Copilot event", &r)
	if !ok {
		return
	}
	if len(r.Data) > 0 && string(r.Data) != "null" {
		if err := json.Unmarshal(r.Data, &d); err != nil {
			s.set.Problemf(src, inputs.SkipBadJSON, "Copilot %s event: %v", r.Type, err)
			return
		}
	}
	switch r.Type {
	case "session.start":
		s.cwd = d.Context.Cwd
		s.learn(d.SessionID)
	case "result":
		s.learn(r.SessionID)
	case "tool.execution_start":
		s.start(d, r.Timestamp, src)
		s.set.Skip(inputs.SkipToolCall)
		return
	case "hook.start":
		s.hookStart(d)
		return
	case "hook.end":
		if rec.Elided {
			s.set.Problemf(src, "unreadable record", "hook record of more than %d MiB: its texts were cut, not read", inputs.ElideWindow>>20)
			return
		}
		s.hookEnd(d, r.Timestamp, src)
		return
	case "tool.execution_complete":
		s.complete(d, r.Timestamp, src, rec.Elided)
		return
	}
	s.set.Skip(inputs.SkipNotHook)
}

// learn takes the session id, and settles the events that waited for it.
func (s *copilotEvents) learn(id string) {
	if id == "" || s.session != "" {
		return
	}
	s.session = id
	s.flush()
}

// start remembers a call and its place in the session's order of calls with the same args, and
// hands it to the timeline.
func (s *copilotEvents) start(d copilotData, at string, src findings.Source) {
	if d.ToolCallID == "" {
		return
	}
	if len(s.calls) >= inputs.MaxCalls {
		for k := range s.calls {
			delete(s.calls, k) // forget an old call: its event, if any, gets no key (two findings at worst)
			break
		}
	}
	c := &copilotCall{tool: d.ToolName, args: d.Arguments}
	// args cut by the reader's window are over MaxCallInput: no place, for them or later calls of
	// the tool; the session is "" for the whole file, since it may be named only at the end
	c.slot = s.keys.Place(findings.Call{Runtime: agent.Copilot, Event: copilotPreTool, Tool: d.ToolName, Input: d.Arguments}, "")
	s.calls[d.ToolCallID] = c
	s.note(inputs.CallEvent{Kind: inputs.CallUse, Source: src, Time: at, Cwd: s.cwd, ID: d.ToolCallID, Tool: d.ToolName,
		Input: inputs.KeepInput(d.Arguments)}, c.slot)
}

// note hands the timeline an event of a call once the session is known (Options.Calls).
func (s *copilotEvents) note(ev inputs.CallEvent, slot inputs.OrdinalSlot) {
	if !s.opts.ReadsCalls() {
		return
	}
	if s.session == "" && len(s.pendingCalls) < inputs.MaxCalls {
		s.pendingCalls = append(s.pendingCalls, copilotCallEvent{ev, slot})
		return
	}
	s.sendCall(copilotCallEvent{ev, slot})
}

// sendCall names the call's session and key, and hands the event to the sink.
func (s *copilotEvents) sendCall(p copilotCallEvent) {
	p.ev.Session, p.ev.Key = s.session, p.slot.CallKey(s.session)
	s.opts.Sink.Call(p.ev)
}

// hookStart remembers the calls a preToolUse hook run is about.
func (s *copilotEvents) hookStart(d copilotData) {
	var in struct {
		SessionID string            `json:"sessionId"`
		Cwd       string            `json:"cwd"`
		ToolCalls []copilotToolCall `json:"toolCalls"`
	}
	if d.HookType != copilotPreTool || json.Unmarshal(d.Input, &in) != nil {
		s.set.Skip(s.otherHook(d.HookType))
		return
	}
	if s.cwd == "" {
		s.cwd = in.Cwd
	}
	s.learn(in.SessionID)
	if len(s.hooks) >= inputs.MaxCalls {
		for k := range s.hooks {
			delete(s.hooks, k)
			break
		}
	}
	s.hooks[d.HookInvocationID] = in.ToolCalls
	s.set.Skip(skipCopilotHookStart)
}

func (s *copilotEvents) otherHook(t string) string {
	if t == "postToolUse" {
		return skipCopilotPost
	}
	return skipCopilotOther
}

// hookEnd turns a preToolUse hook run's end into the events of its calls: a denial text per
// call, or the crash that failed closed.
func (s *copilotEvents) hookEnd(d copilotData, at string, src findings.Source) {
	if d.HookType != copilotPreTool {
		s.set.Skip(s.otherHook(d.HookType))
		return
	}
	calls, known := s.hooks[d.HookInvocationID]
	delete(s.hooks, d.HookInvocationID)
	var out map[string]string
	_ = json.Unmarshal(d.Output, &out)
	var e copilotError
	_ = json.Unmarshal(d.Error, &e)
	if !known { // its hook.start was not read: the calls are known by id only
		for _, id := range slices.Sorted(maps.Keys(out)) {
			calls = append(calls, copilotToolCall{ID: id})
		}
	}
	count := true
	for _, tc := range calls {
		a, noUnstruct, ok := copilotAnswer(out[tc.ID], d.Success != nil && !*d.Success, e.Message)
		if !ok {
			continue
		}
		s.settled[tc.ID] = true
		c := s.calls[tc.ID]
		if c == nil {
			c = &copilotCall{tool: tc.Name, args: tc.Args}
		}
		s.emit(tc.ID, c, a, at, src, noUnstruct, count)
		count = false
	}
	if count {
		s.set.Skip(skipCopilotRan)
	}
	if len(s.settled) > inputs.MaxCalls {
		clear(s.settled)
	}
}

// complete reads a denial from a tool result, in a file without hook.end records for it.
func (s *copilotEvents) complete(d copilotData, at string, src findings.Source, elided bool) {
	var e copilotError
	_ = json.Unmarshal(d.Error, &e)
	c := s.calls[d.ToolCallID]
	delete(s.calls, d.ToolCallID)
	if c != nil || d.ToolCallID != "" {
		rc := c
		if rc == nil {
			rc = &copilotCall{}
		}
		hook := e.Code == "denied" && (strings.HasPrefix(e.Message, copilotDenied) || strings.HasPrefix(e.Message, copilotDeniedFrom))
		ev := inputs.CallEvent{Kind: inputs.CallResult, Source: src, Time: at, ID: d.ToolCallID, Tool: rc.tool,
			IsError: len(d.Error) > 0 && string(d.Error) != "null", Refused: hook}
		if ev.IsError && !elided {
			ev.Text = e.Message
		}
		s.note(ev, rc.slot)
	}
	switch {
	case e.Code != "denied":
		s.set.Skip(skipCopilotOutput)
		return
	case elided:
		s.set.Problemf(src, "unreadable record", "denied tool result of more than %d MiB: its text was cut, not read", inputs.ElideWindow>>20)
		return
	case strings.HasPrefix(e.Message, copilotPostBlocked):
		s.set.Skip(skipCopilotPost)
		return
	case s.settled[d.ToolCallID]:
		delete(s.settled, d.ToolCallID)
		s.set.Skip(skipCopilotSettled)
		return
	}
	a, noUnstruct, ok := copilotAnswer(e.Message, strings.HasPrefix(e.Message, copilotDeniedFrom), "")
	if !ok {
		s.set.Skip(skipCopilotOutput)
		return
	}
	if c == nil {
		c = &copilotCall{}
	}
	s.emit(d.ToolCallID, c, a, at, src, noUnstruct, true)
}

// skipCopilotOutput counts tool results no hook acted on.
const skipCopilotOutput = "tool output no hook acted on"

// copilotAnswer reads what Copilot recorded of a preToolUse answer: the text the model got for
// the call, and whether the hook errored with its error message. ok is false when the call ran.
// noUnstruct says the record kept no reason at all (exit 2): the binding's breach names the
// block, so it yields no unstructured finding of its own.
func copilotAnswer(text string, errored bool, errMsg string) (a gates.HookAnswer, noUnstruct, ok bool) {
	a.Event = copilotPreTool
	switch {
	case errored || strings.HasPrefix(text, copilotDeniedFrom):
		a.Failed = "crashed"
		if rest, found := strings.CutPrefix(errMsg, "Error: "); found {
			errMsg = rest
		}
		if code, rest, found := strings.Cut(strings.TrimPrefix(errMsg, copilotFailedCode), "\n"); found && strings.HasPrefix(errMsg, copilotFailedCode) {
			if n, err := strconv.Atoi(code); err == nil {
				a.HasExit, a.ExitCode = true, n
			}
			a.HasStderr, a.Stderr = true, strings.TrimPrefix(rest, "Stderr: ")
		}
		return a, false, true
	case strings.HasPrefix(text, copilotDenied+copilotExited):
		n, err := strconv.Atoi(strings.TrimPrefix(text, copilotDenied+copilotExited))
		if err != nil {
			break
		}
		a.HasExit, a.ExitCode = true, n
		return a, true, true
	case strings.HasPrefix(text, copilotDenied):
		a.Refused, a.RefusalText = true, strings.TrimPrefix(text, copilotDenied)
		return a, false, true
	}
	return a, false, false
}

// emit turns a call's recorded answer into its hook event, keyed by its place in the order of
// calls once the session is known; count says the record is counted here.
func (s *copilotEvents) emit(id string, c *copilotCall, a gates.HookAnswer, at string, src findings.Source, noUnstruct, count bool) {
	a.Tool = c.tool
	call := findings.Call{Runtime: agent.Copilot, Event: a.Event, Tool: c.tool, ToolUseID: id, Cwd: s.cwd}
	if len(c.args) <= inputs.MaxCallInput {
		call.Input = c.args
	} else {
		tc := Binding{}.ToolCall(c.tool, c.args)
		call.Command, call.FilePath = tc.Command, tc.FilePath
	}
	p := copilotPending{ev: inputs.HookEvent{Answer: a, Call: call, Source: src, Time: at}, slot: c.slot, noUnstruct: noUnstruct, count: count}
	if s.session == "" && len(s.pending) < inputs.MaxCalls {
		s.pending = append(s.pending, p)
		return
	}
	s.add(p)
}

// flush adds the events that waited for the session id (with no key when it never came).
func (s *copilotEvents) flush() {
	for _, p := range s.pendingCalls {
		s.sendCall(p)
	}
	s.pendingCalls = nil
	for _, p := range s.pending {
		s.add(p)
	}
	s.pending = nil
}

// add checks one event against the Copilot binding and counts its record.
func (s *copilotEvents) add(p copilotPending) {
	p.ev.Call.SessionID = s.session
	p.ev.Key = p.slot.Key(s.session) // "": keyed by the call id, which still matches these files
	p.ev.CallKey = s.opts.CallKey(p.slot, s.session)
	opts := s.opts
	if p.noUnstruct {
		opts.IncludeUnstructured = false
	}
	ok, why := inputs.AddHookEvent(p.ev, opts, s.set)
	switch {
	case !p.count:
	case ok:
		s.set.Use()
	default:
		s.set.Skip(why)
	}
}
