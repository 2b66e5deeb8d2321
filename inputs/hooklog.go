package inputs

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/hooklog"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// hookLogReader reads the hook log written by `agc-sarif record` (hooklog.Record, docs/inputs.md "Hook log"):
// one JSON record per hook invocation, whose `input` is the hook's stdin.
type hookLogReader struct{}

// sniffHookLog reports whether the first record of head has the `exit_code`, `command` and
// `stdout` keys of a hook-log record. When the head ends inside the first record (a huge `input`),
// the keys seen so far must all be hook-log keys and include `command` and `input`.
func sniffHookLog(h *Head) bool {
	var exit, command, stdout, input, foreign bool
	complete := h.Keys(func(k []byte) {
		switch string(k) {
		case "exit_code":
			exit = true
		case "command":
			command = true
		case "stdout":
			stdout = true
		case "input":
			input = true
		}
		if _, ok := hooklog.Lookup(k); !ok {
			foreign = true
		}
	})
	if complete || exit {
		return exit && command && stdout
	}
	return command && input && !foreign
}

// hookLogRecord is one hook-log record as read: the writer's own type, read field by field
// through hooklog's field list, plus what that type cannot say — which fields were present, and
// the command as written (an argv array, or one string from another writer).
type hookLogRecord struct {
	hooklog.Record
	has        [hooklog.NumFields]bool
	rawLen     [hooklog.NumFields]int // length of each member's raw value
	rawCommand []byte
	names      *inputNames // the call's names in Input, when read on the way (walkRecord)
}

// decodeRecord reads the members of one record that hooklog.Record has, without decoding the
// rest: Input stays raw (a slice of data), and streams stay as written (see their encodings).
// A member of the wrong type is an error; unknown members are passed over. Command is left
// empty: the reader renders the command from rawCommand (commandLine).
func decodeRecord(data []byte) (hookLogRecord, error) {
	var r hookLogRecord
	var err error
	whole := walkRecord(data, &r.names, func(k, v []byte) bool {
		f, ok := hooklog.Lookup(k)
		if !ok || string(v) == "null" {
			return true
		}
		r.has[f], r.rawLen[f] = true, len(v)
		if e := r.set(f, v); e != nil {
			err = fmt.Errorf("%s: %w", f.Key(), e)
			return false
		}
		return true
	})
	switch {
	case err != nil:
		return r, err
	case !whole:
		return r, fmt.Errorf("not a JSON object")
	}
	return r, nil
}

// set stores the raw value v of field f. The string and Cut fields are those text and cut name.
func (r *hookLogRecord) set(f hooklog.Field, v []byte) error {
	if s := r.text(f); s != nil {
		if v[0] != '"' {
			return fmt.Errorf("not a string")
		}
		*s = RawStr(v)
		return nil
	}
	if c := r.cut(f); c != nil {
		*c = new(hooklog.Cut)
		if err := json.Unmarshal(v, *c); err != nil {
			return fmt.Errorf("not a cut: %w", err)
		}
		return nil
	}
	switch f {
	case hooklog.FieldCommand:
		r.rawCommand = v
	case hooklog.FieldInput:
		r.Input = v
	case hooklog.FieldExitCode:
		n, ok := RawInt(v)
		if !ok {
			return fmt.Errorf("not an integer")
		}
		r.ExitCode = n
	case hooklog.FieldDurationMS:
		d, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return fmt.Errorf("not a number")
		}
		r.DurationMS = d
	case hooklog.FieldTimedOut:
		r.TimedOut = RawBool(v)
	}
	return nil
}

