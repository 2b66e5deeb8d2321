package droid

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Stream is the format of `droid exec -o stream-json`'s output.
const Stream inputs.Format = "droid-stream"

// StreamFormat is the stream's format as the registry lists it: name, sniff, reader.
func StreamFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Stream, Sniff: sniffStream, Reader: streamReader{}}
}

// streamReader reads Droid's stream-json: system/init (session_id, tools), message, tool_call
// (the model's call id, toolName, parameters as the model sent them), tool_result (isError, value
// or error.message: what the model got) and completion. It tells of no hook run: a PreToolUse
// block shows only as an error result "Error: <reason or stderr>", read when that text carries an
// AGC response (a command's own failure does not). Calls are counted by order (a call's n-th
// time with those arguments in the session), as the recorder's log and the session transcript
// count the hook runs on them, so a block read here and there is one event.
type streamReader struct{}

// Skip reasons of stream records.
const (
	skipStreamInit   = "stream init"
	skipStreamResult = "tool result no hook blocked (or without an AGC response)"
	skipStreamOther  = "stream record of no hook"
)

// sniffStream recognises the stream by its first line: system/init with a session_id and a tool
// list that holds Execute, Droid's shell tool, and none of the members of Claude Code's init
// (uuid, permissionMode), whose stream-json starts alike.
func sniffStream(h *inputs.Head) bool {
	return inputs.RawStr(h.Get("type")) == "system" && inputs.RawStr(h.Get("subtype")) == "init" &&
		inputs.RawStr(h.Get("session_id")) != "" && bytes.Contains(h.Get("tools"), []byte(`"Execute"`)) &&
		h.Get("uuid") == nil && h.Get("permissionMode") == nil
}

// streamRecord is the part of a stream line the reader uses.
type streamRecord struct {
	Type       string          `json:"type"`
	Subtype    string          `json:"subtype"`
	SessionID  string          `json:"session_id"`
	Cwd        string          `json:"cwd"`
	ID         string          `json:"id"`
	ToolName   string          `json:"toolName"`
	Parameters json.RawMessage `json:"parameters"`
	IsError    bool            `json:"isError"`
	Value      json.RawMessage `json:"value"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// streamCall is a call the stream announced, with its place among the session's calls.
type streamCall struct {
	tool  string
	input json.RawMessage
	slot  inputs.OrdinalSlot
}

func (streamReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	keys := inputs.NewOrdinalKeys(opts)
	calls := map[string]streamCall{}
	session, cwd := "", ""
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, inputs.WithEdits(opts, in.Name, func(rec inputs.Record) error {
		var r streamRecord
		src, ok := inputs.DecodeLine(set, in.Name, rec, "a Factory Droid stream-json record", &r)
		if !ok {
			return nil
		}
		switch r.Type {
		case "system":
			if session == "" {
				session, cwd = r.SessionID, r.Cwd
			}
			set.Skip(skipStreamInit)
		case "tool_call":
			c := findings.Call{Runtime: agent.Droid, Event: "PreToolUse", Tool: r.ToolName, SessionID: session, Input: r.Parameters}
			if r.ID != "" && len(calls) < inputs.MaxOrdinalKeys {
				calls[r.ID] = streamCall{tool: r.ToolName, input: r.Parameters, slot: keys.Place(c, "")}
			}
			set.Skip(inputs.SkipToolCall)
		case "tool_result":
			c, known := calls[r.ID]
			text := inputs.JSONString(r.Value)
			if r.Error != nil && r.Error.Message != "" {
				text = r.Error.Message
			}
			reason, blocked := strings.CutPrefix(text, "Error: ")
			if !known || !r.IsError || !blocked {
				set.Skip(skipStreamResult)
				return nil
			}
			if rs, bs, _ := gates.FindResponses(reason); len(rs) == 0 && len(bs) == 0 {
				set.Skip(skipStreamResult)
				return nil
			}
			ev := inputs.HookEvent{
				Answer: gates.HookAnswer{Event: "PreToolUse", Tool: c.tool, Refused: true, RefusalText: reason, ToolInput: c.input},
				Call:   findings.Call{Runtime: agent.Droid, Event: "PreToolUse", Tool: c.tool, SessionID: session, Cwd: cwd, Input: c.input},
				Source: src,
				Key:    c.slot.Key(session),
			}
			ev.CallKey = opts.CallKey(c.slot, session)
			ok, why := inputs.AddHookEvent(ev, opts, set)
			if ok {
				set.Use()
			} else {
				set.Skip(why)
			}
		default:
			set.Skip(skipStreamOther)
		}
		return nil
	}))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}
