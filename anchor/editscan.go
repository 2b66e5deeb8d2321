package anchor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// maxScanLine is the longest record read when looking for edits; longer lines are passed over
// (an edit is then missed, and its session's events keep the hook's line).
const maxScanLine = 64 << 20

// maxCwdRecord is the longest record that is not an edit read only for the working folder it names.
const maxCwdRecord = 1 << 20

// ScanEdits reads one input file (hook log, Claude Code transcript, stream-json, or an
// execution file's JSON array) for the edit calls of its sessions (Edit, Write, MultiEdit) and
// records where each stands in the change (AddEdit). name is the file's name as findings give it
// (Finding.Source.File), so that edits and events of one file are ordered by line. Records that
// are not JSON, or not edits, are passed over: the readers report them. It returns the number of
// edits that stand in the diff.
func (a *Anchorer) ScanEdits(ctx context.Context, name, path string) (int, error) {
	if a.diff == nil || a.mode != SessionEdit {
		return 0, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	defer fh.Close()
	br := bufio.NewReaderSize(fh, 64<<10)
	head, _ := br.Peek(512)
	if t := bytes.TrimLeft(head, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '[' {
		return a.scanArray(ctx, name, br)
	}
	return a.scanLines(ctx, name, br)
}

// scanLines reads a JSONL file line by line.
func (a *Anchorer) scanLines(ctx context.Context, name string, br *bufio.Reader) (int, error) {
	n, line := 0, 0
	var buf []byte
	cwd := "" // the working folder the file last named (stream-json names it once, in system/init)
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxScanLine {
			buf = append(buf, chunk...)
		} else {
			buf = append(buf[:0], 0) // too long: keep a marker that cannot parse
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(buf) > 0 {
			line++
			if line&1023 == 0 && ctx.Err() != nil {
				return n, ctx.Err()
			}
			n += a.scanRecord(buf, findings.Source{File: name, Line: line}, &cwd)
		}
		buf = buf[:0]
		if err != nil {
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return n, fmt.Errorf("%s:%d: %w", name, line+1, err)
		}
	}
}

// scanArray reads a JSON array of records (claude-code-action's execution file); each record's
// line is where it starts, as the readers count it.
func (a *Anchorer) scanArray(ctx context.Context, name string, br *bufio.Reader) (int, error) {
	dec := json.NewDecoder(br)
	if _, err := dec.Token(); err != nil {
		return 0, fmt.Errorf("%s:1: %w", name, err)
	}
	n, line, cwd := 0, 1, ""
	for {
		line += gapLines(dec) // before More, which skips the blank space it counts
		if !dec.More() {
			return n, nil
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return n, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		n += a.scanRecord(raw, findings.Source{File: name, Line: line}, &cwd)
		line += bytes.Count(raw, []byte{'\n'})
	}
}

// gapLines counts the newlines before the next value that the decoder has already buffered.
func gapLines(dec *json.Decoder) int {
	b, _ := io.ReadAll(io.LimitReader(dec.Buffered(), 4096))
	n := 0
	for _, c := range b {
		switch c {
		case '\n':
			n++
		case ' ', '\t', '\r', ',':
		default:
			return n
		}
	}
	return n
}

// scanRecord finds the edit calls in one record: a hook log record whose input is an edit's
// hook input, or a transcript or stream-json message with tool_use blocks of edits.
// cwd is the working folder the file last named; a record that names one updates it.
func (a *Anchorer) scanRecord(b []byte, src findings.Source, cwd *string) int {
	if !namesEditTool(b) {
		if len(b) <= maxCwdRecord && bytes.Contains(b, []byte(`"cwd"`)) {
			var rec struct {
				Cwd string `json:"cwd"`
			}
			if json.Unmarshal(b, &rec) == nil && rec.Cwd != "" {
				*cwd = rec.Cwd
			}
		}
		return 0
	}
	var rec struct {
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
	if json.Unmarshal(b, &rec) != nil {
		return 0
	}
	session, at := first(rec.SessionID, rec.SessionID2), first(rec.Time, rec.Timestamp)
	if rec.Cwd != "" {
		*cwd = rec.Cwd
	}
	n := 0
	if in, ok := hookCall(rec.Runtime, rec.Input); ok && isEditTool(in.Tool) {
		if a.AddEdit(Edit{Session: first(in.SessionID, session), Tool: in.Tool, Source: src, Time: at, Cwd: first(in.Cwd, *cwd), Input: in.Input}) {
			n++
		}
	}
	var blocks []struct {
		Type  string          `json:"type"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if len(rec.Message.Content) > 0 && rec.Message.Content[0] == '[' && json.Unmarshal(rec.Message.Content, &blocks) == nil {
		for _, bl := range blocks {
			if bl.Type == "tool_use" && isEditTool(bl.Name) &&
				a.AddEdit(Edit{Session: session, Tool: bl.Name, Source: src, Time: at, Cwd: *cwd, Input: bl.Input}) {
				n++
			}
		}
	}
	return n
}

// hookCall reads the call a hook log record's input (the hook's stdin) names, as the hook log
// reader does: with the record's runtime binding when it reads its own stdin shape (Copilot's
// camelCase), else from the snake_case fields the other runtimes send.
func hookCall(runtime string, raw json.RawMessage) (gates.HookCall, bool) {
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

// first is the first non-empty string.
func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
