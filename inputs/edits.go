package inputs

import (
	"bytes"
	"encoding/json"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// The session's edits: with Options.Edits set, every reader hands over the edit calls (Edit,
// Write, MultiEdit and the other runtimes' edit tools) of the records it reads, so that anchoring
// can place a session's events beside the change it made without a second read of the inputs.
// The records are looked at as they stand, before the format's own reading: a hook-log record
// whose input is an edit's hook input, a transcript or stream-json message with tool_use blocks
// of edits, whatever format the reader reads. Findings are unaffected; with Options.Edits nil
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

// maxCwdRecord is the longest record that is not an edit read for the working folder it names.
const maxCwdRecord = 1 << 20

// editScan finds the edit calls of one file's records, in order; cwd is the working folder the
// file last named (stream-json names it once, in system/init).
type editScan struct {
	emit  func(EditCall)
	names [][]byte
	cwd   string
}

// withEdits wraps a reader's record function so that opts.Edits first receives the edit calls of
// each record of the file name; with opts.Edits nil it returns fn itself, with opts.EditsOnly a
// function that never calls fn. A reader reading parts of a file apart wraps each part's
// function: the working folder is then known from the part's own records only.
func withEdits(opts Options, name string, fn func(record) error) func(record) error {
	if opts.Edits == nil {
		return fn
	}
	es := &editScan{emit: opts.Edits, names: editToolNames()}
	return func(rec record) error {
		if rec.Problem == "" && len(rec.Data) > 0 {
			es.record(rec.Data, findings.Source{File: name, Line: rec.Line})
		}
		if opts.EditsOnly {
			return nil
		}
		return fn(rec)
	}
}

// editToolNames are the edit tools of every binding, as JSON strings.
func editToolNames() [][]byte {
	var out [][]byte
	for _, b := range gates.Bindings() {
		for _, t := range b.EditTools() {
			out = append(out, []byte(`"`+t+`"`))
		}
	}
	return out
}

// isEditTool reports whether name is an edit tool of some binding.
func isEditTool(name string) bool {
	for _, b := range gates.Bindings() {
		for _, t := range b.EditTools() {
			if t == name {
				return true
			}
		}
	}
	return false
}

// namesEditTool reports whether a record's text names an edit tool as a JSON string: a record
// that does not holds no edit.
func (es *editScan) namesEditTool(b []byte) bool {
	for _, n := range es.names {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

// editRecord is what an edit's record says besides its calls.
type editRecord struct {
	Runtime    string          `json:"runtime"`
	SessionID  string          `json:"sessionId"`
	SessionID2 string          `json:"session_id"`
	Timestamp  string          `json:"timestamp"`
	Time       string          `json:"time"`
	Cwd        string          `json:"cwd"`
	Input      json.RawMessage `json:"input"`
	Message    struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// record hands over the edit calls of one record. A record that names no edit tool is read only
// for the working folder it names.
func (es *editScan) record(b []byte, src findings.Source) {
	if !es.namesEditTool(b) {
		if len(b) <= maxCwdRecord && bytes.Contains(b, []byte(`"cwd"`)) {
			if cwd := rawStr(jsonscan.Lookup(b, "cwd")[0]); cwd != "" {
				es.cwd = cwd
			}
		}
		return
	}
	var rec editRecord
	if json.Unmarshal(b, &rec) != nil {
		return
	}
	session, at := firstOf(rec.SessionID, rec.SessionID2), firstOf(rec.Time, rec.Timestamp)
	if rec.Cwd != "" {
		es.cwd = rec.Cwd
	}
	n := 0
	if in, ok := hookInputCall(rec.Runtime, rec.Input); ok && isEditTool(in.Tool) {
		es.emit(EditCall{Source: src, Index: n, Session: firstOf(in.SessionID, session), Tool: in.Tool, Time: at, Cwd: firstOf(in.Cwd, es.cwd), Input: in.Input})
		n++
	}
	var blocks []struct {
		Type  string          `json:"type"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	c := rec.Message.Content
	if len(c) == 0 || c[0] != '[' || json.Unmarshal(c, &blocks) != nil {
		return
	}
	for _, bl := range blocks {
		if bl.Type == "tool_use" && isEditTool(bl.Name) {
			es.emit(EditCall{Source: src, Index: n, Session: session, Tool: bl.Name, Time: at, Cwd: es.cwd, Input: bl.Input})
			n++
		}
	}
}

// hookInputCall reads the call a hook log record's input (the hook's stdin) names, as the hook
// log reader does: with the record's runtime binding when it reads its own stdin shape
// (Copilot's camelCase), else from the snake_case fields the other runtimes send.
func hookInputCall(runtime string, raw json.RawMessage) (gates.HookCall, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return gates.HookCall{}, false
	}
	if c, ok := gates.BindingFor(runtime).HookInput(raw); ok {
		return c, true
	}
	var in struct {
		SessionID string          `json:"session_id"`
		Cwd       string          `json:"cwd"`
		ToolName  string          `json:"tool_name"`
		ToolInput json.RawMessage `json:"tool_input"`
	}
	if json.Unmarshal(raw, &in) != nil {
		return gates.HookCall{}, false
	}
	return gates.HookCall{Tool: in.ToolName, SessionID: in.SessionID, Cwd: in.Cwd, Input: in.ToolInput}, true
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