// text is the string field f of the record, or nil when f is not a string field.
func (r *hookLogRecord) text(f hooklog.Field) *string {
	switch f {
	case hooklog.FieldTime:
		return &r.Time
	case hooklog.FieldRuntime:
		return &r.Runtime
	case hooklog.FieldStdout:
		return &r.Stdout
	case hooklog.FieldStderr:
		return &r.Stderr
	case hooklog.FieldSignal:
		return &r.Signal
	case hooklog.FieldError:
		return &r.Error
	case hooklog.FieldStdoutEncoding:
		return &r.StdoutEncoding
	case hooklog.FieldInputEncoding:
		return &r.InputEncoding
	case hooklog.FieldStderrEncoding:
		return &r.StderrEncoding
	}
	return nil
}

// cut is the Cut field f of the record, or nil when f is not a Cut field.
func (r *hookLogRecord) cut(f hooklog.Field) **hooklog.Cut {
	switch f {
	case hooklog.FieldInputCut:
		return &r.InputCut
	case hooklog.FieldStdoutCut:
		return &r.StdoutCut
	case hooklog.FieldStderrCut:
		return &r.StderrCut
	}
	return nil
}

func (h hookLogReader) Read(ctx context.Context, in Input, opts Options, set *findings.Set) error {
	if !chunked(in, opts) {
		return h.read(ctx, in.Name, in.R, 0, opts, set, NewOrdinalKeys(opts))
	}
	whole := set.Sibling()
	err := readChunks(ctx, in, whole, func(ctx context.Context, r io.Reader, passed int, part *findings.Set) error {
		return h.read(ctx, in.Name, r, passed, opts, part, nil)
	})
	if !errors.Is(err, errOrdered) {
		if err == nil {
			set.Continue(whole)
		}
		return err
	}
	// A record of a runtime whose calls are keyed by their order in the file (ordinal_key.go): read in one go.
	return h.read(ctx, in.Name, io.NewSectionReader(in.At, 0, in.Size), 0, opts, set, NewOrdinalKeys(opts))
}

// errOrdered stops the reading of a part of a file at a record that needs the records before it.
var errOrdered = errors.New("a record keyed by its order in the file")

