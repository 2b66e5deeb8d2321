package inputs

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// hookLogReader reads the hook log written by `agc-sarif record` (hooklog.Record, DESIGN §5):
// one JSON record per hook invocation, whose `input` is the hook's stdin.
type hookLogReader struct{}

// hookLogKeys are the field names of hooklog.Record, in the order `record` writes them.
var hookLogKeys = map[string]bool{
	"time": true, "runtime": true, "command": true, "input": true, "exit_code": true, "stdout": true,
	"stderr": true, "duration_ms": true, "signal": true, "timed_out": true, "error": true,
	"stdout_encoding": true, "stderr_encoding": true,
}

// sniffHookLog reports whether the first record of head has the `exit_code`, `command` and
// `stdout` keys of a hook-log record. When the head ends inside the first record (a huge `input`),
// the keys seen so far must all be hook-log keys and include `command` and `input`.
func sniffHookLog(head []byte) bool {
	keys, complete := topKeys(head)
	if complete || keys["exit_code"] {
		return keys["exit_code"] && keys["command"] && keys["stdout"]
	}
	if !keys["command"] || !keys["input"] {
		return false
	}
	for k := range keys {
		if !hookLogKeys[k] {
			return false
		}
	}
	return true
}

// topKeys lists the top-level keys of the first JSON object in b, and whether that object was
// read to its end (false when b ends inside it, or it is not an object).
func topKeys(b []byte) (map[string]bool, bool) {
	keys := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return keys, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys, false
		}
		k, ok := t.(string)
		if !ok {
			return keys, false
		}
		keys[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys, false
		}
	}
	_, err := dec.Token()
	return keys, err == nil
}

// logRecord is a hook-log record as read: fields are kept loose so that a record written by
// another version (command as one string, extra fields) still reads.
type logRecord struct {
	Time           string          `json:"time"`
	Runtime        string          `json:"runtime"`
	Command        json.RawMessage `json:"command"`
	Input          json.RawMessage `json:"input"`
	ExitCode       *int            `json:"exit_code"`
	Stdout         *string         `json:"stdout"`
	Stderr         *string         `json:"stderr"`
	Signal         string          `json:"signal"`
	TimedOut       bool            `json:"timed_out"`
	Error          string          `json:"error"`
	StdoutEncoding string          `json:"stdout_encoding"`
	StderrEncoding string          `json:"stderr_encoding"`
}

// hookInput is the part of a Claude Code hook's stdin that names the call.
type hookInput struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolUseID     string          `json:"tool_use_id"`
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
}

func (hookLogReader) Read(ctx context.Context, in Input, opts Options, set *findings.Set) error {
	err := scanRecords(ctx, in.R, opts.MaxRecord, func(rec record) error {
		src := findings.Source{File: in.Name, Line: rec.Line}
		if rec.Problem != "" {
			set.Problemf(src, "unreadable record", "%s", rec.Problem)
			return nil
		}
		ev, reason, err := hookLogEvent(rec.Data, src)
		if err != nil {
			set.Problemf(src, reason, "%v", err)
			return nil
		}
		if ok, why := addHookEventReason(ev, opts, set); ok {
			set.Use()
		} else {
			set.Skip(why)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

// hookLogEvent turns one hook-log record into a hook event. On failure it returns the skip
// reason and an error for the problem message.
func hookLogEvent(data []byte, src findings.Source) (hookEvent, string, error) {
	var r logRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return hookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: %w", err)
	}
	if r.ExitCode == nil || len(r.Command) == 0 {
		return hookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: no exit_code or command")
	}
	stdout, err := logStream(r.Stdout, r.StdoutEncoding)
	if err != nil {
		return hookEvent{}, "unreadable record", fmt.Errorf("stdout: %w", err)
	}
	stderr, err := logStream(r.Stderr, r.StderrEncoding)
	if err != nil {
		return hookEvent{}, "unreadable record", fmt.Errorf("stderr: %w", err)
	}
	var hi hookInput
	if t := bytes.TrimSpace(r.Input); len(t) > 0 && t[0] == '{' {
		_ = json.Unmarshal(t, &hi) // a stdin of another shape names no call; the answer still counts
	}
	runtime := r.Runtime
	if runtime == "" {
		runtime = "claude-code"
	}
	hook := commandLine(r.Command)
	a := gates.HookAnswer{
		Event: hi.HookEventName, Tool: hi.ToolName, Hook: hook,
		HasExit: r.Error == "", ExitCode: *r.ExitCode,
		HasStdout: r.Stdout != nil, Stdout: stdout,
		HasStderr: r.Stderr != nil, Stderr: stderr,
		ToolInput: hi.ToolInput,
	}
	switch {
	case r.Error != "":
		a.Failed = "not-run"
		if a.Stderr == "" {
			a.Stderr, a.HasStderr = r.Error, true
		}
	case r.TimedOut:
		a.Failed = "timeout"
	case r.Signal != "" || *r.ExitCode < 0:
		a.Failed = "crashed"
	}
	if t := bytes.TrimSpace(hi.ToolInput); len(t) == 0 || string(t) == "null" {
		a.ToolInput = nil
	}
	ev := hookEvent{
		Answer: a,
		Call: findings.Call{Runtime: runtime, Event: hi.HookEventName, Tool: hi.ToolName, ToolUseID: hi.ToolUseID,
			SessionID: hi.SessionID, Hook: hook, Cwd: hi.Cwd, Input: a.ToolInput},
		Source: src,
		Time:   r.Time,
	}
	return ev, "", nil
}

// logStream decodes a stdout or stderr field, base64 when its encoding says so.
func logStream(s *string, encoding string) (string, error) {
	if s == nil {
		return "", nil
	}
	switch encoding {
	case "":
		return *s, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(*s)
		if err != nil {
			return "", fmt.Errorf("bad base64: %w", err)
		}
		return string(b), nil
	}
	return "", fmt.Errorf("unknown encoding %q", encoding)
}

// commandLine renders the recorded command (an argv array, or one string) as one shell-like line.
func commandLine(raw json.RawMessage) string {
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		q := make([]string, len(argv))
		for i, w := range argv {
			q[i] = shellQuote(w)
		}
		return strings.Join(q, " ")
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// shellQuote quotes a word for display when it holds blanks or shell metacharacters.
func shellQuote(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`;&|<>()*?[]{}!#~") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
