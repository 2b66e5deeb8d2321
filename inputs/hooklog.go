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
// read to its end (false when b ends inside it, or it is not an object). A key whose value b cuts
// is listed. Values are skipped, not decoded.
func topKeys(b []byte) (map[string]bool, bool) {
	keys := map[string]bool{}
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return keys, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return keys, true
	}
	for i < len(b) && b[i] == '"' {
		end := stringEnd(b, i)
		if end < 0 {
			return keys, false
		}
		keys[rawStr(b[i:end])] = true
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return keys, false
		}
		vend := valueEnd(b, skipSpace(b, i+1))
		if vend < 0 {
			return keys, false
		}
		i = skipSpace(b, vend)
		if i >= len(b) {
			return keys, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return keys, true
		default:
			return keys, false
		}
	}
	return keys, false
}

// logFields are the hook-log record fields the reader uses, by index into the raw values.
const (
	lfTime = iota
	lfRuntime
	lfCommand
	lfInput
	lfExitCode
	lfStdout
	lfStderr
	lfSignal
	lfTimedOut
	lfError
	lfStdoutEncoding
	lfStderrEncoding
	nLogFields
)

// logFieldIndex maps a raw (unescaped) key to its logFields index.
func logFieldIndex(k []byte) int {
	switch string(k) {
	case "time":
		return lfTime
	case "runtime":
		return lfRuntime
	case "command":
		return lfCommand
	case "input":
		return lfInput
	case "exit_code":
		return lfExitCode
	case "stdout":
		return lfStdout
	case "stderr":
		return lfStderr
	case "signal":
		return lfSignal
	case "timed_out":
		return lfTimedOut
	case "error":
		return lfError
	case "stdout_encoding":
		return lfStdoutEncoding
	case "stderr_encoding":
		return lfStderrEncoding
	}
	return -1
}

