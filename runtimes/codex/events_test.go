package codex_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/inputs/inputstest"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/runtimes/codex"
)

// TestCodexEventsReplay: the real `codex exec --json` events (testdata/codex/run) are
// recognised, yield no finding (they keep no hook answer) and count every line as skipped with
// that reason; read beside the rollout and the recorder's log they change nothing.
func TestCodexEventsReplay(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "codex", "run")
	opts := inputs.Options{IncludeUnstructured: true}
	set, format := inputstest.ReadFile(t, runtimes.Inputs(), filepath.Join(dir, "events.jsonl"), opts)
	if format != codex.Events {
		t.Fatalf("events detected as %q", format)
	}
	data, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(data), "\n")
	if len(set.Findings) != 0 || set.Skips[codex.SkipEvents] != lines || set.Records != lines {
		t.Errorf("findings %d, skips %v, records %d; want none, %d lines skipped", len(set.Findings), set.Skips, set.Records, lines)
	}
	without := findings.NewSet()
	with := findings.NewSet()
	for _, name := range []string{"rollout.jsonl", "hook-log.jsonl", "events.jsonl"} {
		s, _ := inputstest.ReadFile(t, runtimes.Inputs(), filepath.Join(dir, name), opts)
		if name != "events.jsonl" {
			s2, _ := inputstest.ReadFile(t, runtimes.Inputs(), filepath.Join(dir, name), opts)
			without.Merge(s2)
		}
		with.Merge(s)
	}
	if got, want := codexRuleIDs(t, with), codexRuleIDs(t, without); !reflect.DeepEqual(got, want) {
		t.Errorf("with the events:\n got %v\nwant %v", got, want)
	}
}

func TestCodexEventsReader(t *testing.T) {
	started := `{"type":"thread.started","thread_id":"t1"}` + "\n"
	tests := []struct {
		name           string
		text           string
		sniff          bool
		skips          int
		problems       int
		problemOnLines []int
	}{
		{name: "every event is skipped", sniff: true, skips: 4,
			text: started + `{"type":"turn.started"}` + "\n" + `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","exit_code":0}}` + "\n" + `{"type":"turn.completed","usage":{}}` + "\n"},
		{name: "bad and foreign lines are problems with their line", sniff: true, skips: 3, problems: 2, problemOnLines: []int{2, 3},
			text: started + "{oops\n" + `{"type":"session_meta"}` + "\n"},
		{name: "a Copilot or Claude stream is not this", text: `{"type":"session.start","data":{}}` + "\n"},
		{name: "thread.started without its id is not this", text: `{"type":"thread.started"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codex.EventsFormat().Sniff(inputs.NewHead([]byte(tt.text))); got != tt.sniff {
				t.Fatalf("sniff %v, want %v", got, tt.sniff)
			}
			if !tt.sniff {
				return
			}
			set := findings.NewSet()
			if err := codex.EventsFormat().Reader.Read(context.Background(), inputs.Input{Name: "e.jsonl", R: strings.NewReader(tt.text)}, inputs.Options{Registry: runtimes.Inputs()}, set); err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, p := range set.Problems {
				lines = append(lines, p.Source.Line)
			}
			if len(set.Findings) != 0 || set.Skipped() != tt.skips || len(set.Problems) != tt.problems || !reflect.DeepEqual(lines, tt.problemOnLines) {
				t.Errorf("findings %d, skips %v, problems %+v", len(set.Findings), set.Skips, set.Problems)
			}
		})
	}
}

func FuzzCodexEvents(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "codex", "run", "events.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"item.completed","item":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), codex.EventsFormat().Reader, data)
	})
}
