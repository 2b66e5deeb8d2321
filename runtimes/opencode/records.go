package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// The formats of OpenCode's (and Kilo Code's) own records.
const (
	// Export is `opencode export <session>` (`kilo export`): {info, messages: [{info, parts}]}.
	Export inputs.Format = "opencode-export"
	// Stream is `opencode run --format json` (`kilo run`): one {type, sessionID, part} a line.
	Stream inputs.Format = "opencode-stream"
)

// ExportFormat is the export's format as the registry lists it: name, sniff, reader.
func ExportFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Export, Sniff: sniffExport, Reader: recordsReader{export: true}}
}

// StreamFormat is the stream's format as the registry lists it: name, sniff, reader.
func StreamFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Stream, Sniff: sniffStream, Reader: recordsReader{}}
}

// recordsReader reads the tool parts of either record ({type: "tool", tool, callID, sessionID,
// state: {status, input, output, error, metadata}}); both keep the same parts, so reading them
// together gives one result per event (keyed by session and callID, as the bridge's stdin names
// them). What they show:
//   - a part with status "error" and no output of its own (metadata.output) is a call a plugin
//     stopped before it ran: its error is the text the plugin threw (a deny's reason, an exit 2's
//     stderr, a native guard's message), read when it carries an AGC response, or a plugin's
//     crash (failed closed); other errors are the tool's own;
//   - an error part with metadata.output is a throw after the call: it ran, the model got only the
//     error;
//   - text agc-hooks.js added to an output, <agc-hook event="PreToolUse">…</agc-hook>, is a context
//     of that event (a rewrite's AGC response among them: the parts keep only the rewritten call).
//
// The records do not say which runtime wrote them; Kilo Code's parts carry metrics (text parts)
// and metadata.approval (tool parts), OpenCode's do not, so the runtime is decided per file and
// the events are added at its end.
type recordsReader struct{ export bool }

// Skip reasons of the records.
const (
	skipNotTool   = "not a tool call"
	skipToolRan   = "tool call no plugin answer shows in"
	skipToolError = "tool error without an AGC response or a plugin's crash (the tool's own)"
)

// sniffExport recognises an export: {"info": {…"slug"…}, "messages": …}.
func sniffExport(h *inputs.Head) bool {
	key, _ := h.First()
	return inputs.RawStr(key) == "info" && bytes.Contains(h.Raw(), []byte(`"slug"`)) && bytes.Contains(h.Raw(), []byte(`"messages"`))
}

// sniffStream recognises the stream by its first record: type, timestamp, sessionID, part.
func sniffStream(h *inputs.Head) bool {
	key, _ := h.First()
	if inputs.RawStr(key) != "type" {
		return false
	}
	switch inputs.RawStr(h.Get("type")) {
	case "step_start", "text", "tool_use", "step_finish", "error", "reasoning":
		return len(h.Get("sessionID")) > 0
	}
	return false
}

// part is a message part, as far as the reader uses it.
type part struct {
	Type      string          `json:"type"`
	Tool      string          `json:"tool"`
	CallID    string          `json:"callID"`
	SessionID string          `json:"sessionID"`
	Metrics   json.RawMessage `json:"metrics"`
	State     struct {
		Status   string          `json:"status"`
		Input    json.RawMessage `json:"input"`
		Output   json.RawMessage `json:"output"`
		Error    json.RawMessage `json:"error"`
		Metadata struct {
			Output   json.RawMessage `json:"output"`
			Approval json.RawMessage `json:"approval"`
		} `json:"metadata"`
	} `json:"state"`
}