func (hookLogReader) Read(ctx context.Context, in Input, opts Options, set *findings.Set) error {
	err := scanWindowed(ctx, in.R, opts.MaxRecord, func(rec record) error {
		src := findings.Source{File: in.Name, Line: rec.Line}
		if rec.Problem != "" {
			set.Problemf(src, "unreadable record", "%s", rec.Problem)
			return nil
		}
		ev, reason, err := hookLogEvent(rec.Data, src, rec.Elided, opts.Redact)
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
// reason and an error for the problem message. Only the fields it uses are decoded: the hook's
// stdin (`input`) is walked for the call's names, and its tool_response — the tool's output,
// often megabytes — is passed over without being decoded. elided says the record reached the
// reader as its skeleton (strings over elideKeep cut); red redacts the hook command's words.
func hookLogEvent(data []byte, src findings.Source, elided bool, red func(string) string) (hookEvent, string, error) {
	var f [nLogFields][]byte
	whole := objectMembers(data, func(k, v []byte) bool {
		if i := logFieldIndex(k); i >= 0 {
			f[i] = v
		}
		return true
	})
	if !whole {
		return hookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: not a JSON object")
	}
	exit, hasExit := rawInt(f[lfExitCode])
	if !hasExit || len(f[lfCommand]) == 0 {
		return hookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: no exit_code or command")
	}
	for _, v := range [][]byte{f[lfStdout], f[lfStderr]} {
		if v != nil && string(v) != "null" && v[0] != '"' {
			return hookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: stdout or stderr is not a string")
		}
		if elided && len(v) >= elideKeep-8 {
			return hookEvent{}, "unreadable record", fmt.Errorf("hook output of more than %d KiB in a record of more than %d MiB: not read", elideKeep>>10, elideWindow>>20)
		}
	}
	hasStdout, hasStderr := f[lfStdout] != nil && string(f[lfStdout]) != "null", f[lfStderr] != nil && string(f[lfStderr]) != "null"
	stdout, err := logStream(rawStr(f[lfStdout]), rawStr(f[lfStdoutEncoding]))
	if err != nil {
		return hookEvent{}, "unreadable record", fmt.Errorf("stdout: %w", err)
	}
	stderr, err := logStream(rawStr(f[lfStderr]), rawStr(f[lfStderrEncoding]))
	if err != nil {
		return hookEvent{}, "unreadable record", fmt.Errorf("stderr: %w", err)
	}
	hi := readHookInput(f[lfInput])
	runtime := rawStr(f[lfRuntime])
	if runtime == "" {
		runtime = "claude-code"
	}
	errText, timedOut, signal := rawStr(f[lfError]), rawBool(f[lfTimedOut]), rawStr(f[lfSignal])
	hook := commandLine(f[lfCommand], red)
	a := gates.HookAnswer{
		Event: hi.event, Tool: hi.tool, Hook: hook,
		HasExit: errText == "", ExitCode: exit,
		HasStdout: hasStdout, Stdout: stdout,
		HasStderr: hasStderr, Stderr: stderr,
		ToolInput: hi.input,
	}
	switch {
	case errText != "":
		a.Failed = "not-run"
		if a.Stderr == "" {
			a.Stderr, a.HasStderr = errText, true
		}
	case timedOut:
		a.Failed = "timeout"
	case signal != "" || exit < 0:
		a.Failed = "crashed"
	}
	ev := hookEvent{
		Answer: a,
		Call: findings.Call{Runtime: runtime, Event: hi.event, Tool: hi.tool, ToolUseID: hi.id,
			SessionID: hi.session, Hook: hook, Cwd: hi.cwd, Input: a.ToolInput,
			Command: hi.command, FilePath: hi.filePath},
		Source: src,
		Time:   rawStr(f[lfTime]),
	}
	return ev, "", nil
}

// hookInput is the part of a Claude Code hook's stdin that names the call.
type hookInput struct {
	event, tool, id, session, cwd string
	input                         json.RawMessage // tool_input when small (maxCallInput), else nil
	command, filePath             string          // from a tool_input too big to keep
}

// readHookInput reads the hook's stdin as recorded. A stdin of another shape names no call; the
// answer still counts.
func readHookInput(raw []byte) hookInput {
	var hi hookInput
	m := members(raw, "hook_event_name", "tool_name", "tool_input", "tool_use_id", "session_id", "cwd")
	hi.event, hi.tool, hi.id, hi.session, hi.cwd = rawStr(m[0]), rawStr(m[1]), rawStr(m[3]), rawStr(m[4]), rawStr(m[5])
	in := m[2]
	if len(in) == 0 || string(in) == "null" {
		return hi
	}
	if len(in) <= maxCallInput {
		hi.input = json.RawMessage(bytes.Clone(in))
		return hi
	}
	// A big input (a Write of a large file): keep the fields that say what the call was about,
	// as hookevent.go would have read them from the whole input.
	f := members(in, "command", "file_path", "notebook_path")
	switch hi.tool {
	case "Bash", "PowerShell":
		hi.command = rawStr(f[0])
	case "Edit", "Write", "MultiEdit", "Read":
		hi.filePath = rawStr(f[1])
	case "NotebookEdit":
		hi.filePath = rawStr(f[2])
	}
	return hi
}

// logStream decodes a stdout or stderr field, base64 when its encoding says so.
func logStream(s string, encoding string) (string, error) {
	switch encoding {
	case "":
		return s, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", fmt.Errorf("bad base64: %w", err)
		}
		return string(b), nil
	}
	return "", fmt.Errorf("unknown encoding %q", encoding)
}

// commandLine renders the recorded command (an argv array, or one string) as one shell-like line;
// each word goes through red (when set) before it is quoted, since quoting hides a secret.
func commandLine(raw json.RawMessage, red func(string) string) string {
	if red == nil {
		red = func(s string) string { return s }
	}
	if len(raw) > 0 && raw[0] == '"' {
		return rawStr(raw)
	}
	var words []string
	all := true
	walked := arrayElements(raw, func(el []byte) bool {
		w := rawStr(el)
		if len(el) == 0 || el[0] != '"' || w == "" && len(el) > 2 {
			all = false // not a plain string: leave it to encoding/json
			return false
		}
		words = append(words, shellQuote(red(w))) // redacted before quoting changes the words
		return true
	})
	if walked && all && len(words) > 0 {
		return strings.Join(words, " ")
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		q := make([]string, len(argv))
		for i, w := range argv {
			q[i] = shellQuote(red(w))
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
