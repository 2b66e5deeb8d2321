package friction_test

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/agc-sarif/agc-sarif/friction"
)

// records counts what marks one tool call (or one hook run at one) in a recorded file: the
// number of calls the timeline must give from it, read from the file as a person would.
func records(t *testing.T, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte(marker))
}

// runtimeRun is one recorded run of a runtime other than Claude Code: its folder, and each file
// of it with what marks a call in it.
type runtimeRun struct {
	dir   string
	files map[string]string // file → marker of one call
}

var runtimeRuns = []runtimeRun{
	{"../testdata/codex/run/", map[string]string{
		"rollout.jsonl":  `"type":"function_call"`,
		"hook-log.jsonl": `"hook_event_name":"PreToolUse"`,
	}},
	{"../testdata/gemini/run/", map[string]string{
		"stream.jsonl":   `"type":"tool_use"`,
		"session.jsonl":  `"type":"tool_use"`, // checked against the stream below: its calls are written twice
		"telemetry.log":  `"gemini_cli.hook_call"`,
		"hook-log.jsonl": `"hook_event_name":"BeforeTool"`,
	}},
	{"../testdata/copilot/run/", map[string]string{
		"events.jsonl":         `"type":"tool.execution_start"`,
		"session-events.jsonl": `"type":"tool.execution_start"`,
		"hook-log.jsonl":       `"runtime":"copilot-cli"`,
	}},
	{"../testdata/copilot/repeat/", map[string]string{
		"events.jsonl":         `"type":"tool.execution_start"`,
		"session-events.jsonl": `"type":"tool.execution_start"`,
		"hook-log.jsonl":       `"runtime":"copilot-cli"`,
	}},
}

// TestCallsTimelineRuntimes: each file of a Codex, Gemini CLI or Copilot CLI run gives the
// timeline every call it records, in one session, and the files read together give each call
// once (Gemini's and Copilot's hook runs name no call: they are joined by the call's order key).
func TestCallsTimelineRuntimes(t *testing.T) {
	for _, run := range runtimeRuns {
		want := -1
		var all []string
		for _, f := range slices.Sorted(maps.Keys(run.files)) {
			marker := run.files[f]
			n := records(t, run.dir+f, marker)
			if f == "session.jsonl" {
				n = records(t, run.dir+"stream.jsonl", marker) // the session file writes a message again once its calls are done
			}
			if want >= 0 && n != want {
				t.Fatalf("%s: the files record %d and %d calls", run.dir, want, n)
			}
			want = n
			all = append(all, f)
			rep := report(t, run.dir, run.dir, f)
			if rep.Calls != n || rep.Sessions != 1 {
				t.Errorf("%s%s alone: %d calls in %d sessions; want %d in 1", run.dir, f, rep.Calls, rep.Sessions, n)
			}
		}
		if want <= 0 {
			t.Fatalf("%s: no calls recorded", run.dir)
		}
		for _, files := range [][]string{all, append(all[1:], all[0])} {
			if rep := report(t, run.dir, run.dir, files...); rep.Calls != want || rep.Sessions != 1 {
				t.Errorf("%s %v together: %d calls in %d sessions; want %d in 1", run.dir, files, rep.Calls, rep.Sessions, want)
			}
		}
	}
}

// patternCounts is the calls of each gate pattern of a report (hook patterns are named after the
// hook, which each file names its own way).
func patternCounts(rep friction.Report) map[string]int {
	out := map[string]int{}
	for _, p := range rep.Patterns {
		if p.Kind == friction.KindGate {
			out[p.Pattern] = p.Count
		}
	}
	return out
}

// TestOrderKeyedSourcesAgree: Gemini CLI's stream, telemetry and the recorder's log, and Copilot
// CLI's events and the recorder's log, name no call id in common; alone and together they give
// the same calls, and each gate pattern the hook runs show counts every call once however many
// files record it.
func TestOrderKeyedSourcesAgree(t *testing.T) {
	cases := []struct {
		dir       string
		calls     int
		hookRuns  []string // files that keep every hook run: each alone gives every pattern
		callFiles []string // files of calls
	}{
		{"../testdata/gemini/run/", 12, []string{"telemetry.log", "hook-log.jsonl"}, []string{"stream.jsonl", "session.jsonl"}},
		{"../testdata/copilot/run/", 7, []string{"hook-log.jsonl"}, []string{"events.jsonl", "session-events.jsonl"}},
	}
	for _, c := range cases {
		want := patternCounts(report(t, c.dir, c.dir, c.hookRuns[0]))
		if len(want) < 3 {
			t.Fatalf("%s: the hook runs give %v; want several gate patterns", c.dir, want)
		}
		for _, files := range [][]string{
			c.hookRuns,
			append(append([]string{}, c.callFiles...), c.hookRuns...),
			append(append([]string{}, c.hookRuns...), c.callFiles...),
			{c.callFiles[0], c.hookRuns[0]},
		} {
			rep := report(t, c.dir, c.dir, files...)
			got := patternCounts(rep)
			if rep.Calls != c.calls || len(got) != len(want) {
				t.Errorf("%s %v: %d calls, patterns %v; want %d calls, patterns %v", c.dir, files, rep.Calls, got, c.calls, want)
				continue
			}
			for p, n := range want {
				if got[p] != n {
					t.Errorf("%s %v: %s counts %d calls; want %d", c.dir, files, p, got[p], n)
				}
			}
		}
	}
}
