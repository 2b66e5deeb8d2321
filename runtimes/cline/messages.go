package cline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Messages is the format of a Cline session's transcript,
// ~/.cline/data/sessions/<id>/<id>.messages.json.
const Messages inputs.Format = "cline-messages"

// MessagesFormat is the transcript's format as the registry lists it: name, sniff, reader.
func MessagesFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Messages, Sniff: sniffMessages, Reader: messagesReader{}}
}

// messagesReader reads Cline's messages JSON: {version, sessionId, messages: [{role, content:
// [blocks]}]}, Anthropic-like blocks. It keeps no hook run, but three answers leave a trace:
//   - a context (contextModification) is a user text message <hook_context source="PreToolUse"
//     tool_name="run__commands" tool_call_id="call__2__0">…</hook_context> ("_" doubled);
//   - an overrideInput leaves the model's tool_use input as it asked and a tool_result whose
//     queries are the rewritten commands (run_commands);
//   - a cancel leaves the last tool_use without a result: the run ended there, but nothing of the
//     answer (its errorMessage is only in cline.log), so that call is counted as a skip of its
//     own reason and its finding comes from the recorder's log.
//
// One event per call and hook event, keyed by the session id and the model's call id as the
// recorder's log keys them (Binding.HookInput).
type messagesReader struct{}

// Skip reasons of transcript messages.
const (
	skipMessage = "message (read for its tool calls and hook contexts)"
	skipRan     = "tool call no hook answer shows in"
	skipCancel  = "Cline run ended at this call without its result (a PreToolUse cancel, whose answer the transcript does not keep: see the recorder's log)"
)

// sniffMessages recognises the transcript by its top-level members: sessionId and messages,
// with version or agent.
func sniffMessages(h *inputs.Head) bool {
	var session, messages, other bool
	h.Keys(func(k []byte) {
		switch string(k) {
		case "sessionId":
			session = true
		case "messages":
			messages = true
		case "version", "agent", "origin":
			other = true
		}
	})
	return session && messages && other && bytes.Contains(h.Raw(), []byte(`"role"`))
}

// transcript is the part of the file the reader uses.
type transcript struct {
	SessionID string    `json:"sessionId"`
	Messages  []message `json:"messages"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
	TS      int64   `json:"ts"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// hookContext matches a hook context message: its event, tool and call (with "_" doubled).
var hookContext = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)^<hook_context source="([^"]*)" tool_name="([^"]*)" tool_call_id="([^"]*)">\n(.*)\n</hook_context>$`)
})

// callState is what the transcript tells of one call.
type callState struct {
	id, tool  string
	input     json.RawMessage
	ran       []string // the commands its result names (run_commands), as run
	hasResult bool
	contexts  map[string][]string // by event
	order     int
}

func (messagesReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	max := opts.MaxRecord
	if max <= 0 {
		max = inputs.DefaultMaxRecord
	}
	data, err := io.ReadAll(io.LimitReader(in.R, int64(max)+1))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	src := findings.Source{File: in.Name, Line: 1}
	if len(data) > max {
		set.Problemf(src, "unreadable record", "Cline transcript of more than %d MiB: not read", max>>20)
		return nil
	}
	var t transcript
	if err := json.Unmarshal(data, &t); err != nil {
		set.Problemf(src, inputs.SkipBadJSON, "a Cline transcript: %v", err)
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	calls := map[string]*callState{}
	var order []*callState
	var last *callState
	for _, m := range t.Messages {
		for _, b := range m.Content {
			switch {
			case m.Role == "assistant" && b.Type == "tool_use" && b.ID != "":
				if calls[b.ID] != nil || len(calls) >= inputs.MaxCalls {
					continue
				}
				c := &callState{id: b.ID, tool: b.Name, input: b.Input, contexts: map[string][]string{}, order: len(order)}
				calls[b.ID], last = c, c
				order = append(order, c)
			case b.Type == "tool_result":
				if c := calls[b.ToolUseID]; c != nil {
					c.hasResult, c.ran = true, queries(b.Content)
				}
				last = nil
			case b.Type == "text" && m.Role == "user":
				sm := hookContext().FindStringSubmatch(b.Text)
				if sm == nil {
					continue
				}
				if c := calls[undouble(sm[3])]; c != nil {
					c.contexts[sm[1]] = append(c.contexts[sm[1]], sm[4])
				}
			}
		}
		set.Skip(skipMessage)
	}
	for _, c := range order {
		for _, ev := range c.events() {
			ev.Call.SessionID = t.SessionID
			ev.Source = src
			ok, why := inputs.AddHookEvent(ev, opts, set)
			if ok {
				set.Use()
			} else {
				set.Skip(why)
			}
		}
		switch {
		case last == c && !c.hasResult:
			set.Skip(skipCancel)
		case len(c.contexts) == 0 && !c.rewritten():
			set.Skip(skipRan)
		}
	}
	return nil
}

// undouble reads a name as hook_context attributes spell it: every "_" doubled.
func undouble(s string) string { return strings.ReplaceAll(s, "__", "_") }

// queries are the commands a run_commands result names, in order.
func queries(content json.RawMessage) []string {
	var rs []struct {
		Query *string `json:"query"`
	}
	if json.Unmarshal(content, &rs) != nil {
		return nil
	}
	var out []string
	for _, r := range rs {
		if r.Query == nil {
			return nil
		}
		out = append(out, *r.Query)
	}
	return out
}

// rewritten says the call's result names other commands than the model asked for: a hook's
// overrideInput ran instead.
func (c *callState) rewritten() bool {
	if c.tool != "run_commands" || !c.hasResult || c.ran == nil {
		return false
	}
	var in struct {
		Commands []string `json:"commands"`
	}
	if json.Unmarshal(c.input, &in) != nil || in.Commands == nil {
		return false
	}
	return strings.Join(in.Commands, "\x00") != strings.Join(c.ran, "\x00")
}

// events are the hook events the transcript shows for the call: its PreToolUse answer (a
// rewrite, contexts) and its PostToolUse contexts.
func (c *callState) events() []inputs.HookEvent {
	var out []inputs.HookEvent
	mk := func(event string, a Answer) {
		stdout := gates.JSONLine(a)
		call := findings.Call{Runtime: agent.Cline, Event: event, Tool: c.tool, ToolUseID: c.id}
		if len(c.input) <= inputs.MaxCallInput {
			call.Input = c.input
		}
		out = append(out, inputs.HookEvent{Call: call,
			Answer: gates.HookAnswer{Event: event, Tool: c.tool, HasStdout: true, Stdout: stdout, ToolInput: call.Input}})
	}
	var pre Answer
	prePresent := false
	if ctxs := c.contexts[preTool]; len(ctxs) > 0 {
		pre.ContextModification, _ = json.Marshal(strings.Join(ctxs, "\n"))
		prePresent = true
	}
	if c.rewritten() {
		pre.OverrideInput, _ = json.Marshal(map[string][]string{"commands": c.ran})
		prePresent = true
	}
	if prePresent {
		mk(preTool, pre)
	}
	if ctxs := c.contexts[postTool]; len(ctxs) > 0 {
		var post Answer
		post.ContextModification, _ = json.Marshal(strings.Join(ctxs, "\n"))
		mk(postTool, post)
	}
	return out
}
