package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Stream is the format of Gemini CLI's `--output-format stream-json` output.
const Stream inputs.Format = "gemini-stream"

// StreamFormat is the stream's format as the registry lists it: name, sniff, reader.
func StreamFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Stream, Sniff: sniffGeminiStream, Reader: geminiStreamReader{}}
}

// geminiStreamReader reads Gemini CLI's stream-json: init (session_id), message, tool_use
// (tool_id, tool_name, the arguments the model sent), tool_result (status, output, error type)
// and result. It keeps no hook event: a BeforeTool block is the tool_result with status "error",
// error type "policy_violation" and the text "Tool execution blocked: <reason>". The call is keyed
// by order (OrdinalKeys), so a block also read from the telemetry or the recorder's log is one
// finding.
type geminiStreamReader struct{}

// geminiBlockPrefix starts the text Gemini gives the model for a call a BeforeTool hook blocked.
const geminiBlockPrefix = "Tool execution blocked: "

// Skip reasons of Gemini records that are no hook event by themselves.
const (
	skipGeminiStart  = "session start"
	skipGeminiText   = "message"
	skipGeminiResult = "tool result no hook blocked"
	skipGeminiAfter  = "tool result blocked after the call (AfterTool: read from the telemetry or the recorder's log)"
	skipGeminiEnd    = "run result"
)

// sniffGeminiStream recognises the stream by its first line: an init record with session_id and
// model.
func sniffGeminiStream(h *inputs.Head) bool {
	return inputs.RawIs(h.Get("type"), "init") && inputs.RawStr(h.Get("session_id")) != "" && inputs.RawStr(h.Get("model")) != ""
}

