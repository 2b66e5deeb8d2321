package inputs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// editsOf reads text with the reader of format and returns the edit calls it handed over, each
// as "line/index session tool cwd time file_path", in the order they came.
func editsOf(t *testing.T, format Format, text string, in Input) []string {
	t.Helper()
	r, err := testRegistry.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	opts := Options{Registry: testRegistry, Edits: true, Sink: Funcs{OnEdit: func(e EditCall) {
		var fp struct {
			FilePath string `json:"file_path"`
			Path     string `json:"path"`
		}
		json.Unmarshal(e.Input, &fp) //nolint:errcheck // an input that is not an object names no file
		mu.Lock()
		got = append(got, fmt.Sprintf("%d/%d %s %s %s %s %s", e.Source.Line, e.Index, e.Session, e.Tool, e.Cwd, e.Time, fp.FilePath+fp.Path))
		mu.Unlock()
	}}}
	in.Name, in.Named = "in.jsonl", true
	if in.At == nil {
		in.R = strings.NewReader(text)
	}
	if err := r.Read(context.Background(), in, opts, findings.NewSet()); err != nil {
		t.Fatal(err)
	}
	return got
}

func toolUse(name, file string) string {
	return `{"type":"tool_use","id":"t","name":"` + name + `","input":{"file_path":"` + file + `","content":"x"}}`
}

// TestEditCalls: the readers hand over the edit calls of the three record shapes (a transcript's
// and stream-json's assistant tool_use blocks, a hook log's edit input, Copilot's camelCase one),
// each with its record's line, session and time and the working folder the file last named; other
// tools, records that are not JSON objects and long records that name no edit tool give none.
func TestEditCalls(t *testing.T) {
	long := `{"type":"user","cwd":"/long","message":{"content":"` + strings.Repeat("y", maxCwdRecord) + `"}}`
	transcript := strings.Join([]string{
		`{"type":"user","sessionId":"s1","cwd":"/p","message":{"content":"hello"}}`,
		`not json "Edit"`,
		`{"type":"assistant","sessionId":"s1","timestamp":"T1","message":{"content":[` + toolUse("Write", "/p/a.py") + `,` + toolUse("Read", "/p/b.py") + `,` + toolUse("MultiEdit", "/p/c.py") + `]}}`,
		long,
		`{"type":"assistant","sessionId":"s1","message":{"content":[` + toolUse("Edit", "d.py") + `]}}`,
		`{"type":"user","cwd":"/q","message":{"content":"bye"}}`,
		`{"type":"assistant","sessionId":"s1","message":{"content":[` + toolUse("Edit", "e.py") + `]}}`,
	}, "\n")
	hook := func(in string) string {
		return `{"time":"T2","runtime":"claude-code","command":["g"],"input":` + in + `,"exit_code":0,"stdout":"","stderr":""}`
	}
	hookLog := strings.Join([]string{
		hook(`{"session_id":"s2","cwd":"/h","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"a.py","old_string":"x","new_string":"y"}}`),
		hook(`{"session_id":"s2","cwd":"/h","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"Edit"}}`),
		`{"time":"T3","runtime":"copilot-cli","command":["g"],"input":{"sessionId":"s4","toolName":"edit","cwd":"/c","toolArgs":{"path":"b.py","old_str":"x","new_str":"y"}}}`,
	}, "\n")
	stream := strings.Join([]string{
		`{"type":"system","subtype":"init","session_id":"s3","cwd":"/s"}`,
		`{"type":"assistant","session_id":"s3","message":{"content":[` + toolUse("Edit", "f.py") + `]}}`,
	}, "\n")
	for _, c := range []struct {
		name   string
		format Format
		text   string
		want   []string
	}{
		{"transcript", transcriptFormat, transcript, []string{"3/0 s1 Write /p T1 /p/a.py", "3/1 s1 MultiEdit /p T1 /p/c.py", "5/0 s1 Edit /p  d.py", "7/0 s1 Edit /q  e.py"}},
		{"hook log", HookLog, hookLog, []string{"1/0 s2 Edit /h T2 a.py", "3/0 s4 edit /c T3 b.py"}},
		{"stream-json", streamJSONFormat, stream, []string{"2/0 s3 Edit /s  f.py"}},
		{"execution file", streamJSONFormat, "[\n" + strings.ReplaceAll(stream, "\n", ",\n") + "\n]", []string{"3/0 s3 Edit /s  f.py"}},
	} {
		if got := editsOf(t, c.format, c.text, Input{}); !slices.Equal(got, c.want) {
			t.Errorf("%s: edit calls\n%q\nwant\n%q", c.name, got, c.want)
		}
	}
}

// TestEditCallsChunked: a hook log read in parts at once hands over the edit calls of a whole
// read, each once: the caller orders them by line.
func TestEditCallsChunked(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		tool := []string{"Edit", "Bash", "Write"}[i%3]
		fmt.Fprintf(&b, `{"time":"T","runtime":"claude-code","command":["g"],"input":{"session_id":"s%d","cwd":"/h","hook_event_name":"PreToolUse","tool_name":"%s","tool_input":{"file_path":"f%d.py","content":"%s"}},"exit_code":0,"stdout":"","stderr":""}`+"\n",
			i%5, tool, i, strings.Repeat("z", i%200))
	}
	text := b.String()
	whole := editsOf(t, HookLog, text, Input{})
	parts := editsOf(t, HookLog, text, Input{At: bytes.NewReader([]byte(text)), Size: int64(len(text)), Jobs: 4, ChunkSize: 64 << 10})
	slices.SortStableFunc(parts, func(a, b string) int {
		var la, ia, lb, ib int
		fmt.Sscanf(a, "%d/%d", &la, &ia)
		fmt.Sscanf(b, "%d/%d", &lb, &ib)
		return cmp(la, lb)*2 + cmp(ia, ib)
	})
	if len(whole) < 1000 || !slices.Equal(whole, parts) {
		t.Errorf("%d edit calls read whole, %d in parts; they differ", len(whole), len(parts))
	}
}

func cmp(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
