package inputs

import (
	"bufio"
	"bytes"
	"context"
	"maps"
	"os"
	"slices"
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
	return readPath(t, "../testdata/friction/"+name, name, "", calls)
}

// readPath reads the file at path, named name, in format (detected when "").
func readPath(t *testing.T, path, name string, format Format, calls func(CallEvent)) *findings.Set {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(SniffSize)
	if format == "" {
		format = testRegistry.Detect(head)
	}
	rd, err := testRegistry.ReaderFor(format)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	set := findings.NewSet()
	if err := rd.Read(context.Background(), Input{Name: name, R: br}, Options{Registry: testRegistry, IncludeUnstructured: true, Calls: calls != nil, Sink: Funcs{OnCall: calls}}, set); err != nil {
		t.Fatal(err)
	}
	return set
}

// TestCallsTimelineOtherRuntimes: the readers of Codex CLI's rollout, Gemini CLI's stream-json,
// session and telemetry, and Copilot CLI's events hand every call they record to Options.Calls,
// with its result where the file has one; the recorder's log of the same run hands its hook runs.
// Gemini's and Copilot's name no call id in common with the hook runs: every file of the run names
// the same calls by the same order keys, and so do the findings. Reading calls changes no finding.
func TestCallsTimelineOtherRuntimes(t *testing.T) {
	cases := []struct {
		dir    string
		files  map[string]CallKind // file → the kind each call is handed as
		marker map[string]string   // file → what marks one call in it
		keyed  bool
	}{
		{"../testdata/codex/run/", map[string]CallKind{"rollout.jsonl": CallUse, "hook-log.jsonl": CallHook},
			map[string]string{"rollout.jsonl": `"type":"function_call"`, "hook-log.jsonl": `"hook_event_name":"PreToolUse"`}, false},
		{"../testdata/gemini/run/", map[string]CallKind{"stream.jsonl": CallUse, "session.jsonl": CallUse, "telemetry.log": CallHook, "hook-log.jsonl": CallHook},
			map[string]string{"stream.jsonl": `"type":"tool_use"`, "session.jsonl": `"type":"tool_use"`, "telemetry.log": `"gemini_cli.hook_call"`, "hook-log.jsonl": `"hook_event_name":"BeforeTool"`}, true},
		{"../testdata/copilot/run/", map[string]CallKind{"events.jsonl": CallUse, "session-events.jsonl": CallUse, "hook-log.jsonl": CallHook},
			map[string]string{"events.jsonl": `"type":"tool.execution_start"`, "session-events.jsonl": `"type":"tool.execution_start"`, "hook-log.jsonl": `"runtime":"copilot-cli"`}, true},
	}
	formatOf := map[string]Format{"rollout.jsonl": "codex-rollout"} // its first line is longer than SniffSize
	for _, c := range cases {
		var keys0 []string
		for _, name := range slices.Sorted(maps.Keys(c.files)) {
			kind := c.files[name]
			counted := name
			if name == "session.jsonl" {
				counted = "stream.jsonl" // the session file writes a message again once its calls are done
			}
			b, err := os.ReadFile(c.dir + counted)
			if err != nil {
				t.Fatal(err)
			}
			want := bytes.Count(b, []byte(c.marker[counted]))
			got := map[CallKind]int{}
			keys := map[string]bool{}
			with := readPath(t, c.dir+name, name, formatOf[name], func(ev CallEvent) {
				got[ev.Kind]++
				if ev.Kind == kind {
					if ev.Tool == "" || ev.Session == "" || c.keyed && ev.Key == "" || !c.keyed && (ev.ID == "" || ev.Key != "") {
						t.Errorf("%s%s: %s event without its tool, session or key: %+v", c.dir, name, kind, ev)
					}
					keys[ev.Key+"\x00"+map[bool]string{true: "", false: ev.ID}[c.keyed]] = true
				}
			})
			if got[kind] != want || len(keys) != want {
				t.Errorf("%s%s: %d %s events naming %d calls, want %d", c.dir, name, got[kind], kind, len(keys), want)
			}
			if kind == CallUse && got[CallResult] != want {
				t.Errorf("%s%s: %d results, want %d", c.dir, name, got[CallResult], want)
			}
			for _, f := range with.Findings {
				if c.keyed && f.Call != nil && !keys[f.Call.Key+"\x00"] {
					t.Errorf("%s%s: finding %s names no call read (key %q)", c.dir, name, f.RuleID, f.Call.Key)
				}
			}
			ks := slices.Sorted(maps.Keys(keys))
			switch {
			case name == "session.jsonl":
				// it numbers a call by the arguments it ran with: a rewritten call apart
				log, err := os.ReadFile(c.dir + "hook-log.jsonl")
				if err != nil {
					t.Fatal(err)
				}
				rewrites := bytes.Count(log, []byte(`\"tool_input\"`))
				if n := len(ks) - countIn(ks, keys0); rewrites == 0 || n != rewrites {
					t.Errorf("%s%s: %d calls named apart from the run's other files, want the %d the hooks rewrote", c.dir, name, n, rewrites)
				}
			case keys0 == nil:
				keys0 = ks
			case !slices.Equal(ks, keys0):
				t.Errorf("%s%s names the calls\n%q\nthe run's other files\n%q", c.dir, name, ks, keys0)
			}
			without := readPath(t, c.dir+name, name, formatOf[name], nil)
			if len(with.Findings) != len(without.Findings) || with.Records != without.Records || with.Used != without.Used {
				t.Errorf("%s%s: Options.Calls changed the reading: %d/%d findings, %d/%d records", c.dir, name,
					len(with.Findings), len(without.Findings), with.Records, without.Records)
			}
		}
	}
}

// countIn counts the strings of a that b holds (b sorted).
func countIn(a, b []string) int {
	n := 0
	for _, s := range a {
		if _, ok := slices.BinarySearch(b, s); ok {
			n++
		}
	}
	return n
}