// geminiStreamRecord is the part of a stream-json line the reader uses.
type geminiStreamRecord struct {
	Type       string          `json:"type"`
	Timestamp  string          `json:"timestamp"`
	SessionID  string          `json:"session_id"`
	Model      string          `json:"model"`
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	Status     string          `json:"status"`
	Output     json.RawMessage `json:"output"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// geminiCall is a tool call whose result is not read yet, with its key.
type geminiCall struct {
	tool, key, callKey, time string
	input                    json.RawMessage
}

// geminiCalls is the state Gemini's call files (stream-json, session JSONL) share: the session,
// the calls made and not settled, and their keys.
type geminiCalls struct {
	name    string
	opts    inputs.Options
	set     *findings.Set
	session string
	cwd     string
	calls   map[string]*geminiCall
	keys    *inputs.OrdinalKeys
}

func newGeminiCalls(name string, opts inputs.Options, set *findings.Set) *geminiCalls {
	return &geminiCalls{name: name, opts: opts, set: set, calls: map[string]*geminiCall{}, keys: inputs.NewOrdinalKeys(opts)}
}

// call numbers a call by its arguments, remembers it until its result, bounded like the Claude
// readers' call tables, and hands it to the timeline. It reports false for a call id seen before.
func (g *geminiCalls) call(id, tool string, input json.RawMessage, at string, src findings.Source) bool {
	if _, ok := g.calls[id]; ok || id == "" {
		return false
	}
	if len(g.calls) >= inputs.MaxCalls {
		for k := range g.calls {
			delete(g.calls, k) // forget an old call: a block of it is then read without its key
			break
		}
	}
	c := findings.Call{Runtime: agent.Gemini, Event: "BeforeTool", Tool: tool, SessionID: g.session, Input: input}
	slot := g.keys.NextSlot(c, "")
	gc := &geminiCall{tool: tool, key: slot.Key(g.session), callKey: g.opts.CallKey(slot, g.session), time: at, input: inputs.KeepInput(input)}
	g.calls[id] = gc
	if g.opts.ReadsCalls() {
		g.opts.Sink.Call(inputs.CallEvent{Kind: inputs.CallUse, Source: src, Time: at, Session: g.session, Cwd: g.cwd,
			ID: id, Key: gc.callKey, Tool: tool, Input: inputs.KeepInput(input)})
	}
	return true
}

// result hands the timeline a call's result: an error (with its text), and whether a hook
// refused the call. It is read before the call is settled (block forgets it).
func (g *geminiCalls) result(id string, isError bool, text string, refused bool, at string, src findings.Source) {
	if !g.opts.ReadsCalls() {
		return
	}
	ev := inputs.CallEvent{Kind: inputs.CallResult, Source: src, Time: at, Session: g.session, ID: id, IsError: isError, Refused: refused}
	if c := g.calls[id]; c != nil {
		ev.Key, ev.Tool = c.callKey, c.tool
	}
	if isError {
		ev.Text = text
	}
	g.opts.Sink.Call(ev)
}

// block turns the refusal text of a blocked call into its BeforeTool hook event. It reports
// whether a finding was added, or else the skip reason.
func (g *geminiCalls) block(id, reason string, src findings.Source) (bool, string) {
	c := g.calls[id]
	delete(g.calls, id)
	if c == nil {
		c = &geminiCall{}
	}
	ev := inputs.HookEvent{
		Answer: gates.HookAnswer{Event: "BeforeTool", Tool: c.tool, Refused: true, RefusalText: reason},
		Call: findings.Call{Runtime: agent.Gemini, Event: "BeforeTool", Tool: c.tool, ToolUseID: id,
			SessionID: g.session, Cwd: g.cwd, Input: c.input},
		Source:  src,
		Time:    c.time,
		Key:     c.key,
		CallKey: c.callKey,
	}
	return inputs.AddHookEvent(ev, g.opts, g.set)
}

// count counts a record: used when it added a finding, else skipped with its reason.
func (g *geminiCalls) count(ok bool, why string) { countRecord(g.set, ok, why) }

// countRecord counts a record in set: used when it added a finding, else skipped with why.
func countRecord(set *findings.Set, ok bool, why string) {
	if ok {
		set.Use()
		return
	}
	set.Skip(why)
}

// ReadRecords calls fn for each record of in (windowed: a long line reaches fn as its skeleton)
// and names the file in an I/O error.
func ReadRecords(ctx context.Context, in inputs.Input, opts inputs.Options, fn func(inputs.Record)) error {
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		fn(rec)
		return nil
	}))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

func (geminiStreamReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	return ReadRecords(ctx, in, opts, newGeminiCalls(in.Name, opts, set).streamRecord)
}

// streamRecord reads one stream-json line: every line is used or counted as a skip.
func (g *geminiCalls) streamRecord(rec inputs.Record) {
	var r geminiStreamRecord
	src, ok := inputs.DecodeLine(g.set, g.name, rec, "a Gemini stream-json record", &r)
	if !ok {
		return
	}
	switch r.Type {
	case "init":
		g.session = r.SessionID
		g.set.Skip(skipGeminiStart)
	case "tool_use":
		g.call(r.ToolID, r.ToolName, r.Parameters, r.Timestamp, src)
		g.set.Skip(inputs.SkipToolCall)
	case "tool_result":
		g.count(g.streamResult(r, src))
	case "result":
		g.set.Skip(skipGeminiEnd)
	case "message":
		g.set.Skip(skipGeminiText)
	default:
		g.set.Skip(inputs.SkipNotHook)
	}
}

// streamResult settles a call from its tool_result.
func (g *geminiCalls) streamResult(r geminiStreamRecord, src findings.Source) (bool, string) {
	text := inputs.JSONString(r.Output)
	if r.Error != nil && r.Error.Message != "" {
		text = r.Error.Message
	}
	blocked := r.Status == "error" && strings.HasPrefix(text, geminiBlockPrefix)
	g.result(r.ToolID, r.Status == "error", text, blocked, r.Timestamp, src)
	if !blocked {
		delete(g.calls, r.ToolID)
		if r.Status == "error" && strings.HasPrefix(text, "Tool result blocked: ") {
			return false, skipGeminiAfter
		}
		return false, skipGeminiResult
	}
	return g.block(r.ToolID, strings.TrimPrefix(text, geminiBlockPrefix), src)
}
