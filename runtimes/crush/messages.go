package crush

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

// Messages is the format of Crush's messages dumped as JSON lines: one row of its store's
// messages table a line (id, session_id, role, parts, …), parts decoded or as stored (a JSON text).
const Messages inputs.Format = "crush-messages"

// MessagesFormat is the dump's format as the registry lists it: name, sniff, reader.
func MessagesFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Messages, Sniff: sniffMessages, Reader: messagesReader{}}
}

// messagesReader reads the messages dump, row by row as the store's reader does.
type messagesReader struct{}

// sniffMessages recognises the dump by its first row: a message with session_id, role, parts and
// is_summary_message, the columns of Crush's messages table.
func sniffMessages(h *inputs.Head) bool {
	return inputs.RawStr(h.Get("session_id")) != "" && inputs.RawStr(h.Get("role")) != "" &&
		h.Get("parts") != nil && h.Get("is_summary_message") != nil
}

func (messagesReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	st := newStore(in.Name, opts, set)
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		var r struct {
			SessionID string          `json:"session_id"`
			Role      string          `json:"role"`
			Parts     json.RawMessage `json:"parts"`
		}
		src, ok := inputs.DecodeLine(set, in.Name, rec, "a Crush message row", &r)
		if !ok {
			return nil
		}
		st.row(r.SessionID, r.Role, r.Parts, src)
		return nil
	}))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// Skip reasons of message rows.
const (
	skipRowText   = "message without tool results"
	skipRowNoHook = "tool results no hook answered"
	skipRowBad    = "message parts that are not JSON"
)

// store is the state of one file of messages (a dump or the store) being read, row by row in the
// order Crush wrote them.
type store struct {
	name  string
	opts  inputs.Options
	set   *findings.Set
	keys  *inputs.OrdinalKeys
	calls map[string]call // by session and the model's call id (ids repeat across sessions)
}

// call is a tool call a row recorded, for the result that names it.
type call struct {
	tool  string
	input json.RawMessage
}

func newStore(name string, opts inputs.Options, set *findings.Set) *store {
	return &store{name: name, opts: opts, set: set, keys: inputs.NewOrdinalKeys(opts), calls: map[string]call{}}
}

// part is one message part: tool_call (id, name, input as a JSON text) or tool_result
// (tool_call_id, content, metadata as a JSON text, is_error).
type part struct {
	Type string `json:"type"`
	Data struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		Input      string `json:"input"`
		ToolCallID string `json:"tool_call_id"`
		Content    string `json:"content"`
		Metadata   string `json:"metadata"`
	} `json:"data"`
}

// hookMeta is the hook metadata Crush keeps in a tool result: the merged answer and each hook's.
type hookMeta struct {
	Hook *struct {
		Count int        `json:"hook_count"`
		Hooks []hookItem `json:"hooks"`
	} `json:"hook"`
}

// hookItem is one hook's answer as Crush recorded it (its context is not kept).
type hookItem struct {
	Name         string `json:"name"`
	Decision     string `json:"decision"`
	Halt         bool   `json:"halt"`
	Reason       string `json:"reason"`
	InputRewrite bool   `json:"input_rewrite"`
}

// row reads one message row: its calls are kept, each hook answer of its results is a hook event.
func (st *store) row(session, role string, raw json.RawMessage, src findings.Source) {
	var parts []part
	if s := inputs.JSONString(raw); s != "" {
		raw = json.RawMessage(s) // parts as stored: a JSON text
	}
	if json.Unmarshal(raw, &parts) != nil {
		st.set.Skip(skipRowBad)
		return
	}
	used, why, results := false, skipRowText, false
	for _, p := range parts {
		switch p.Type {
		case "tool_call":
			if p.Data.ID != "" && len(st.calls) < inputs.MaxOrdinalKeys {
				var in json.RawMessage
				if json.Valid([]byte(p.Data.Input)) {
					in = json.RawMessage(p.Data.Input)
				}
				st.calls[session+"\x00"+p.Data.ID] = call{tool: p.Data.Name, input: in}
			}
			why = inputs.SkipToolCall
		case "tool_result":
			results = true
			ok, w := st.result(session, p, src)
			if ok {
				used = true
			} else if w != "" && !used {
				why = w
			}
		}
	}
	switch {
	case used:
		st.set.Use()
	case results && why == skipRowText:
		st.set.Skip(skipRowNoHook)
	default:
		st.set.Skip(why)
	}
}

// result reads the hook answers a tool result's metadata keeps.
func (st *store) result(session string, p part, src findings.Source) (bool, string) {
	var m hookMeta
	if json.Unmarshal([]byte(p.Data.Metadata), &m) != nil || m.Hook == nil {
		return false, skipRowNoHook
	}
	c := st.calls[session+"\x00"+p.Data.ToolCallID]
	if c.tool == "" {
		c.tool = p.Data.Name
	}
	used, why := false, skipRowNoHook
	for _, h := range m.Hook.Hooks {
		ctx := ""
		if m.Hook.Count == 1 {
			ctx = p.Data.Content // Crush appends a delivered context to the result
		}
		hook := st.opts.Redact(h.Name)
		a := gates.HookAnswer{Event: "PreToolUse", Tool: c.tool, Hook: hook, HasStdout: true, Stdout: h.answer(ctx), ToolInput: c.input}
		ev := inputs.HookEvent{
			Answer: a,
			Call: findings.Call{Runtime: agent.Crush, Event: "PreToolUse", Tool: c.tool, SessionID: session,
				Hook: hook, HookIsName: true, Input: c.input},
			Source: src,
		}
		slot := st.keys.NextSlot(ev.Call, hook)
		ev.Key, ev.CallKey = slot.Key(session), st.opts.CallKey(slot, session)
		inputs.NoteHookCall(st.opts, ev, nil)
		ok, w := inputs.AddHookEvent(ev, st.opts, st.set)
		if ok {
			used = true
		} else if !used {
			why = w
		}
	}
	return used, why
}

// answer is the hook's answer as Crush's envelope, rebuilt from what the metadata keeps: the
// decision, halt, reason and whether the input was rewritten (not to what). ctx is the result
// the model got, which holds a delivered context; it is read only when the call ran (a deny's
// context is dropped, and its result is the reason).
func (h hookItem) answer(ctx string) string {
	env := map[string]any{}
	if h.Decision != "" && h.Decision != "none" {
		env["decision"] = h.Decision
	}
	if h.Reason != "" {
		env["reason"] = h.Reason
	}
	if h.Halt {
		env["halt"] = true
	}
	if h.InputRewrite {
		env["updated_input"] = map[string]any{}
	}
	if h.Decision != "deny" && !h.Halt {
		if rs, bs, _ := gates.FindResponses(ctx); len(rs) > 0 || len(bs) > 0 {
			env["context"] = contextLines(ctx)
		}
	}
	if len(env) == 0 {
		return ""
	}
	return gates.JSONLine(env)
}

// contextLines are the lines of a result that carry an AGC response (a JSON object or the text
// form), the context Crush appended after the tool's output.
func contextLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if rs, bs, _ := gates.FindResponses(l); len(rs) > 0 || len(bs) > 0 {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
