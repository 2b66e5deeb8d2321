package cline

import (
	"context"
	"fmt"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Stream is the format of `cline --json`'s stdout: one JSON record a line.
const Stream inputs.Format = "cline-stream"

// StreamFormat is the stream's format as the registry lists it: name, sniff, reader.
func StreamFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Stream, Sniff: sniffStream, Reader: streamReader{}}
}

// streamReader reads Cline's --json stream: {ts, type: hook_event | agent_event | run_result |
// run_aborted, …}. It keeps no hook answer: a hook_event says only that an event was
// dispatched (no call id, no answer), a tool's content_start shows the input as run (after a
// rewrite, with no trace of the original), and a PreToolUse cancel ends the run after the
// hook_event "tool_call" without naming the call. So every record is counted, and a run a cancel
// ended is said so in the skip reasons; the findings come from the messages JSON and the
// recorder's log.
type streamReader struct{}

// Skip reasons of stream records.
const (
	skipStreamRecord = "Cline stream record (keeps no hook answer)"
	skipStreamCancel = "Cline run ended by a PreToolUse cancel at a call the stream does not name (read the session's messages JSON or the recorder's log)"
)

// sniffStream recognises the stream by its first record: ts first, then a type of Cline's.
func sniffStream(h *inputs.Head) bool {
	key, _ := h.First()
	if inputs.RawStr(key) != "ts" {
		return false
	}
	switch inputs.RawStr(h.Get("type")) {
	case "hook_event", "agent_event", "run_result", "run_aborted":
		return true
	}
	return false
}

// streamRecord is the part of a stream line the reader uses.
type streamRecord struct {
	Type          string `json:"type"`
	HookEventName string `json:"hookEventName"`
	Event         struct {
		Type        string `json:"type"`
		ContentType string `json:"contentType"`
	} `json:"event"`
	FinishReason string `json:"finishReason"`
}

func (streamReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	pendingCall := false // a tool_call hook event with no tool started since
	cancelled := false
	err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, func(rec inputs.Record) error {
		var r streamRecord
		if _, ok := inputs.DecodeLine(set, in.Name, rec, "a Cline stream record", &r); !ok {
			return nil
		}
		switch {
		case r.Type == "hook_event" && r.HookEventName == "tool_call":
			pendingCall = true
		case r.Type == "agent_event" && r.Event.Type == "content_start" && r.Event.ContentType == "tool":
			pendingCall = false
		case r.Type == "hook_event" && r.HookEventName == "agent_error" && pendingCall:
			cancelled = true
		case r.Type == "run_aborted" && cancelled:
			set.Skip(skipStreamCancel)
			return nil
		}
		set.Skip(skipStreamRecord)
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}
