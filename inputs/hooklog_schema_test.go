package inputs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/hooklog"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// fillEvery sets every field of the struct v points to a value that is not its zero value, by
// reflection, so that a field added to hooklog.Record is filled without this test changing. A
// field of a kind it cannot fill fails the test.
func fillEvery(t *testing.T, v reflect.Value) {
	t.Helper()
	v = v.Elem()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case f.Kind() == reflect.String:
			f.SetString(fmt.Sprintf("%s \"é\" \\ <&> \u2028 %d", name, i))
		case f.Kind() == reflect.Int || f.Kind() == reflect.Int64:
			f.SetInt(int64(-3*i - 1))
		case f.Kind() == reflect.Float64:
			f.SetFloat(float64(i) + 0.25)
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.Type() == reflect.TypeFor[json.RawMessage]():
			f.SetBytes([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","n":[1,2.5,null]}`))
		case f.Type() == reflect.TypeFor[[]string]():
			f.Set(reflect.ValueOf([]string{"/h/guard.sh", "two words", `q"uote`}))
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct:
			f.Set(reflect.New(f.Type().Elem()))
			fillEvery(t, f)
		default:
			t.Fatalf("%s: a field of type %s: teach the hook-log reader and this test about it", name, f.Type())
		}
		if f.IsZero() {
			t.Fatalf("%s left zero", name)
		}
	}
}

// TestHookLogRoundTrip: every field of the writer's record, filled by reflection, comes back
// from the reader equal. A field added to hooklog.Record that the reader does not read fails.
func TestHookLogRoundTrip(t *testing.T) {
	var want hooklog.Record
	fillEvery(t, reflect.ValueOf(&want))
	line, err := hooklog.Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeHookLog(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if !reflect.DeepEqual(got.Record, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got.Record, want)
	}
	for f := range hooklog.NumFields {
		if !got.has[f] {
			t.Errorf("field %s not seen", f.Key())
		}
	}
	// The reader itself renders the command from the raw array (argv above is this test's).
	quoted := make([]string, len(want.Command))
	for i, w := range want.Command {
		quoted[i] = shellQuote(w)
	}
	if line, wantLine := commandLine(got.rawCommand, nil), strings.Join(quoted, " "); line != wantLine {
		t.Errorf("command line %q, want %q", line, wantLine)
	}
}

// TestHookLogStdinEncodings: the call is named from the hook's stdin however the recorder
// stored it — as JSON, base64 (input_encoding: stdin not UTF-8), or only its start (input_cut).
func TestHookLogStdinEncodings(t *testing.T) {
	stdin := `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"grep ` + "\xff" + ` x"},"tool_use_id":"t1"}`
	b64 := base64.StdEncoding.EncodeToString([]byte(stdin))
	cutAt := strings.Index(stdin, `"tool_input"`) + 20
	cut := &hooklog.Cut{Kept: int64(cutAt), Size: int64(len(stdin)), SHA256: strings.Repeat("ab", 32)}
	plain := strings.ReplaceAll(stdin, "\xff", "y")
	tests := []struct {
		name     string
		input    string
		encoding string
		cut      *hooklog.Cut
		wantID   string
	}{
		{"JSON", plain, "", nil, "t1"},
		{"base64", `"` + b64 + `"`, hooklog.EncodingBase64, nil, "t1"},
		{"cut text", mustJSON(t, plain[:cutAt]), "", cut, ""},
		{"cut base64", `"` + base64.StdEncoding.EncodeToString([]byte(stdin[:cutAt])) + `"`, hooklog.EncodingBase64, cut, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := hooklog.Record{Time: "2026-11-30T10:00:00Z", Runtime: "claude-code", Command: []string{"guard.sh"},
				Input: json.RawMessage(tc.input), InputEncoding: tc.encoding, InputCut: tc.cut, ExitCode: 2, Stderr: "no"}
			line, err := hooklog.Encode(rec)
			if err != nil {
				t.Fatal(err)
			}
			set := readHookLog(t, "log.jsonl", line, Options{Registry: testRegistry, IncludeUnstructured: true})
			if len(set.Findings) != 1 {
				t.Fatalf("findings %+v problems %v", set.Findings, set.Problems)
			}
			c := set.Findings[0].Call
			if c == nil || c.Event != "PreToolUse" || c.Tool != "Bash" || c.SessionID != "s1" || c.ToolUseID != tc.wantID {
				t.Errorf("call %+v", c)
			}
		})
	}
}

