package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Rollout is the format of an OpenAI Codex CLI session rollout.
const Rollout inputs.Format = "codex-rollout"

// RolloutFormat is the rollout's format as the registry lists it: name, sniff, reader.
func RolloutFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Rollout, Sniff: sniffCodexRollout, Reader: codexRolloutReader{}}
}

// codexRolloutReader reads a Codex CLI session rollout (CODEX_HOME/sessions/…/rollout-*.jsonl).
// It keeps no hook-run record (docs/runtimes.md), so a hook event is read from what the model saw:
// a PreToolUse block as the function_call_output text "Command blocked by PreToolUse hook:
// <reason>. Command: <cmd>", and additionalContext as a developer message of kind
// hooks.additional_context, which belongs to the call just made. The recorder's log of the same
// run holds the whole answer; both name the call by its call_id, so one event is one finding.
type codexRolloutReader struct{}

// codexBlockPrefix starts the text Codex gives the model for a call a PreToolUse hook blocked.
const codexBlockPrefix = "Command blocked by PreToolUse hook: "

// Skip reasons of rollout records that are no hook event by themselves.
const (
	skipCodexContext = "hook context (its call's event follows)"
	skipCodexOutput  = "tool output no hook acted on"
)

// sniffCodexRollout recognises a rollout by its first record: a session_meta whose payload
// names a Codex originator or CLI version.
func sniffCodexRollout(h *inputs.Head) bool {
	if !inputs.RawIs(h.Get("type"), "session_meta") {
		return false
	}
	p := jsonscan.Lookup(h.Get("payload"), "originator", "cli_version")
	return strings.HasPrefix(inputs.RawStr(p[0]), "codex") || p[1] != nil
}

// rolloutRecord is the part of a rollout line the reader uses.
type rolloutRecord struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Cwd       string          `json:"cwd"`
		Name      string          `json:"name"`
		CallID    string          `json:"call_id"`
		Arguments string          `json:"arguments"`
		Output    json.RawMessage `json:"output"`
		Role      string          `json:"role"`
		Content   []struct {
			Text string `json:"text"`
		} `json:"content"`
		Meta struct {
			Kinds []string `json:"content_item_kinds"`
		} `json:"internal_chat_message_metadata_passthrough"`
	} `json:"payload"`
}

// codexCall is a function call of the rollout whose hook event is not settled yet.
type codexCall struct {
	id, tool, command, time string
	contexts                []string
	pending                 bool // in withCtx
	src                     findings.Source
}

// codexRollout is the state of one rollout being read.
type codexRollout struct {
	name     string
	opts     inputs.Options
	set      *findings.Set
	session  string
	cwd      string
	calls    map[string]*codexCall
	last     string   // call_id of the call made last: the one a hook context belongs to
	withCtx  []string // call ids that got a context and no output yet, in order
	maxCalls int
}

