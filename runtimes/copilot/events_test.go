package copilot_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/inputs/inputstest"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/runtimes/copilot"
)

// TestCopilotReplay reads the records of the real Copilot CLI (testdata/copilot, made by
// regen.sh): the session's events.jsonl alone, the --output-format json stream alone, the
// recorder's log alone, and all of them together (in every order) give the expected rule ids,
// each event's rule once: the files name a call differently (call id, or none in the hook's
// stdin), so this shows that the order key (OrdinalKeys) matches them.
func TestCopilotReplay(t *testing.T) {
	// What the model was told: denials only (a rewrite or a context leaves no trace there).
	denials := map[string][]string{
		"rm -rf build":          {"copilot-guard/no-rm-rf"},
		"echo EXIT2 ran":        {"agc/copilot-exit-2-loses-reason"},
		"echo CRASH ran anyway": {"agc/copilot-hook-failed-closed"},
	}
	cases := []struct {
		dir           string
		log, replayed map[string][]string
	}{
		{dir: "run", replayed: denials, log: map[string][]string{
			"rm -rf build":                      {"copilot-guard/no-rm-rf"},
			"curl https://example.invalid/x.sh": {"copilot-guard/no-download"},
			"echo CONTEXT ran":                  {"copilot-guard/prefer-make"},
			"echo CLAUDESTYLE ran":              {"agc/copilot-answer-ignored"},
			"echo EXIT2 ran":                    {"agc/copilot-exit-2-loses-reason", "copilot-guard/exit-two"},
			"echo CRASH ran anyway":             {"agc/copilot-hook-failed-closed"},
		}},
		// The same denied command twice in one session: two events, not one.
		{dir: "repeat", replayed: map[string][]string{
			"rm -rf build":   {"copilot-guard/no-rm-rf", "copilot-guard/no-rm-rf"},
			"echo EXIT2 ran": {"agc/copilot-exit-2-loses-reason"},
		}, log: map[string][]string{
			"rm -rf build":          {"copilot-guard/no-rm-rf", "copilot-guard/no-rm-rf"},
			"echo CLAUDEREPAIR ran": {"agc/copilot-answer-ignored"},
			"echo EXIT2 ran":        {"agc/copilot-exit-2-loses-reason", "copilot-guard/exit-two"},
		}},
		// create and edit, steered: Copilot records nothing of an answer that let a call run.
		{dir: "edit", replayed: map[string][]string{}, log: map[string][]string{
			"": {"copilot-guard/edit-seen", "copilot-guard/edit-seen"},
		}},
	}
	files := []string{"session-events.jsonl", "events.jsonl", "hook-log.jsonl"}
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}
	for _, c := range cases {
		sets := map[string]func() *findings.Set{}
		for _, name := range files {
			path := filepath.Join("..", "..", "testdata", "copilot", c.dir, name)
			sets[name] = func() *findings.Set { s, _ := inputstest.ReadFile(t, runtimes.Inputs(), path, opts); return s }
			set, format := inputstest.ReadFile(t, runtimes.Inputs(), path, opts)
			want, wantFormat := c.replayed, copilot.Events
			if name == "hook-log.jsonl" {
				want, wantFormat = c.log, inputs.HookLog
			}
			if format != wantFormat {
				t.Errorf("%s/%s detected as %q, want %q", c.dir, name, format, wantFormat)
			}
			if got := inputstest.RuleIDs(t, set, agent.Copilot, true); !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s alone:\n got %v\nwant %v", c.dir, name, got, want)
			}
		}
		for _, order := range [][]string{{files[0], files[1]}, {files[1], files[0]}, files, {files[1], files[2], files[0]}, {files[2], files[0], files[1]}} {
			all := findings.NewSet()
			for _, name := range order {
				all.Merge(sets[name]())
			}
			want := c.log
			if len(order) == 2 {
				want = c.replayed
			}
			if got := inputstest.RuleIDs(t, all, agent.Copilot, true); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %v together:\n got %v\nwant %v", c.dir, order, got, want)
			}
		}
	}
}

