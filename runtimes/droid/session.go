package droid

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

// Session is the format of a Factory Droid session transcript (~/.factory/sessions/<project
// slug>/<session>.jsonl, the hooks' transcript_path).
const Session inputs.Format = "droid-session"

// SessionFormat is the session transcript's format as the registry lists it: name, sniff, reader.
func SessionFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Session, Sniff: sniffSession, Reader: sessionReader{}}
}

// sessionReader reads a Droid session transcript: a session_start line, then message records in
// Anthropic's shape (tool_use blocks with the model's call id and original input, tool_result
// blocks) and one record per hook run: a user message with no content whose hookEventName,
// hookCommands and hookResults (exitCode, stdout, stderr, one per command) tell the whole answer,
// and whose hookToolCallId names the tool_use it ran for. The recorder's log names no call (Droid's
// hook input has no call id), so both are keyed by order (inputs.OrdinalKeys): the n-th run of a
// hook on a call of that session with those arguments. After a rewrite Droid hands PostToolUse the
// rewritten input while the session keeps the model's, so such a PostToolUse is keyed apart.
type sessionReader struct{}

// Skip reasons of session records.
const (
	skipSessionStart = "session start"
	skipSessionText  = "message without hook runs"
	skipSessionOther = "session record of no hook"
)

// sniffSession recognises a session transcript by its first line: a session_start with an id, a
// cwd and a hostId.
func sniffSession(h *inputs.Head) bool {
	return inputs.RawStr(h.Get("type")) == "session_start" && inputs.RawStr(h.Get("id")) != "" &&
		h.Get("cwd") != nil && h.Get("hostId") != nil
}

// sessionRecord is the part of a session line the reader uses.
type sessionRecord struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Cwd       string `json:"cwd"`
	Timestamp string `json:"timestamp"`
	Message   *struct {
		Role    string `json:"role"`
		Content []struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"content"`
		HookEventName string `json:"hookEventName"`
		HookCommands  []struct {
			Command string `json:"command"`
		} `json:"hookCommands"`
		HookResults []struct {
			ExitCode *int    `json:"exitCode"`
			Stdout   *string `json:"stdout"`
			Stderr   *string `json:"stderr"`
		} `json:"hookResults"`
		HookToolCallID string `json:"hookToolCallId"`
	} `json:"message"`
}

// call is a tool call the session recorded, for the hook runs that name it.
type call struct {
	tool  string
	input json.RawMessage
}

// session is the state of one session file being read.
type session struct {
	name    string
	opts    inputs.Options
	set     *findings.Set
	keys    *inputs.OrdinalKeys
	id, cwd string
	calls   map[string]call // by the model's call id
}

func (sessionReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := &session{name: in.Name, opts: opts, set: set, keys: inputs.NewOrdinalKeys(opts), calls: map[string]call{}}
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		s.record(rec)
		return nil
	}))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// record reads one session line: every line is used or counted as a skip with its reason.
func (s *session) record(rec inputs.Record) {
	var r sessionRecord
	src, ok := inputs.DecodeLine(s.set, s.name, rec, "a Factory Droid session record", &r)
	if !ok {
		return
	}
	switch {
	case r.Type == "session_start":
		if s.id == "" {
			s.id, s.cwd = r.ID, r.Cwd
		}
		s.set.Skip(skipSessionStart)
	case r.Type != "message" || r.Message == nil:
		s.set.Skip(skipSessionOther)
	case r.Message.HookEventName != "":
		s.hookRuns(&r, src, rec.Elided)
	default:
		noted := false
		for _, b := range r.Message.Content {
			if b.Type == "tool_use" && b.ID != "" && len(s.calls) < inputs.MaxOrdinalKeys {
				s.calls[b.ID] = call{tool: b.Name, input: b.Input}
				noted = true
			}
		}
		if noted {
			s.set.Skip(inputs.SkipToolCall)
		} else {
			s.set.Skip(skipSessionText)
		}
	}
}

// hookRuns reads a hook record: each command's result is one hook event, as the recorder's log
// would give it for the same run.
func (s *session) hookRuns(r *sessionRecord, src findings.Source, elided bool) {
	m := r.Message
	c := s.calls[m.HookToolCallID]
	used, why := false, inputs.SkipNotHook
	for i, res := range m.HookResults {
		for _, t := range []*string{res.Stdout, res.Stderr} {
			if elided && t != nil && len(*t) >= inputs.ElideKeep-8 {
				s.set.Problemf(src, "unreadable record", "hook output of more than %d KiB in a record of more than %d MiB: not read", inputs.ElideKeep>>10, inputs.ElideWindow>>20)
				return
			}
		}
		hook := ""
		if i < len(m.HookCommands) {
			hook = s.opts.Redact(m.HookCommands[i].Command)
		}
		a := gates.HookAnswer{Event: m.HookEventName, Tool: c.tool, Hook: hook, HasExit: res.ExitCode != nil,
			HasStdout: res.Stdout != nil, HasStderr: res.Stderr != nil, ToolInput: c.input}
		if res.ExitCode != nil {
			a.ExitCode = *res.ExitCode
		}
		if res.Stdout != nil {
			a.Stdout = *res.Stdout
		}
		if res.Stderr != nil {
			a.Stderr = *res.Stderr
		}
		ev := inputs.HookEvent{
			Answer: a,
			Call: findings.Call{Runtime: agent.Droid, Event: m.HookEventName, Tool: c.tool, SessionID: s.id,
				Hook: hook, Cwd: s.cwd, Input: c.input},
			Source: src,
			Time:   strings.TrimSpace(r.Timestamp),
		}
		if c.tool != "" {
			slot := s.keys.NextSlot(ev.Call, hook)
			ev.Key, ev.CallKey = slot.Key(s.id), s.opts.CallKey(slot, s.id)
			inputs.NoteHookCall(s.opts, ev, nil)
		}
		ok, w := inputs.AddHookEvent(ev, s.opts, s.set)
		if ok {
			used = true
		} else if !used {
			why = w
		}
	}
	if used {
		s.set.Use()
	} else {
		s.set.Skip(why)
	}
}
