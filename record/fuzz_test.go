package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"testing"
	"unicode/utf8"

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
		if len(stdin) > 0 && stdin[0]&1 == 1 { // as if the recorder kept only this much
			o.stdinCut = &hooklog.Cut{Kept: int64(len(stdin)), Size: int64(len(stdin)) + 1}
		}
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
		if o.stdinCut != nil && (back.Input[0] != '"' || back.InputCut == nil) {
			t.Fatalf("a cut stdin must be logged as a string with its cut: %s", back.Input)
		}
		if s, ok := in.(string); ok && (!json.Valid(stdin) || o.stdinCut != nil) || back.InputEncoding != "" {
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

// FuzzKept: whatever the writes and the bound, the kept bytes are the stream's start, within
// the bound and never ending in a split character; a cut carries the whole stream's size and
// SHA-256, and a stream within the bound is kept whole with no cut.
func FuzzKept(f *testing.F) {
	f.Add([]byte("héllo wörld"), uint16(4), uint8(3))
	f.Add([]byte{0xff, 0xe2, 0x82, 0xac}, uint16(3), uint8(1))
	f.Add([]byte(""), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, stream []byte, limit uint16, chunk uint8) {
		k := kept{limit: int(limit)}
		step := int(chunk) + 1
		for i := 0; i < len(stream); i += step {
			k.add(stream[i:min(i+step, len(stream))])
		}
		head, cut := k.result()
		if !bytes.HasPrefix(stream, head) || len(head) > int(limit) {
			t.Fatalf("kept %q of %q with limit %d", head, stream, limit)
		}
		if len(stream) <= int(limit) {
			if cut != nil || len(head) != len(stream) {
				t.Fatalf("a stream within the bound was cut: %+v", cut)
			}
			return
		}
		sum := sha256.Sum256(stream)
		if cut == nil || cut.Size != int64(len(stream)) || cut.Kept != int64(len(head)) || cut.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("cut %+v for %d bytes", cut, len(stream))
		}
		if len(head) < int(limit)-utf8.UTFMax {
			t.Fatalf("kept %d bytes of a bound of %d", len(head), limit)
		}
		if r, n := utf8.DecodeLastRune(head); r == utf8.RuneError && n == 1 && utf8.Valid(stream[:limit]) {
			t.Fatalf("a split character ends %q", head)
		}
	})
}
