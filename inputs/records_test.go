package inputs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

type gotRecord struct {
	Line    int
	Data    string
	Problem bool
}

func scanAll(t testing.TB, in string, max int) []gotRecord {
	var out []gotRecord
	err := scanRecords(context.Background(), strings.NewReader(in), max, func(r Record) error {
		out = append(out, gotRecord{r.Line, string(r.Data), r.Problem != ""})
		return nil
	})
	if err != nil {
		t.Fatalf("scanRecords: %v", err)
	}
	return out
}

func TestScanRecords(t *testing.T) {
	pretty := "{\n  \"a\": 1,\n  \"b\": \"}\"\n}\n"
	tests := []struct {
		name string
		in   string
		max  int
		want []gotRecord
	}{
		{"empty", "", 0, nil},
		{"blank lines", "\n\n  \n", 0, nil},
		{"jsonl", "{\"a\":1}\n{\"b\":2}\n", 0, []gotRecord{{1, `{"a":1}`, false}, {2, `{"b":2}`, false}}},
		{"crlf", "{\"a\":1}\r\n{\"b\":2}\r\n", 0, []gotRecord{{1, `{"a":1}`, false}, {2, `{"b":2}`, false}}},
		{"no final newline", "{\"a\":1}", 0, []gotRecord{{1, `{"a":1}`, false}}},
		{"pretty printed", pretty + pretty, 0, []gotRecord{
			{1, strings.TrimSpace(pretty), false}, {5, strings.TrimSpace(pretty), false}}},
		{"braces inside strings", "{\"s\":\"{[\\\"\"}\n", 0, []gotRecord{{1, `{"s":"{[\""}`, false}}},
		{"cut short then next", "{\"a\":\n{\"b\":2}\n", 0, []gotRecord{{1, "{\"a\":", true}, {2, `{"b":2}`, false}}},
		{"cut short at end", "{\"a\":1}\n{\"b\":", 0, []gotRecord{{1, `{"a":1}`, false}, {2, `{"b":`, true}}},
		{"text line passes through", "AGC block: g/r — m\n", 0, []gotRecord{{1, "AGC block: g/r — m", false}}},
		{"too long", "{\"a\":\"" + strings.Repeat("x", 100) + "\"}\n{\"b\":2}\n", 50, []gotRecord{{1, "", true}, {2, `{"b":2}`, false}}},
		{"pretty value too long", "{\n\"a\": \"" + strings.Repeat("x", 60) + "\"\n}\n{\"b\":2}\n", 50,
			[]gotRecord{{1, "{", true}, {2, "", true}, {3, "}", false}, {4, `{"b":2}`, false}}},
		{"extra closer", "}\n{\"b\":2}\n", 0, []gotRecord{{1, "}", false}, {2, `{"b":2}`, false}}},
		// A JSON string cannot hold a line break: a line that ends inside one ends the value there.
		{"cut inside a string", "{\"a\":\"xx\n{\"b\":2}\n", 0, []gotRecord{{1, `{"a":"xx`, true}, {2, `{"b":2}`, false}}},
		{"cut inside a string, next indented", "{\"a\":\"xx\n  {\"b\":2}\n", 0, []gotRecord{{1, `{"a":"xx`, true}, {2, `{"b":2}`, false}}},
		{"cut inside a string, text after", "[\"x\nAGC block: g/r — m\n", 0, []gotRecord{{1, `["x`, true}, {2, "AGC block: g/r — m", false}}},
		{"pretty value cut inside a string", "{\n  \"a\": \"xx\n  \"b\": 1\n}\n{\"c\":3}\n", 0, []gotRecord{
			{1, "{\n  \"a\": \"xx", true}, {3, `"b": 1`, false}, {4, "}", false}, {5, `{"c":3}`, false}}},
		{"cut at a quote then many records", "{\"a\":\"\n{}\n{}\n", 0, []gotRecord{{1, `{"a":"`, true}, {2, "{}", false}, {3, "{}", false}}},
		{"escaped quote at the cut", "{\"a\":\"\\\"\n{}\n", 0, []gotRecord{{1, `{"a":"\"`, true}, {2, "{}", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scanAll(t, tt.in, tt.max)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d records %+v, want %d %+v", len(got), got, len(tt.want), tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("record %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestLineReaderLongLine(t *testing.T) {
	// A line far longer than the bufio buffer is kept whole when under the limit.
	long := strings.Repeat("y", 3<<20)
	got := scanAll(t, "\""+long+"\"\n{}\n", 8<<20)
	if len(got) != 2 || len(got[0].Data) != len(long)+2 || got[1].Line != 2 {
		t.Fatalf("long line not kept whole: %d records, first %d bytes", len(got), len(got[0].Data))
	}
}

func TestScanRecordsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := scanRecords(ctx, strings.NewReader("{}\n"), 0, func(Record) error { return nil })
	if err == nil {
		t.Fatal("want the context's error")
	}
}

// FuzzScanRecords checks that the splitter never panics, numbers lines in order, never returns
// a record over the limit, that every valid one-line JSON value comes back unchanged, and that
// every line holding one whole JSON object or array comes back as a record of its own, whatever
// came before it (a cut line never hides the records after it).
func FuzzScanRecords(f *testing.F) {
	for _, s := range []string{"", "{}\n", "{\n}\n", "{\"a\":\n{\"b\":1}", "[[[[", "\"\\", "}}}\n{", "{\"s\":\"\\\"}\"}\n"} {
		f.Add([]byte(s))
	}
	for _, s := range []string{"{\"a\":\"x\n{\"b\":1}\n", "[\"\\\n[1]\n", "{\n\"a\":\"\n}\n{}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		const max = 1 << 10
		last := 0
		got := map[int]string{}
		err := scanRecords(context.Background(), bytes.NewReader(in), max, func(r Record) error {
			if r.Problem == "" {
				got[r.Line] = string(r.Data)
			}
			if r.Line < last {
				t.Fatalf("line %d after %d", r.Line, last)
			}
			last = r.Line
			if len(r.Data) > max+1 {
				t.Fatalf("record of %d bytes over the limit %d", len(r.Data), max)
			}
			if r.Problem == "" && json.Valid(r.Data) && !bytes.Contains(r.Data, []byte("\n")) {
				if !bytes.Contains(in, r.Data) {
					t.Fatalf("record %q not in input", r.Data)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range bytes.Split(in, []byte("\n")) {
			l = bytes.TrimSuffix(l, []byte("\r"))
			if len(l) > 0 && len(l) <= max && (l[0] == '{' || l[0] == '[') && json.Valid(l) {
				if want := string(bytes.TrimSpace(l)); got[i+1] != want {
					t.Fatalf("line %d %q came back as %q", i+1, want, got[i+1])
				}
			}
		}
	})
}

func TestDetectLines(t *testing.T) {
	junk := strings.Repeat("j", SniffSize+100)
	block := `{"agc":"0.1","gate":{"id":"r","kind":"judgment"},"verdict":"block","findings":[{"rule":"x","message":"m"}]}`
	tests := []struct {
		in   string
		want Format
		line int
	}{
		{junk + "\n" + block + "\n", AGC, 2},
		{junk + "\nmore junk\n```agc\n", Judgment, 3},
		{junk + "\n" + junk, "", 2},
		{"", "", 0},
	}
	for _, tt := range tests {
		f, line, err := testRegistry.DetectLines(context.Background(), strings.NewReader(tt.in), 1<<30)
		if err != nil || f != tt.want || line != tt.line {
			t.Errorf("testRegistry.DetectLines(%.20q…) = %q, line %d, %v; want %q, line %d", tt.in, f, line, err, tt.want, tt.line)
		}
	}
}

// TestReadersCutLineHidesNothing cuts one line of real stream-json, transcript and hook-log
// replays inside a string, as a killed writer leaves it, and checks that every finding of the
// whole file is still read and the cut line is named.
func TestReadersCutLineHidesNothing(t *testing.T) {
	for _, c := range []struct {
		file   string
		format Format
	}{
		{"../testdata/claude/pre-deny/stream.jsonl", streamJSONFormat},
		{"../testdata/claude/pre-deny/session.jsonl", transcriptFormat},
		{"../testdata/claude/pre-deny/hook-log.jsonl", HookLog},
		{"../testdata/claude/post-block/stream.jsonl", streamJSONFormat},
		{"../testdata/claude/post-block/session.jsonl", transcriptFormat},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		whole := readFormat(t, c.format, data)
		if len(whole.Findings) == 0 {
			t.Fatalf("%s: no findings to lose", c.file)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for i := range lines {
			q := bytes.IndexByte(lines[i], '"')
			if q < 0 || !bytes.HasPrefix(lines[i], []byte("{")) {
				continue
			}
			// Cut line i just inside its first string, and keep line i as a whole record
			// after it, so the findings must not change.
			var cut []byte
			for j, l := range lines {
				if j == i {
					cut = append(cut, l[:q+2]...)
					cut = append(cut, '\n')
				}
				cut = append(cut, l...)
			}
			got := readFormat(t, c.format, cut)
			if len(got.Findings) != len(whole.Findings) {
				t.Errorf("%s cut at line %d: %d findings, want %d", c.file, i+1, len(got.Findings), len(whole.Findings))
			}
			if !hasProblemAt(got, i+1, "cut short") {
				t.Errorf("%s cut at line %d: no problem names it: %v", c.file, i+1, got.Problems)
			}
		}
	}
}

func readFormat(t *testing.T, f Format, data []byte) *findings.Set {
	t.Helper()
	rd, err := testRegistry.ReaderFor(f)
	if err != nil {
		t.Fatal(err)
	}
	set := findings.NewSet()
	if err := rd.Read(context.Background(), Input{Name: "x.jsonl", R: bytes.NewReader(data)}, Options{Registry: testRegistry, IncludeUnstructured: true}, set); err != nil {
		t.Fatal(err)
	}
	return set
}

func hasProblemAt(s *findings.Set, line int, what string) bool {
	for _, p := range s.Problems {
		if p.Source.Line == line && strings.Contains(p.Message, what) {
			return true
		}
	}
	return false
}
