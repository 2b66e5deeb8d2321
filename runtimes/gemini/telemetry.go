package gemini

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

// Telemetry is the format of Gemini CLI's local telemetry log (telemetry.outfile).
const Telemetry inputs.Format = "gemini-telemetry"

// TelemetryFormat is the telemetry log's format as the registry lists it: name, sniff, reader.
func TelemetryFormat() inputs.FormatSpec {
	return inputs.FormatSpec{Name: Telemetry, Sniff: sniffGeminiTelemetry, Reader: geminiTelemetryReader{}}
}

// geminiTelemetryReader reads Gemini CLI's telemetry log: OpenTelemetry log records, spans and
// metrics, each a pretty-printed JSON object, concatenated (not JSONL). It is the only Gemini file
// that keeps hook runs: a gemini_cli.hook_call log record has the hook's stdin (hook_input, a JSON
// text), stdout, stderr, exit_code and hook_name, which are read as the recorder's log reads its
// records and checked by the Gemini binding. Records are split by records.go (a record longer than
// the window keeps only its skeleton), then decoded with encoding/json.
type geminiTelemetryReader struct{}

// Skip reasons of telemetry records.
const (
	skipGeminiToolCall = "tool call record (its hook runs are read from hook_call records)"
	skipGeminiOther    = "telemetry record of no hook"
)

// telemetryKeys are the top-level keys OpenTelemetry's console exporters write.
var telemetryKeys = map[string]bool{"hrTime": true, "_spanContext": true, "spanContext": true,
	"resource": true, "instrumentationScope": true, "attributes": true, "_body": true, "descriptor": true,
	"kind": true, "hrTimeObserved": true, "scopeMetrics": true}

// sniffGeminiTelemetry recognises the log by its first object: its first key is one an
// OpenTelemetry exporter writes, and the head names Gemini.
func sniffGeminiTelemetry(h *inputs.Head) bool {
	head := h.Raw()
	key, _ := h.First()
	return telemetryKeys[inputs.RawStr(key)] &&
		(bytes.Contains(head, []byte(`"gemini_cli.`)) || bytes.Contains(head, []byte(`"gemini-cli"`)) ||
			bytes.Contains(head, []byte(`"gemini-2`)))
}

// telemetryRecord is the part of a telemetry record the reader uses.
type telemetryRecord struct {
	Attributes struct {
		Event     string  `json:"event.name"`
		Timestamp string  `json:"event.timestamp"`
		HookName  string  `json:"hook_name"`
		HookInput string  `json:"hook_input"`
		Stdout    *string `json:"stdout"`
		Stderr    *string `json:"stderr"`
		ExitCode  *int    `json:"exit_code"`
		Success   *bool   `json:"success"`
	} `json:"attributes"`
}

func (geminiTelemetryReader) Read(ctx context.Context, in inputs.Input, opts inputs.Options, set *findings.Set) error {
	keys := inputs.NewOrdinalKeys(opts)
	return ReadRecords(ctx, in, opts, func(rec inputs.Record) { telemetryRecordRead(rec, in.Name, opts, set, keys) })
}

// telemetryRecordRead reads one telemetry record: a hook_call is a hook event, every other record
// a counted skip.
func telemetryRecordRead(rec inputs.Record, name string, opts inputs.Options, set *findings.Set, keys *inputs.OrdinalKeys) {
	src := findings.Source{File: name, Line: rec.Line}
	if rec.Problem != "" {
		set.Problemf(src, "unreadable record", "%s", rec.Problem)
		return
	}
	var r telemetryRecord
	if err := json.Unmarshal(rec.Data, &r); err != nil {
		set.Problemf(src, inputs.SkipBadJSON, "not a telemetry record: %v", err)
		return
	}
	switch r.Attributes.Event {
	case "gemini_cli.hook_call":
	case "gemini_cli.tool_call":
		set.Skip(skipGeminiToolCall)
		return
	default:
		set.Skip(skipGeminiOther)
		return
	}
	ev, err := telemetryHookEvent(r, src, rec.Elided, opts)
	if err != nil {
		set.Problemf(src, "unreadable record", "%v", err)
		return
	}
	slot := keys.NextSlot(ev.Call, ev.Call.Hook)
	ev.Key, ev.CallKey = slot.Key(ev.Call.SessionID), opts.CallKey(slot, ev.Call.SessionID)
	inputs.NoteHookCall(opts, ev, nil)
	ok, why := inputs.AddHookEvent(ev, opts, set)
	countRecord(set, ok, why)
}

// telemetryHookEvent turns a hook_call record into the hook event the recorder's log would
// give for the same run (hookLogEvent).
func telemetryHookEvent(r telemetryRecord, src findings.Source, elided bool, opts inputs.Options) (inputs.HookEvent, error) {
	at := r.Attributes
	for _, s := range []*string{at.Stdout, at.Stderr} {
		if elided && s != nil && len(*s) >= inputs.ElideKeep-8 {
			return inputs.HookEvent{}, fmt.Errorf("hook output of more than %d KiB in a record of more than %d MiB: not read", inputs.ElideKeep>>10, inputs.ElideWindow>>20)
		}
	}
	hi := inputs.ReadHookInput([]byte(at.HookInput), Binding{})
	hook := opts.Redact(at.HookName)
	a := gates.HookAnswer{Event: hi.Event, Tool: hi.Tool, Hook: hook, HasExit: at.ExitCode != nil,
		HasStdout: at.Stdout != nil, HasStderr: at.Stderr != nil, ToolInput: hi.Input}
	if at.Stdout != nil {
		a.Stdout = *at.Stdout
	}
	if at.Stderr != nil {
		a.Stderr = *at.Stderr
	}
	if at.ExitCode != nil {
		a.ExitCode = *at.ExitCode
	}
	return inputs.HookEvent{
		Answer: a,
		Call: findings.Call{Runtime: agent.Gemini, Event: hi.Event, Tool: hi.Tool, ToolUseID: hi.ID,
			SessionID: hi.Session, Hook: hook, HookIsName: true, Cwd: hi.Cwd, Input: hi.Input, Command: hi.Command, FilePath: hi.FilePath},
		Source: src,
		Time:   strings.TrimSpace(at.Timestamp),
	}, nil
}
