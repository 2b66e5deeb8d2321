package hooklog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func sample(n int) Record {
	return Record{
		Time: "2026-11-30T09:40:00Z", Runtime: "claude-code", Command: []string{"guard.sh"},
		Input: json.RawMessage(fmt.Sprintf(`{"n": %d, "html": "<a & b>"}`, n)), ExitCode: n,
		Stdout: strings.Repeat("x", n), DurationMS: 1.5,
	}
}

func TestEncode(t *testing.T) {
	b, err := Encode(sample(2))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2026-11-30T09:40:00Z","runtime":"claude-code","command":["guard.sh"],"input":{"n":2,"html":"<a & b>"},"exit_code":2,"stdout":"xx","stderr":"","duration_ms":1.5}` + "\n"
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if _, err := Encode(Record{Input: json.RawMessage(`{bad`)}); err == nil {
		t.Error("invalid input JSON encoded without error")
	}
}

// reference is what Encode must write: encoding/json's Encoder without HTML escaping.
func reference(rec Record) ([]byte, error) {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(rec)
	return []byte(buf.String()), err
}

// TestEncodeSameAsEncodingJSON: every field, set and unset, and the strings JSON escapes.
func TestEncodeSameAsEncodingJSON(t *testing.T) {
	cut := &Cut{Kept: 3, Size: 1 << 40, SHA256: "ab"}
	recs := []Record{
		{},
		sample(0),
		{Command: []string{}, Input: json.RawMessage(" [1, 2,\n {\"a\" : \"<>&\\u2028\"}] "), DurationMS: 1e-7},
		{Time: "t", Runtime: "r", Command: []string{"a\"b\\c", "\x00\x1f\b\f\n\r\t", "\u2028\u2029é😀", "bad\xff\xfe utf8", "<&>"},
			Input: json.RawMessage(`"x"`), ExitCode: -1, Stdout: "o\x7f", Stderr: "e\xe2\x80", DurationMS: 1e21,
			Signal: "killed", TimedOut: true, Error: "no such file", StdoutEncoding: "base64", InputEncoding: "base64",
			StderrEncoding: "base64", InputCut: cut, StdoutCut: cut, StderrCut: &Cut{}},
		{DurationMS: 123456.789, ExitCode: 127},
		{DurationMS: -0.000001},
	}
	for i, rec := range recs {
		got, err := Encode(rec)
		want, werr := reference(rec)
		if err != nil || werr != nil || string(got) != string(want) {
			t.Errorf("record %d:\ngot  %s (%v)\nwant %s (%v)", i, got, err, want, werr)
		}
	}
}

// FuzzEncode holds Encode to encoding/json's bytes on arbitrary strings, inputs and numbers.
func FuzzEncode(f *testing.F) {
	f.Add("2026-11-30T09:40:00Z", "a\u2028b\xff", []byte(`{"a": [1, "<b>"]}`), 2, 1.5, true)
	f.Add("", "", []byte(``), 0, 0.0, false)
	f.Add("\x00", "\"\\", []byte(`nul`), -1, 1e-9, false)
	f.Fuzz(func(t *testing.T, s1, s2 string, input []byte, code int, dur float64, timedOut bool) {
		rec := Record{Time: s1, Runtime: s2, Command: []string{s1, s2}, Input: json.RawMessage(input),
			ExitCode: code, Stdout: s2, Stderr: s1, DurationMS: dur, Signal: s1, TimedOut: timedOut, Error: s2,
			InputCut: &Cut{Kept: int64(code), Size: int64(len(input)), SHA256: s2}}
		want, werr := reference(rec)
		got, err := Encode(rec)
		if (err != nil) != (werr != nil) {
			t.Fatalf("error %v, encoding/json %v", err, werr)
		}
		if err == nil && string(got) != string(want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}
