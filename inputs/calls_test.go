package inputs

import (
	"bufio"
	"context"
	"os"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// TestCallsTimeline: each Claude Code reader reports the friction replay's calls to
// Options.Calls — 14 calls with their results and turns, the 8 calls stream-json lists as
// permission_denials, the 5 PermissionRequest records of the hook log — and the findings and
// counts are the same with and without it.
func TestCallsTimeline(t *testing.T) {
	cases := []struct {
		file string
		want map[CallKind]int
	}{
		{"session.jsonl", map[CallKind]int{CallUse: 14, CallResult: 14}},
		{"stream.jsonl", map[CallKind]int{CallUse: 14, CallResult: 14, CallDenied: 8}},
		{"hook-log.jsonl", map[CallKind]int{CallHook: 13, CallPrompt: 5}},
	}
	for _, c := range cases {
		got := map[CallKind]int{}
		messages := map[string]bool{}
		with := read(t, c.file, func(ev CallEvent) {
			got[ev.Kind]++
			if ev.Kind == CallUse {
				messages[ev.Message] = true
				if ev.ID == "" || ev.Tool == "" || len(ev.Input) == 0 || ev.Cwd == "" {
					t.Errorf("%s: call without id, tool, input or cwd: %+v", c.file, ev)
				}
			}
			if ev.Kind == CallPrompt && ev.ID != "" {
				t.Errorf("%s: a PermissionRequest with a tool_use_id: %+v", c.file, ev)
			}
		})
		for k, n := range c.want {
			if got[k] != n {
				t.Errorf("%s: %d %s events, want %d", c.file, got[k], k, n)
			}
		}
		if got[CallUse] > 0 && len(messages) != 14 {
			t.Errorf("%s: %d model turns, want 14", c.file, len(messages))
		}
		without := read(t, c.file, nil)
		if len(with.Findings) != len(without.Findings) || with.Records != without.Records || with.Used != without.Used {
			t.Errorf("%s: Options.Calls changed the reading: %d/%d findings, %d/%d records", c.file,
				len(with.Findings), len(without.Findings), with.Records, without.Records)
		}
	}
}

func read(t *testing.T, name string, calls func(CallEvent)) *findings.Set {
	t.Helper()
	f, err := os.Open("../testdata/friction/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(SniffSize)
	rd, err := ReaderFor(Detect(head))
	if err != nil {
		t.Fatal(err)
	}
	set := findings.NewSet()
	if err := rd.Read(context.Background(), Input{Name: name, R: br}, Options{IncludeUnstructured: true, Calls: calls != nil, Sink: Funcs{OnCall: calls}}, set); err != nil {
		t.Fatal(err)
	}
	return set
}
