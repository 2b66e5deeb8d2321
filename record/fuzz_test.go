package record

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// FuzzInput: any stdin and stdout bytes make one log line that decodes back to the same bytes.
func FuzzInput(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`), []byte("ok\n"))
	f.Add([]byte("not json\n"), []byte{0xff, 0})
	f.Add([]byte("\"\u2028<&>\""), []byte("line\nline"))
	for _, tc := range [][2][]byte{{nil, nil}, {[]byte("[1,\n2]\n"), []byte("\x00")}} {
		f.Add(tc[0], tc[1])
	}
	f.Fuzz(func(t *testing.T, stdin, stdout []byte) {
		o := outcome{stdin: bytes.Clone(stdin), stdout: bytes.Clone(stdout)}
		rec := o.record(Options{Command: []string{"hook"}})
		line, err := hooklog.Encode(rec)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(line, '\n') != len(line)-1 {
			t.Fatalf("record is not one line: %q", line)
		}
		var back hooklog.Record
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatal(err)
		}
		if got := streamBytes(t, back.Stdout, back.StdoutEncoding); !bytes.Equal(got, stdout) {
			t.Errorf("stdout %q came back as %q", stdout, got)
		}
		// The input is logged as the JSON value it was; numbers beyond float64 stay valid JSON.
		var in any
		dec := json.NewDecoder(bytes.NewReader(back.Input))
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil {
			t.Fatalf("input %s: %v", back.Input, err)
		}
		if s, ok := in.(string); ok && !json.Valid(stdin) || back.InputEncoding != "" {
			if got := streamBytes(t, s, back.InputEncoding); !bytes.Equal(got, stdin) {
				t.Errorf("stdin %q came back as %q", stdin, got)
			}
		}
	})
}

// streamBytes undoes a logged stream's encoding.
func streamBytes(t *testing.T, s, enc string) []byte {
	t.Helper()
	if enc == "" {
		return []byte(s)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || enc != "base64" {
		t.Fatalf("encoding %q: %v", enc, err)
	}
	return b
}
