package gates

import (
	"encoding/json"
	"strings"
	"testing"
)

const okResponse = `{"agc":"0.1","gate":{"id":"workstream-isolation","kind":"runtime"},"verdict":"repaired","findings":[{"rule":"main-checkout-access","message":"the command now runs in the workstream.","target":"Bash.command","location":{"path":"src/a.go","line":3.0,"end_line":4}}],"extra":{"x":1}}`

func TestDecode(t *testing.T) {
	type want struct {
		ok      bool     // a response is returned
		checks  []string // breach checks, in order
		pointer string   // pointer of the first breach
		line    int      // line of the first breach
		msg     string   // substring of the first breach's message
	}
	tests := []struct {
		name string
		in   string
		want want
	}{
		{"valid, unknown fields ignored", okResponse, want{ok: true}},
		{"pass with no findings", `{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"verdict":"pass","findings":[]}`, want{ok: true}},
		{"empty", " \n", want{checks: []string{CheckInvalidJSON}, line: 1, msg: "empty"}},
		{"syntax error names line", "{\n\"agc\": \"0.1\",\n\"gate\": tru\n}", want{checks: []string{CheckInvalidJSON}, line: 3, msg: "column 12"}},
		{"cut short", "{\n\"agc\": \"0.1\",\n", want{checks: []string{CheckInvalidJSON}, line: 3, msg: "cut short"}},
		{"trailing text", `{"agc":"0.1"} {}`, want{checks: []string{CheckInvalidJSON}, line: 1, msg: "more text"}},
		{"invalid UTF-8", "{\"agc\":\"0.1\xff\"}", want{checks: []string{CheckInvalidJSON}, line: 1, msg: "UTF-8"}},
		{"too deep", strings.Repeat("[", MaxDepth+1), want{checks: []string{CheckInvalidJSON}, line: 1, msg: "deeper"}},
		{"major version", `{"agc":"1.0","gate":{"id":"g","kind":"runtime"}}`, want{checks: []string{CheckUnsupportedVersion}, pointer: "/agc", line: 1}},
		{"other minor", strings.Replace(okResponse, `"0.1"`, `"0.3"`, 1), want{ok: true, checks: []string{CheckNewerMinorVersion}, pointer: "/agc", line: 1}},
		{"missing rule", "{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"block\",\n\"findings\":[\n{\"message\":\"m\"}]}",
			want{checks: []string{CheckSchema}, pointer: "/findings/0/rule", line: 3, msg: `"rule" is missing`}},
		{"bad verdict and id", "{\"agc\":\"0.1\",\n\"gate\":{\"id\":\"Bad Id\",\"kind\":\"runtime\"},\n\"verdict\":\"allow\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}",
			want{checks: []string{CheckSchema, CheckSchema}, pointer: "/gate/id", line: 2, msg: "does not match"}},
		{"block needs a finding", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"block","findings":[]}`,
			want{checks: []string{CheckSchema}, pointer: "/findings", line: 1, msg: "at least one finding"}},
		{"line below 1", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m","location":{"path":"a","line":0}}]}`,
			want{checks: []string{CheckSchema}, pointer: "/findings/0/location/line", msg: "at least 1"}},
		{"huge number", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m","location":{"path":"a","line":1e999999}}]}`,
			want{checks: []string{CheckSchema}, pointer: "/findings/0/location/line", msg: "at most"}},
		{"bad target", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m","target":"command"}]}`,
			want{checks: []string{CheckSchema}, pointer: "/findings/0/target", msg: "Tool.field"}},
		{"not an object", `["agc"]`, want{checks: []string{CheckSchema}, pointer: "", line: 1, msg: "the response is an array"}},
		{"verdict too light", "{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\n\"verdict\":\"steer\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\",\"verdict\":\"block\"}]}",
			want{ok: true, checks: []string{CheckVerdictTooLight}, pointer: "/verdict", line: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, bs := Decode([]byte(tt.in))
			if (r != nil) != tt.want.ok {
				t.Fatalf("response %v, want ok=%v; breaches %+v", r, tt.want.ok, bs)
			}
			var got []string
			for _, b := range bs {
				got = append(got, b.Check)
			}
			if strings.Join(got, ",") != strings.Join(tt.want.checks, ",") {
				t.Fatalf("checks %v, want %v; breaches %+v", got, tt.want.checks, bs)
			}
			if len(bs) == 0 {
				return
			}
			b := bs[0]
			if b.Pointer != tt.want.pointer {
				t.Errorf("pointer %q, want %q", b.Pointer, tt.want.pointer)
			}
			if tt.want.line != 0 && b.Line != tt.want.line {
				t.Errorf("line %d, want %d (%s)", b.Line, tt.want.line, b.Message)
			}
			if !strings.Contains(b.Message, tt.want.msg) {
				t.Errorf("message %q does not contain %q", b.Message, tt.want.msg)
			}
		})
	}
}