// hookNote matches the text agc-hooks.js adds to an output.
var hookNote = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)<agc-hook event="(PreToolUse|PostToolUse)">\n(.*?)\n</agc-hook>`)
})

// reading is the state of one file being read.
type reading struct {
	name   string
	opts   inputs.Options
	set    *findings.Set
	kilo   bool
	events []inputs.HookEvent
}

func (r recordsReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	s := &reading{name: in.Name, opts: opts, set: set}
	if r.export {
		if err := s.readExport(ctx, in); err != nil {
			return err
		}
	} else {
		err := inputs.ScanWindowed(ctx, in.R, opts.MaxRecord, func(rec inputs.Record) error {
			var line struct {
				Type string `json:"type"`
				Part *part  `json:"part"`
			}
			src, ok := inputs.DecodeLine(set, in.Name, rec, "an OpenCode stream record", &line)
			if ok {
				s.part(line.Part, src)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
	}
	s.flush()
	return nil
}

// readExport reads the export document whole (up to the record limit).
func (s *reading) readExport(ctx context.Context, in inputs.Input) error {
	max := s.opts.MaxRecord
	if max <= 0 {
		max = inputs.DefaultMaxRecord
	}
	data, err := io.ReadAll(io.LimitReader(in.R, int64(max)+1))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	src := findings.Source{File: in.Name, Line: 1}
	if len(data) > max {
		s.set.Problemf(src, "unreadable record", "OpenCode export of more than %d MiB: not read", max>>20)
		return nil
	}
	var doc struct {
		Messages []struct {
			Parts []*part `json:"parts"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		s.set.Problemf(src, inputs.SkipBadJSON, "an OpenCode export: %v", err)
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, m := range doc.Messages {
		for _, p := range m.Parts {
			s.part(p, src)
		}
	}
	return nil
}

// part reads one part: every part is counted as used or skipped.
func (s *reading) part(p *part, src findings.Source) {
	if p == nil {
		s.set.Skip(skipNotTool)
		return
	}
	if len(p.Metrics) > 0 || len(p.State.Metadata.Approval) > 0 {
		s.kilo = true
	}
	if p.Type != "tool" {
		s.set.Skip(skipNotTool)
		return
	}
	call := findings.Call{Tool: p.Tool, ToolUseID: p.CallID, SessionID: p.SessionID}
	if len(p.State.Input) <= inputs.MaxCallInput && gates.Present(p.State.Input) {
		call.Input = p.State.Input
	}
	add := func(event string, a gates.HookAnswer) {
		a.Event, a.Tool, a.ToolInput = event, p.Tool, call.Input
		c := call
		c.Event = event
		if len(s.events) < inputs.MaxCalls {
			s.events = append(s.events, inputs.HookEvent{Answer: a, Call: c, Source: src})
		}
	}
	errText := inputs.JSONString(p.State.Error)
	ran := gates.Present(p.State.Metadata.Output)
	switch {
	case p.State.Status == "error" && !ran && (PluginCrash(errText) || hasAGC(errText)):
		add("PreToolUse", gates.HookAnswer{Refused: true, RefusalText: errText})
	case p.State.Status == "error" && ran && hasAGC(errText):
		add("PostToolUse", gates.HookAnswer{Blocked: true, BlockReason: errText})
	case p.State.Status == "error":
		s.set.Skip(skipToolError)
		return
	default:
		notes := hookNote().FindAllStringSubmatch(inputs.JSONString(p.State.Output), -1)
		if len(notes) == 0 {
			s.set.Skip(skipToolRan)
			return
		}
		by := map[string][]string{}
		var order []string
		for _, n := range notes {
			if by[n[1]] == nil {
				order = append(order, n[1])
			}
			by[n[1]] = append(by[n[1]], n[2])
		}
		for _, e := range order {
			add(e, gates.HookAnswer{AdditionalContext: by[e], ContextComplete: true})
		}
	}
}

// hasAGC says a text carries an AGC response (JSON or the text form).
func hasAGC(s string) bool {
	rs, bs, _ := gates.FindResponses(s)
	return len(rs) > 0 || len(bs) > 0
}

// flush adds the file's events under the runtime it was found to be.
func (s *reading) flush() {
	rt := agent.OpenCode
	if s.kilo {
		rt = agent.Kilo
	}
	for _, ev := range s.events {
		ev.Call.Runtime = rt
		ok, why := inputs.AddHookEvent(ev, s.opts, s.set)
		if ok {
			s.set.Use()
		} else {
			s.set.Skip(why)
		}
	}
	s.events = nil
}
