package record

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/hooklog"
)

// TestReplayLog checks the hook log written inside the real Claude Code (testdata/replay).
func TestReplayLog(t *testing.T) {
	const path = "testdata/replay/hook-log.jsonl"
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type seen struct {
		event, command string
		exit           int
		signal         string
		timedOut       bool
	}
	var got []seen
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var r hooklog.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		var in struct {
			Event     string `json:"hook_event_name"`
			ToolInput struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		if err := json.Unmarshal(r.Input, &in); err != nil || r.Runtime != agent.ClaudeCode {
			t.Fatalf("%s:%d: input %s runtime %q: %v", path, n, r.Input, r.Runtime, err)
		}
		got = append(got, seen{in.Event, in.ToolInput.Command, r.ExitCode, r.Signal, r.TimedOut})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	want := []seen{
		{"PreToolUse", "echo hello", 0, "", false},
		{"PostToolUse", "echo hello", 0, "", false},
		{"PreToolUse", "rm -rf build", 2, "", false},
		{"PreToolUse", "echo slow", -1, "terminated", true},
		{"PostToolUse", "echo slow", 0, "", false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s:%d: %+v, want %+v", path, i+1, got[i], want[i])
		}
	}
}
