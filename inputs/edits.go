package inputs

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// The session's edits: with Options.Edits, every reader hands over the edit calls (Edit,
// Write, MultiEdit and the other runtimes' edit tools) of the records it reads, so that anchoring
// can place a session's events beside the change it made without a second read of the inputs.
// The records are looked at as they stand, before the format's own reading: a hook-log record
// whose input is an edit's hook input, a transcript or stream-json message with tool_use blocks
// of edits, whatever format the reader reads. Findings are unaffected; without Options.Edits
// nothing is looked at and nothing costs.

// EditCall is one edit call found in a record (Options.Edits).
type EditCall struct {
	Source  findings.Source // the record: its file and the line where it starts
	Index   int             // the call's place among the edit calls of its record, from 0
	Session string          // the session's id
	Tool    string          // the edit tool
	Time    string          // the record's time, when it has one
	Cwd     string          // the agent's working folder, when the record or one before it says
	Input   []byte          // the tool input; valid only during the call
}

// maxCwdRecord is the longest record that is not an edit read for the working folder it names:
// the readers' window (ElideWindow), past which a record reaches them cut.
const maxCwdRecord = ElideWindow

// editScan finds the edit calls of one file's records, in order; cwd is the working folder the
// file last named (stream-json names it once, in system/init).
type editScan struct {
	emit   func(EditCall)
	tools  map[string]bool // the edit tools of every binding
	quoted [][]byte        // the same, as JSON strings
	cwd    string
	// binding is Options.binding: a hook log record's stdin is read with its runtime's binding.
	binding func(runtime string) gates.Binding
}

// WithEdits wraps a reader's record function so that the sink (Sink.Edit) first receives the edit
// calls of each record of the file name; without Options.Edits it returns fn itself. A reader reading parts of a file apart wraps each part's
// function: the working folder is then known from the part's own records only.
func WithEdits(opts Options, name string, fn func(Record) error) func(Record) error {
	if !opts.Edits || opts.Sink == nil {
		return fn
	}
	es := newEditScan(opts)
	return func(rec Record) error {
		if rec.Problem == "" && len(rec.Data) > 0 {
			es.record(rec.Data, rec.Elided, findings.Source{File: name, Line: rec.Line})
		}
		return fn(rec)
	}
}

// newEditScan finds the edit calls of a file for emit.
func newEditScan(opts Options) *editScan {
	opts.Registry.mustBeSet()
	es := &editScan{emit: opts.Sink.Edit, tools: map[string]bool{}, binding: opts.binding}
	for _, b := range opts.Registry.Bindings {
		for _, t := range b.EditTools() {
			es.tools[t] = true
			es.quoted = append(es.quoted, []byte(`"`+t+`"`))
		}
	}
	return es
}

// names reports whether a record's text names an edit tool as a JSON string: a record over
// maxCwdRecord that does not is passed over whole, as the separate scan did.
func (es *editScan) names(b []byte) bool {
	for _, n := range es.quoted {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

// editRecord is what a record says that its edit calls need: the raw values of its top-level
// members (the last of each key, as encoding/json reads them).
type editRecord struct {
	runtime, sessionID, sessionID2, timestamp, time, cwd, input, message []byte
}

// readEditRecord walks the top-level members of b; false when b is not an object it could walk
// to its end. Values are not decoded here: most records hold no edit.
func readEditRecord(b []byte) (editRecord, bool) {
	var r editRecord
	ok := jsonscan.Members(b, func(k, v []byte) bool {
		switch string(k) {
		case "runtime":
			r.runtime = v
		case "sessionId":
			r.sessionID = v
		case "session_id":
			r.sessionID2 = v
		case "timestamp":
			r.timestamp = v
		case "time":
			r.time = v
		case "cwd":
			r.cwd = v
		case "input":
			r.input = v
		case "message":
			r.message = v
		}
		return true
	})
	return r, ok
}

// record hands over the edit calls of one record, and notes the working folder it names. long
// says the record was longer than the reader's window, which cut its strings (elide.go).
func (es *editScan) record(b []byte, long bool, src findings.Source) {
	if (long || len(b) > maxCwdRecord) && !es.names(b) {
		return
	}
	rec, ok := readEditRecord(b)
	if !ok {
		return
	}
	if cwd := RawStr(rec.cwd); cwd != "" {
		es.cwd = cwd
	}
	session := firstOf(RawStr(rec.sessionID), RawStr(rec.sessionID2))
	at := firstOf(RawStr(rec.time), RawStr(rec.timestamp))
	n := 0
	if in, ok := hookInputCall(es.binding(RawStr(rec.runtime)), rec.input); ok && es.tools[in.Tool] {
		es.emit(EditCall{Source: src, Index: n, Session: firstOf(in.SessionID, session), Tool: in.Tool, Time: at, Cwd: firstOf(in.Cwd, es.cwd), Input: in.Input})
		n++
	}
	content := jsonscan.Lookup(rec.message, "content")[0]
	jsonscan.Elements(content, func(el []byte) bool {
		m := jsonscan.Lookup(el, "type", "name", "input")
		if name := RawStr(m[1]); RawStr(m[0]) == "tool_use" && es.tools[name] {
			es.emit(EditCall{Source: src, Index: n, Session: session, Tool: name, Time: at, Cwd: es.cwd, Input: m[2]})
			n++
		}
		return true
	})
}

// hookInputCall reads the call a hook log record's input (the hook's stdin) names, as the hook
// log reader does: with b, the record's runtime binding, when it reads its own stdin shape
// (Copilot's camelCase), else from the snake_case fields the other runtimes send.
func hookInputCall(b gates.Binding, raw []byte) (gates.HookCall, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return gates.HookCall{}, false
	}
	if c, ok := b.HookInput(raw); ok {
		return c, true
	}
	m := jsonscan.Lookup(raw, "session_id", "cwd", "tool_name", "tool_input")
	if m[2] == nil {
		return gates.HookCall{}, false
	}
	return gates.HookCall{Tool: RawStr(m[2]), SessionID: RawStr(m[0]), Cwd: RawStr(m[1]), Input: m[3]}, true
}

// firstOf is the first non-empty string.
func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