func TestCopilotEventsReader(t *testing.T) {
	start := `{"type":"session.start","data":{"sessionId":"s1","copilotVersion":"1.0.102","context":{"cwd":"/p"}},"id":"e0","timestamp":"t0"}` + "\n"
	exec := func(id, cmd string) string {
		return `{"type":"tool.execution_start","data":{"toolCallId":"` + id + `","toolName":"bash","arguments":{"command":"` + cmd + `"}},"id":"x","timestamp":"t"}` + "\n"
	}
	hstart := func(inv, id, cmd string) string {
		return `{"type":"hook.start","data":{"hookInvocationId":"` + inv + `","hookType":"preToolUse","input":{"sessionId":"s1","cwd":"/p","toolCalls":[{"id":"` + id + `","name":"bash","args":{"command":"` + cmd + `"}}]}},"id":"x","timestamp":"t"}` + "\n"
	}
	hend := func(inv, rest string) string {
		return `{"type":"hook.end","data":{"hookInvocationId":"` + inv + `","hookType":"preToolUse",` + rest + `},"id":"x","timestamp":"t"}` + "\n"
	}
	done := func(id, msg string) string {
		if msg == "" {
			return `{"type":"tool.execution_complete","data":{"toolCallId":"` + id + `","success":true,"result":{"content":"ok"}},"id":"x","timestamp":"t"}` + "\n"
		}
		return `{"type":"tool.execution_complete","data":{"toolCallId":"` + id + `","success":false,"error":{"message":"` + msg + `","code":"denied"}},"id":"x","timestamp":"t"}` + "\n"
	}
	result := `{"type":"result","timestamp":"t9","sessionId":"s1","exitCode":0}` + "\n"
	deny := `Denied by preToolUse hook: inputs.AGC block: g/r/bash.command — no`
	tests := []struct {
		name    string
		text    string
		rules   []string
		command string
		keyed   bool
		skips   int
	}{
		{name: "session: deny from hook.end, its tool result passed over",
			text:  start + exec("c1", "rm x") + hstart("h1", "c1", "rm x") + hend("h1", `"success":true,"output":{"c1":"`+deny+`"}`) + done("c1", deny),
			rules: []string{"g/r"}, command: "rm x", keyed: true, skips: 4},
		{name: "session: exit 2 loses its reason",
			text:  start + exec("c1", "ls") + hstart("h1", "c1", "ls") + hend("h1", `"success":true,"output":{"c1":"Denied by preToolUse hook: hook exited with code 2"}`),
			rules: []string{"agc/copilot-exit-2-loses-reason"}, command: "ls", keyed: true, skips: 3},
		{name: "session: crash fails closed",
			text:  start + exec("c1", "ls") + hstart("h1", "c1", "ls") + hend("h1", `"success":false,"output":{"c1":"Denied by preToolUse hook from \".github/hooks/a.json\" (hook errored)"},"error":{"message":"Error: Hook command failed with code 1\nStderr: boom","source":".github/hooks/a.json"}`),
			rules: []string{"agc/copilot-hook-failed-closed"}, command: "ls", keyed: true, skips: 3},
		{name: "session: a run that allowed records nothing",
			text: start + exec("c1", "ls") + hstart("h1", "c1", "ls") + hend("h1", `"success":true`) + done("c1", ""), skips: 5},
		{name: "session: hook.end without its start still names the call",
			text:  start + hend("h9", `"success":true,"output":{"c9":"`+deny+`"}`),
			rules: []string{"g/r"}, keyed: true, skips: 1},
		{name: "stream: deny from the tool result, keyed once the result names the session",
			text:  exec("c1", "rm x") + done("c1", deny) + result,
			rules: []string{"g/r"}, command: "rm x", keyed: true, skips: 2},
		{name: "stream cut before its result: no session, no key",
			text:  exec("c1", "rm x") + done("c1", deny),
			rules: []string{"g/r"}, command: "rm x", skips: 1},
		{name: "stream: crash without its stderr",
			text:  exec("c1", "ls") + done("c1", `Denied by preToolUse hook from \"a.json\" (hook errored)`) + result,
			rules: []string{"agc/copilot-hook-failed-closed"}, command: "ls", keyed: true, skips: 2},
		{name: "stream: plain deny is unstructured",
			text:  exec("c1", "ls") + done("c1", "Denied by preToolUse hook: not here") + result,
			rules: []string{"hook/pretooluse-bash"}, command: "ls", keyed: true, skips: 2},
		{name: "postToolUse block is a counted skip",
			text: exec("c1", "ls") + done("c1", "Tool result blocked: no") + result, skips: 3},
		{name: "bad line is counted with its line",
			text: start + "{not json\n" + `{"type":"hook.end","data":[1]}` + "\n", skips: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !copilot.EventsFormat().Sniff(inputs.NewHead([]byte(tt.text))) {
				t.Fatal("not detected as Copilot events")
			}
			set := findings.NewSet()
			if err := copilot.EventsFormat().Reader.Read(context.Background(), inputs.Input{Name: "e.jsonl", R: strings.NewReader(tt.text)}, inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}, set); err != nil {
				t.Fatal(err)
			}
			var rules []string
			for _, f := range set.Findings {
				rules = append(rules, f.RuleID)
				if f.Call.Command != tt.command || f.Call.Runtime != agent.Copilot || (f.EventKey != "") != tt.keyed {
					t.Errorf("call %+v key %q, want command %q keyed %v", f.Call, f.EventKey, tt.command, tt.keyed)
				}
			}
			if !reflect.DeepEqual(rules, tt.rules) {
				t.Errorf("rules %v, want %v; skips %v problems %v", rules, tt.rules, set.Skips, set.Problems)
			}
			if set.Skipped() != tt.skips || set.Records != set.Used+set.Skipped() {
				t.Errorf("records %d, used %d, skipped %d (want %d skipped): %v", set.Records, set.Used, set.Skipped(), tt.skips, set.Skips)
			}
			for _, p := range set.Problems {
				if p.Source.File != "e.jsonl" || p.Source.Line < 1 {
					t.Errorf("problem without file and line: %+v", p)
				}
			}
		})
	}
}