func TestDecodeFields(t *testing.T) {
	r, bs := Decode([]byte(okResponse))
	if r == nil || len(bs) != 0 {
		t.Fatalf("Decode: %v %+v", r, bs)
	}
	f := r.Findings[0]
	if r.Gate.ID != "workstream-isolation" || r.Verdict != Repaired || f.Target != "Bash.command" ||
		f.Location == nil || f.Location.Line != 3 || f.Location.EndLine != 4 || f.Location.Path != "src/a.go" {
		t.Errorf("decoded %+v, finding %+v", r, f)
	}
}

// hostileDecodeInputs once made Decode take seconds (or blow the stack); BenchmarkDecodeHostile
// measures them, TestDecodeHostile checks what they give.
func hostileDecodeInputs() map[string]string {
	return map[string]string{
		"deep objects":  strings.Repeat(`{"a":`, MaxDepth-1) + "1" + strings.Repeat("}", MaxDepth-1),
		"many findings": `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"block","findings":[` + strings.Repeat(`{"rule":"R"},`, 20000) + `{"rule":"R"}]}`,
		"huge numbers":  `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"block","findings":[{"rule":"r","message":"m","location":{"path":"a","line":1e999999,"column":-1e999999,"end_line":` + strings.Repeat("9", 100000) + `}}]}`,
	}
}

func BenchmarkDecodeHostile(b *testing.B) {
	for name, in := range hostileDecodeInputs() {
		b.Run(name, func(b *testing.B) {
			data := []byte(in)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Decode(data)
			}
		})
	}
}

func TestDecodeHostile(t *testing.T) {
	for name, in := range hostileDecodeInputs() {
		r, bs := Decode([]byte(in))
		if r != nil || len(bs) == 0 {
			t.Errorf("%s: want breaches, got %v %d", name, r, len(bs))
		}
		if len(bs) > maxSchemaBreaches+1 {
			t.Errorf("%s: %d breaches, want at most %d", name, len(bs), maxSchemaBreaches+1)
		}
	}
}

func TestLineOf(t *testing.T) {
	data := []byte("{\n \"a\": [\n  1,\n  {\"b\": \"x\\\"}\"},\n  [2]\n ],\n \"a~/b\": 0, \"a\": [5]\n}")
	tests := []struct {
		tokens []string
		want   int
	}{
		{nil, 1},
		{[]string{"a"}, 7}, // the last of duplicate keys, as encoding/json keeps
		{[]string{"a~/b"}, 7},
		{[]string{"missing"}, 1},
		{[]string{"a", "0"}, 7},
	}
	for _, tt := range tests {
		if got := lineOf(data, tt.tokens); got != tt.want {
			t.Errorf("lineOf(%q) = %d, want %d", tt.tokens, got, tt.want)
		}
	}
	d2 := []byte("[\n1,\n{\"b\": \"x\\\"}\"},\n[2]\n]")
	for tok, want := range map[string]int{"0": 2, "1": 3, "2": 4, "3": 1} {
		if got := lineOf(d2, []string{tok}); got != want {
			t.Errorf("lineOf(/%s) = %d, want %d", tok, got, want)
		}
	}
}

func TestSchemaIsValidJSONSchema(t *testing.T) {
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	if r, bs := v.Decode([]byte(okResponse)); r == nil || len(bs) > 0 {
		t.Errorf("Validator.Decode: %v %+v", r, bs)
	}
	if !strings.Contains(string(Schema()), SchemaID) {
		t.Errorf("schema does not carry $id %s", SchemaID)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(okResponse))
	f.Add([]byte(`{"agc":"0.2","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m","verdict":"block"}]}`))
	f.Add([]byte("[[[[{}]]]]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, bs := Decode(data)
		if r == nil && len(bs) == 0 {
			t.Fatal("no response and no breach")
		}
		for _, b := range bs {
			if _, ok := LookupCheck(b.Check); !ok {
				t.Fatalf("unknown check %q", b.Check)
			}
			if b.Line < 1 {
				t.Fatalf("breach without a line: %+v", b)
			}
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