func (codexRolloutReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := &codexRollout{name: in.Name, opts: opts, set: set, calls: map[string]*codexCall{}, maxCalls: inputs.MaxCalls}
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		s.record(rec)
		return nil
	}))
	for _, id := range s.withCtx {
		if c := s.calls[id]; c != nil {
			s.emit(c, "", false, false) // a context whose call never got an output (the run ended)
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// record reads one rollout line: every line is used or counted as a skip with its reason.
func (s *codexRollout) record(rec inputs.Record) {
	var r rolloutRecord
	src, ok := inputs.DecodeLine(s.set, s.name, rec, "a rollout record", &r)
	if !ok {
		return
	}
	p := &r.Payload
	switch {
	case r.Type == "session_meta":
		s.session, s.cwd = p.ID, p.Cwd
		s.set.Skip(inputs.SkipNotHook)
	case r.Type == "response_item" && p.Type == "function_call":
		s.call(p.CallID, p.Name, p.Arguments, r.Timestamp, src)
		s.set.Skip(inputs.SkipToolCall)
	case r.Type == "response_item" && p.Type == "message" && p.Role == "developer" && hookContext(p.Meta.Kinds):
		s.context(p.Content, src)
	case r.Type == "response_item" && p.Type == "function_call_output":
		s.output(p.CallID, p.Output, src)
	default:
		s.set.Skip(inputs.SkipNotHook)
	}
}

// hookContext reports whether a developer message's items came from a hook's additionalContext.
func hookContext(kinds []string) bool {
	for _, k := range kinds {
		if k == "hooks.additional_context" {
			return true
		}
	}
	return false
}

// call remembers a function call, bounded like the Claude readers' call tables.
func (s *codexRollout) call(id, name, args, at string, src findings.Source) {
	if id == "" {
		return
	}
	var in map[string]json.RawMessage
	_ = json.Unmarshal([]byte(args), &in)
	cmd := inputs.JSONString(in["cmd"])
	if cmd == "" {
		cmd = inputs.JSONString(in["command"])
	}
	if len(s.calls) >= s.maxCalls {
		for k := range s.calls {
			delete(s.calls, k) // forget an old call: its event, if any, is read from its output text
			break
		}
	}
	tool := HookTool(name)
	s.calls[id] = &codexCall{id: id, tool: tool, command: cmd, time: at, src: src}
	s.last = id
	if s.opts.ReadsCalls() {
		s.opts.Sink.Call(inputs.CallEvent{Kind: inputs.CallUse, Source: src, Time: at, Session: s.session, Cwd: s.cwd,
			ID: id, Tool: tool, Input: codexHookInput(tool, cmd, args)})
	}
}

// codexHookInput is a call's tool input as Codex's hooks get it (and the recorder logs it), so
// that the timeline compares it with the log's: a shell call's is {"command": …} whatever the
// model's arguments were named; any other call's is its arguments.
func codexHookInput(tool, cmd, args string) []byte {
	if tool == HookTool("") && cmd != "" { // the shell tool, as the hooks name it
		b, err := json.Marshal(struct {
			Command string `json:"command"`
		}{cmd})
		if err == nil {
			return inputs.KeepInput(b)
		}
	}
	return inputs.KeepInput([]byte(args))
}

// context adds a hook's additionalContext to the call made last.
func (s *codexRollout) context(content []struct {
	Text string `json:"text"`
}, src findings.Source) {
	c := s.calls[s.last]
	if c == nil {
		s.set.Problemf(src, inputs.SkipNotHook, "hook context with no function call before it")
		return
	}
	for _, t := range content {
		c.contexts = append(c.contexts, t.Text)
	}
	if !c.pending {
		c.pending = true
		s.withCtx = append(s.withCtx, c.id)
	}
	s.set.Skip(skipCodexContext)
}

// output settles the event of a call: a block text, or the contexts it got.
func (s *codexRollout) output(id string, raw json.RawMessage, src findings.Source) {
	text := inputs.JSONString(raw)
	c := s.calls[id]
	delete(s.calls, id)
	blocked := strings.HasPrefix(text, codexBlockPrefix)
	if c == nil {
		c = &codexCall{id: id, tool: HookTool("")}
	}
	if s.opts.ReadsCalls() && id != "" {
		ev := inputs.CallEvent{Kind: inputs.CallResult, Source: src, Session: s.session, ID: id, Tool: c.tool,
			IsError: blocked, Refused: blocked}
		if blocked {
			ev.Text = text
		}
		s.opts.Sink.Call(ev)
	}
	if !blocked && len(c.contexts) == 0 {
		s.set.Skip(skipCodexOutput)
		return
	}
	reason := ""
	if blocked {
		reason = strings.TrimPrefix(text, codexBlockPrefix)
		if i := strings.LastIndex(reason, ". Command: "); i >= 0 {
			if c.command == "" {
				c.command = reason[i+len(". Command: "):]
			}
			reason = reason[:i]
		}
	}
	c.src = src
	s.emit(c, reason, blocked, true)
}

// emit turns a call's evidence into its hook event, and counts the record that settled it when
// count is set (the context records of a call that got no output were counted already).
func (s *codexRollout) emit(c *codexCall, reason string, blocked, count bool) {
	for i, id := range s.withCtx {
		if id == c.id {
			s.withCtx = append(s.withCtx[:i], s.withCtx[i+1:]...)
			break
		}
	}
	ev := inputs.HookEvent{
		Answer: gates.HookAnswer{Event: "PreToolUse", Tool: c.tool, AdditionalContext: c.contexts, ContextComplete: true,
			Refused: blocked, RefusalText: reason},
		Call: findings.Call{Runtime: agent.Codex, Event: "PreToolUse", Tool: c.tool, ToolUseID: c.id,
			SessionID: s.session, Cwd: s.cwd, Command: c.command},
		Source: c.src,
		Time:   c.time,
	}
	ok, why := inputs.AddHookEvent(ev, s.opts, s.set)
	switch {
	case !count:
	case ok:
		s.set.Use()
	default:
		s.set.Skip(why)
	}
}