// read reads the records of r, whose first line is line passed+1 of the file name, into set.
// Each record is read on its own, but for those of runtimes whose calls are counted in order
// (ordinal_key.go); without keys (a part of a file read apart) such a record stops the reading with
// errOrdered.
func (hookLogReader) read(ctx context.Context, name string, r io.Reader, passed int, opts Options, set *findings.Set, keys *OrdinalKeys) error {
	hooks := &commandMemo{red: opts.Redact}
	strs := newStrTable()
	err := scanFrom(ctx, r, opts.MaxRecord, ElideWindow, passed, WithEdits(opts, name, func(rec Record) error {
		src := findings.Source{File: name, Line: rec.Line}
		if rec.Problem != "" {
			set.Problemf(src, "unreadable record", "%s", rec.Problem)
			return nil
		}
		ev, reason, err := hookLogEvent(opts, rec.Data, src, rec.Elided, hooks.render, strs)
		if err != nil {
			set.Problemf(src, reason, "%v", err)
			return nil
		}
		if keys == nil {
			if ev.Call.ToolUseID == "" && opts.keysByOrder(ev.Call.Runtime) {
				return errOrdered
			}
		} else {
			slot := keys.NextSlot(ev.Call, ev.Call.Hook)
			ev.Key, ev.CallKey = slot.Key(ev.Call.SessionID), opts.CallKey(slot, ev.Call.SessionID)
		}
		if opts.ReadsCalls() {
			NoteHookCall(opts, ev, jsonscan.Lookup(jsonscan.Lookup(rec.Data, "input")[0], "permission_suggestions")[0])
		}
		if ok, why := AddHookEvent(ev, opts, set); ok {
			set.Use()
		} else {
			set.Skip(why)
		}
		return nil
	}))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// hookLogEvent turns one hook-log record into a hook event. On failure it returns the skip
// reason and an error for the problem message. Only the fields it uses are decoded: the hook's
// stdin (`input`) is walked for the call's names, and its tool_response — the tool's output,
// often megabytes — is passed over without being decoded. elided says the record reached the
// reader as its skeleton (strings over ElideKeep cut); command renders the hook's command
// (commandLine, with its words redacted); strs shares the names that recur from record to record.
func hookLogEvent(opts Options, data []byte, src findings.Source, elided bool, command func(json.RawMessage) string, strs *strTable) (HookEvent, string, error) {
	r, err := decodeRecord(data)
	if err != nil {
		return HookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: %w", err)
	}
	if !r.has[hooklog.FieldExitCode] || !r.has[hooklog.FieldCommand] {
		return HookEvent{}, "not a hook-log record", fmt.Errorf("not a hook-log record: no exit_code or command")
	}
	if reason, err := r.unreadable(elided); err != nil {
		return HookEvent{}, reason, err
	}
	stdout, err := logStream(r.Stdout, r.StdoutEncoding)
	if err != nil {
		return HookEvent{}, "unreadable record", fmt.Errorf("stdout: %w", err)
	}
	stderr, err := logStream(r.Stderr, r.StderrEncoding)
	if err != nil {
		return HookEvent{}, "unreadable record", fmt.Errorf("stderr: %w", err)
	}
	if r.Runtime == "" {
		r.Runtime = opts.defaultRuntime()
	}
	r.Runtime = strs.intern(r.Runtime)
	hi, err := r.hookInput(opts.binding(r.Runtime), strs)
	if err != nil {
		return HookEvent{}, "unreadable record", fmt.Errorf("input: %w", err)
	}
	hook := command(r.rawCommand)
	a := gates.HookAnswer{
		Event: hi.Event, Tool: hi.Tool, Hook: hook,
		HasExit: r.Error == "", ExitCode: r.ExitCode,
		HasStdout: r.has[hooklog.FieldStdout], Stdout: stdout,
		HasStderr: r.has[hooklog.FieldStderr], Stderr: stderr,
		ToolInput: hi.Input,
	}
	switch {
	case r.Error != "":
		a.Failed = "not-run"
		if a.Stderr == "" {
			a.Stderr, a.HasStderr = r.Error, true
		}
	case r.TimedOut:
		a.Failed = "timeout"
		a.Ran = time.Duration(r.DurationMS * float64(time.Millisecond))
	case r.Signal != "" || r.ExitCode < 0:
		a.Failed = "crashed"
	}
	ev := HookEvent{
		Answer: a,
		Call: findings.Call{Runtime: r.Runtime, Event: hi.Event, Tool: hi.Tool, ToolUseID: hi.ID,
			SessionID: hi.Session, Hook: hook, Cwd: hi.Cwd, Input: a.ToolInput,
			Command: hi.Command, FilePath: hi.FilePath},
		Source: src,
		Time:   r.Time,
	}
	return ev, "", nil
}

// unreadable says why the hook's answer in r cannot be read whole: its output cut to a
// skeleton by the reader, or its stdout cut by the recorder when stdout is the answer (exit 0;
// on other statuses the runtimes read stderr and the status). A cut stderr is read as kept.
func (r *hookLogRecord) unreadable(elided bool) (string, error) {
	for _, f := range []hooklog.Field{hooklog.FieldStdout, hooklog.FieldStderr} {
		if elided && r.rawLen[f] >= ElideKeep-8 {
			return "unreadable record", fmt.Errorf("hook output of more than %d KiB in a record of more than %d MiB: not read", ElideKeep>>10, ElideWindow>>20)
		}
	}
	if c := r.StdoutCut; c != nil && r.ExitCode == 0 && r.Error == "" {
		return "unreadable record", fmt.Errorf("the recorder kept %d of the hook's %d bytes of stdout (sha256 %s): its answer is not read", c.Kept, c.Size, c.SHA256)
	}
	return "", nil
}

// hookInput reads the hook's stdin as recorded: decoded first when it was stored base64, and
// read as far as it goes when the recorder kept only its start.
func (r *hookLogRecord) hookInput(b gates.Binding, strs *strTable) (HookInput, error) {
	in := []byte(r.Input)
	names := r.names
	if r.InputEncoding != "" || r.InputCut != nil {
		s := RawStr(in)
		b, err := logStream(s, r.InputEncoding)
		if err != nil {
			return HookInput{}, err
		}
		in, names = []byte(b), nil
	}
	return readNamedInput(in, b, names, strs), nil
}

// HookInput is the part of a hook's stdin that names the call.
type HookInput struct {
	Event, Tool, ID, Session, Cwd string
	Input                         json.RawMessage // tool_input when small (MaxCallInput), else nil
	Command, FilePath             string          // from a tool_input too big to keep
}

// ReadHookInput reads the hook's stdin as recorded. A stdin of another shape names no call; the
// answer still counts.
func ReadHookInput(raw []byte, b gates.Binding) HookInput { return readNamedInput(raw, b, nil, nil) }

// readNamedInput is ReadHookInput with the call's names of raw already read (walkRecord), or nil,
// and the names that recur (event, tool, session, folder) shared through strs (nil: not shared).
func readNamedInput(raw []byte, b gates.Binding, pre *inputNames, strs *strTable) HookInput {
	var hi HookInput
	var in []byte
	if c, ok := b.HookInput(raw); ok {
		hi.Event, hi.Tool, hi.ID, hi.Session, hi.Cwd, in = c.Event, c.Tool, c.ToolUseID, c.SessionID, c.Cwd, c.Input
	} else {
		var m [][]byte
		if pre != nil {
			m = pre[:]
		} else {
			m = jsonscan.Lookup(raw, hookInputKeys[:]...)
		}
		hi.Event, hi.Tool, hi.ID, hi.Session, hi.Cwd = strs.str(m[0]), strs.str(m[1]), RawStr(m[3]), strs.str(m[4]), strs.str(m[5])
		in = m[2]
	}
	if len(in) == 0 || string(in) == "null" {
		return hi
	}
	if len(in) <= MaxCallInput {
		hi.Input = json.RawMessage(bytes.Clone(in))
		return hi
	}
	// A big input (a Write of a large file): keep the fields that say what the call was about,
	// and let the binding read them as it would have read the whole input.
	names := b.CallFields()
	kept := map[string]json.RawMessage{}
	for i, v := range jsonscan.Lookup(in, names...) {
		if len(v) > 0 {
			kept[names[i]] = json.RawMessage(v)
		}
	}
	if small, err := json.Marshal(kept); err == nil {
		hi.Command, hi.FilePath = b.ToolNames(hi.Tool, small)
	}
	return hi
}

// logStream decodes a stdout or stderr field, base64 when its encoding says so.
func logStream(s string, encoding string) (string, error) {
	switch encoding {
	case "":
		return s, nil
	case hooklog.EncodingBase64:
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
		return RawStr(raw)
	}
	var words []string
	all := true
	walked := jsonscan.Elements(raw, func(el []byte) bool {
		w := RawStr(el)
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

// commandMemo renders hook commands with commandLine, redacted with red, and keeps the last: the
// records of a log come from a few hooks, whose words would be redacted again at every record.
type commandMemo struct {
	red  func(string) string
	raw  []byte
	line string
}

// render is commandLine(raw, m.red).
func (m *commandMemo) render(raw json.RawMessage) string {
	if m.raw != nil && bytes.Equal(raw, m.raw) {
		return m.line
	}
	m.line = commandLine(raw, m.red)
	m.raw = append(m.raw[:0:0], raw...) // raw is part of a record, valid during its callback only
	if m.raw == nil {
		m.raw = []byte{}
	}
	return m.line
}

// shellQuote quotes a word for display when it holds blanks or shell metacharacters.
func shellQuote(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`;&|<>()*?[]{}!#~") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