// TestHookLogCutStreams: a stdout the recorder cut is no answer to read when it is the answer
// (exit 0): a problem naming the sizes. On exit 2 the block stands, with the kept stderr.
func TestHookLogCutStreams(t *testing.T) {
	cut := &hooklog.Cut{Kept: 5, Size: 300 << 20, SHA256: strings.Repeat("cd", 32)}
	base := hooklog.Record{Time: "t", Command: []string{"guard.sh"}, Input: json.RawMessage(`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`)}
	allow := base
	allow.Stdout, allow.StdoutCut = `{"hoo`, cut
	block := base
	block.ExitCode, block.Stderr, block.StderrCut, block.Stdout, block.StdoutCut = 2, "no rm", cut, "xxxxx", cut
	for name, tc := range map[string]struct {
		rec     hooklog.Record
		finding bool
	}{"exit 0": {allow, false}, "exit 2": {block, true}} {
		t.Run(name, func(t *testing.T) {
			line, err := hooklog.Encode(tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			set := readHookLog(t, "log.jsonl", line, Options{Registry: testRegistry, IncludeUnstructured: true})
			if tc.finding {
				if len(set.Findings) != 1 || !strings.Contains(findingText(set.Findings[0]), "no rm") {
					t.Errorf("findings %+v problems %v", set.Findings, set.Problems)
				}
				return
			}
			if len(set.Findings) != 0 || len(set.Problems) != 1 || !strings.Contains(set.Problems[0].String(), "kept 5 of the hook's 314572800 bytes of stdout") {
				t.Errorf("findings %+v problems %v", set.Findings, set.Problems)
			}
		})
	}
}

// findingText is a finding's message and evidence, as one string to search.
func findingText(f findings.Finding) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzHookLogRoundTrip: a record the writer encodes from any strings, status and cut reads back
// equal, so the reader's string decoding agrees with the writer's escaping.
func FuzzHookLogRoundTrip(f *testing.F) {
	f.Add("2026-11-30T10:00:00Z", "guard.sh", "out\u2028\"x\"", "err\x00\\", "base64", 2, int64(7), 1.5, true)
	f.Add("", "", "", "", "", -1, int64(0), 0.0, false)
	f.Fuzz(func(t *testing.T, tm, arg, stdout, stderr, enc string, exit int, size int64, dur float64, timedOut bool) {
		want := hooklog.Record{Time: tm, Runtime: enc, Command: []string{arg, stdout}, Input: json.RawMessage(`{"a":1}`),
			ExitCode: exit, Stdout: stdout, Stderr: stderr, DurationMS: dur, Signal: enc, TimedOut: timedOut, Error: stderr,
			StdoutEncoding: enc, InputEncoding: enc, StderrEncoding: enc,
			StdoutCut: &hooklog.Cut{Kept: size, Size: size, SHA256: stdout}}
		line, err := hooklog.Encode(want)
		if err != nil {
			return // NaN or an infinite duration: not JSON, never written
		}
		got, err := decodeHookLog(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		// encoding/json writes invalid UTF-8 as U+FFFD: compare with what it wrote.
		var back hooklog.Record
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Record, back) {
			t.Errorf("reader\n%+v\nencoding/json\n%+v", got.Record, back)
		}
	})
}

// decodeHookLog is decodeRecord with Command read back as an argv array, so that a record can
// be compared whole with the one the recorder wrote.
func decodeHookLog(data []byte) (hookLogRecord, error) {
	r, err := decodeRecord(data)
	if err == nil && r.rawCommand != nil {
		r.Command = argv(r.rawCommand)
	}
	return r, err
}

// argv is a recorded command as an argv array of strings; nil when it is anything else.
func argv(raw []byte) []string {
	words, all := []string{}, true
	walked := jsonscan.Elements(raw, func(el []byte) bool {
		all = len(el) > 0 && el[0] == '"'
		if all {
			words = append(words, RawStr(el))
		}
		return all
	})
	if !walked || !all {
		return nil
	}
	return words
}