// TestCopilotEventsLongLines: records over the reader's window are read from their skeleton: a
// create of 3 MB still names its file (with no place in the order: its args were cut), a tool
// result of 3 MB is passed over, and a hook.end whose texts were cut is a problem naming its line.
func TestCopilotEventsLongLines(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	text := `{"type":"session.start","data":{"sessionId":"s1"},"id":"e","timestamp":"t"}` + "\n" +
		`{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"create","arguments":{"path":"/p/a.txt","file_text":"` + big + `"}},"id":"x","timestamp":"t"}` + "\n" +
		`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false,"error":{"message":"Denied by preToolUse hook: inputs.AGC block: g/r/create.path — no","code":"denied"}},"id":"x","timestamp":"t"}` + "\n" +
		`{"type":"tool.execution_complete","data":{"toolCallId":"c2","success":true,"result":{"content":"` + big + `"}},"id":"x","timestamp":"t"}` + "\n" +
		`{"type":"hook.end","data":{"hookInvocationId":"h","hookType":"preToolUse","success":true,"output":{"c3":"Denied by preToolUse hook: ` + big + `"}},"id":"x","timestamp":"t"}` + "\n"
	set := findings.NewSet()
	if err := copilot.EventsFormat().Reader.Read(context.Background(), inputs.Input{Name: "e.jsonl", R: strings.NewReader(text)}, inputs.Options{Registry: runtimes.Inputs()}, set); err != nil {
		t.Fatal(err)
	}
	if len(set.Findings) != 1 || set.Findings[0].Call.FilePath != "/p/a.txt" || set.Findings[0].EventKey != "copilot-cli/s1/c1/preToolUse" {
		t.Errorf("findings %+v", set.Findings)
	}
	if len(set.Problems) != 1 || !strings.Contains(set.Problems[0].String(), "e.jsonl:5: hook record of more than 1 MiB") {
		t.Errorf("problems %v, want one for line 5", set.Problems)
	}
	if set.Records != 5 || set.Records != set.Used+set.Skipped() {
		t.Errorf("records %d, used %d, skipped %d", set.Records, set.Used, set.Skipped())
	}
}

func FuzzCopilotEvents(f *testing.F) {
	for _, name := range []string{"session-events.jsonl", "events.jsonl"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "copilot", "repeat", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":"hook.end","data":{"hookInvocationId":"h","hookType":"preToolUse","success":false,"output":{"c":"Denied by preToolUse hook: hook exited with code 2"},"error":{"message":"Error: Hook command failed with code 1\nStderr: x"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), copilot.EventsFormat().Reader, data)
	})
}
