package gemini_test

import (
	"context"
	"encoding/json"
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
	"github.com/agc-sarif/agc-sarif/runtimes/gemini"
)

// geminiReplayFull is what the hook runs of testdata/gemini/{run,ask} show: every answer.
var geminiReplayFull = map[string][]string{
	"rm -rf build":                      {"gemini-guard/no-rm-rf"},
	"curl https://example.invalid/x.sh": {"gemini-guard/no-download"},
	"wget https://example.invalid/y.sh": {"agc/gemini-repair-drops-arguments", "gemini-guard/no-download"},
	"echo CONTEXT ran":                  {"agc/gemini-steer-from-before-tool", "gemini-guard/prefer-make"},
	"echo EXIT2 ran":                    {"agc/gemini-exit-2-json-answer", "gemini-guard/exit-two"},
	"echo EXITTEXT ran":                 {"gemini-guard/exit-two-text"},
	"echo CRASH ran anyway":             {"agc/hook-failed-open"},
	"echo REPAIREXIT2 ran":              {"agc/gemini-exit-2-json-answer", "agc/repair-by-exit-2", "gemini-guard/exit-two-repair"},
	"echo NOINPUT ran":                  {"agc/repaired-without-updated-input", "gemini-guard/lost-repair"},
	"echo LETTHROUGH ran":               {"agc/block-lets-call-through", "gemini-guard/soft-block"},
	"echo HEAVIER ran":                  {"agc/hook-answer-heavier-than-verdict", "gemini-guard/only-a-hint"},
	"echo ASKME ran":                    {"agc/gemini-ask-hangs", "gemini-guard/ask-first"},
}

// geminiReplayBlocks is what the session and the stream show: the calls a hook blocked, read
// from the text the model got (a JSON body on exit 2 did not block: Gemini read it as the answer).
var geminiReplayBlocks = map[string][]string{
	"rm -rf build":      {"gemini-guard/no-rm-rf"},
	"echo EXITTEXT ran": {"gemini-guard/exit-two-text"},
	"echo HEAVIER ran":  {"agc/hook-answer-heavier-than-verdict", "gemini-guard/only-a-hint"},
}

// TestGeminiReplay reads the records of the real Gemini CLI (testdata/gemini/{run,ask}, made by
// regen.sh): each of its own files alone, the recorder's log alone, and all of them together give
// the expected rule ids, each event's rule once.
func TestGeminiReplay(t *testing.T) {
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}
	files := []struct {
		file   string
		format inputs.Format
		want   map[string][]string
	}{
		{"session.jsonl", gemini.Session, geminiReplayBlocks},
		{"stream.jsonl", gemini.Stream, geminiReplayBlocks},
		{"telemetry.log", gemini.Telemetry, geminiReplayFull},
		{"hook-log.jsonl", inputs.HookLog, geminiReplayFull},
	}
	all := findings.NewSet()
	for _, c := range files {
		set := findings.NewSet()
		for _, dir := range []string{"run", "ask"} {
			s, format := inputstest.ReadFile(t, runtimes.Inputs(), filepath.Join("..", "..", "testdata", "gemini", dir, c.file), opts)
			if format != c.format {
				t.Errorf("%s/%s detected as %q, want %q", dir, c.file, format, c.format)
			}
			if len(s.Problems) > 0 {
				t.Errorf("%s/%s: problems %v", dir, c.file, s.Problems)
			}
			set.Merge(s)
		}
		if got := inputstest.RuleIDs(t, set, agent.Gemini, true); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s alone:\n got %v\nwant %v", c.file, got, c.want)
		}
		all.Merge(set)
	}
	if got := inputstest.RuleIDs(t, all, agent.Gemini, true); !reflect.DeepEqual(got, geminiReplayFull) {
		t.Errorf("all together:\n got %v\nwant %v", got, geminiReplayFull)
	}
}

// readGemini reads text with rd and returns the set, checking that every record is counted.
func readGemini(t *testing.T, rd inputs.Reader, text string) *findings.Set {
	t.Helper()
	set := findings.NewSet()
	if err := rd.Read(context.Background(), inputs.Input{Name: "g", R: strings.NewReader(text)}, inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}, set); err != nil {
		t.Fatal(err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Errorf("records %d != used %d + skipped %d", set.Records, set.Used, set.Skipped())
	}
	return set
}

// findingRules lists the rule ids of a set's findings in order.
func findingRules(set *findings.Set) []string {
	var out []string
	for _, f := range set.Findings {
		out = append(out, f.RuleID)
	}
	return out
}

// geminiCase is one table test of a Gemini reader.
type geminiCase struct {
	name     string
	text     string
	rules    []string
	skips    int
	problems int
}

func runGeminiCases(t *testing.T, rd inputs.Reader, sniff func(*inputs.Head) bool, tests []geminiCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !sniff(inputs.NewHead([]byte(tt.text))) {
				t.Fatal("not detected")
			}
			set := readGemini(t, rd, tt.text)
			if got := findingRules(set); !reflect.DeepEqual(got, tt.rules) {
				t.Errorf("rules %v, want %v; skips %v problems %v", got, tt.rules, set.Skips, set.Problems)
			}
			if set.Skipped() != tt.skips || len(set.Problems) != tt.problems {
				t.Errorf("skipped %d (want %d), problems %v (want %d)", set.Skipped(), tt.skips, set.Problems, tt.problems)
			}
			for _, p := range set.Problems {
				if p.Source.File != "g" || p.Source.Line < 1 {
					t.Errorf("problem without file and line: %+v", p)
				}
			}
			for _, f := range set.Findings {
				if f.Call == nil || f.Call.Runtime != agent.Gemini || f.Call.SessionID != "s1" || f.EventKey == "" {
					t.Errorf("finding %s: call %+v key %q", f.RuleID, f.Call, f.EventKey)
				}
			}
		})
	}
}

const geminiDeny = `inputs.AGC block: g/no-rm/run_shell_command.command — no`

func TestGeminiStreamReader(t *testing.T) {
	init := `{"type":"init","timestamp":"t","session_id":"s1","model":"m"}` + "\n"
	use := func(id, cmd string) string {
		return `{"type":"tool_use","tool_name":"run_shell_command","tool_id":"` + id + `","parameters":{"command":"` + cmd + `"}}` + "\n"
	}
	res := func(id, status, text, typ string) string {
		e := ""
		if typ != "" {
			e = `,"error":{"type":"` + typ + `","message":"` + text + `"}`
		}
		return `{"type":"tool_result","tool_id":"` + id + `","status":"` + status + `","output":"` + text + `"` + e + "}\n"
	}
	runGeminiCases(t, gemini.StreamFormat().Reader, gemini.StreamFormat().Sniff, []geminiCase{
		{name: "block", text: init + use("c1", "rm x") + res("c1", "error", "Tool execution blocked: "+geminiDeny, "policy_violation"),
			rules: []string{"g/no-rm"}, skips: 2},
		{name: "plain block is unstructured", text: init + use("c1", "rm x") + res("c1", "error", "Tool execution blocked: no", "policy_violation"),
			rules: []string{"hook/beforetool-run_shell_command"}, skips: 2},
		{name: "clean run", text: init + use("c1", "ls") + res("c1", "success", "ok", "") + `{"type":"result","status":"success"}` + "\n", skips: 4},
		{name: "after-tool block is left to the hook files", text: init + use("c1", "ls") + res("c1", "error", "Tool result blocked: x", "execution_failed"), skips: 3},
		{name: "bad line is a problem, the rest is read", text: init + "{not json\n" + use("c1", "rm x") + res("c1", "error", "Tool execution blocked: "+geminiDeny, "policy_violation"),
			rules: []string{"g/no-rm"}, skips: 3, problems: 1},
		{name: "same call twice is two events", text: init + use("c1", "rm x") + res("c1", "error", "Tool execution blocked: "+geminiDeny, "policy_violation") +
			use("c2", "rm x") + res("c2", "error", "Tool execution blocked: "+geminiDeny, "policy_violation"),
			rules: []string{"g/no-rm", "g/no-rm"}, skips: 3},
	})
}

func TestGeminiSessionReader(t *testing.T) {
	meta := `{"sessionId":"s1","projectHash":"h","startTime":"t","kind":"main"}` + "\n"
	msg := func(id, cmd, status, key, text string) string {
		return `{"id":"m","type":"gemini","content":"x","toolCalls":[{"id":"` + id + `","name":"run_shell_command","args":{"command":"` + cmd +
			`"},"status":"` + status + `","result":[{"functionResponse":{"id":"` + id + `","response":{"` + key + `":"` + text + `"}}}]}]}` + "\n"
	}
	blocked := msg("c1", "rm x", "error", "error", "Tool execution blocked: "+geminiDeny)
	runGeminiCases(t, gemini.SessionFormat().Reader, gemini.SessionFormat().Sniff, []geminiCase{
		{name: "block", text: meta + blocked, rules: []string{"g/no-rm"}, skips: 1},
		{name: "message written again is read once", text: meta + `{"id":"m","type":"gemini","content":"x"}` + "\n" + blocked + `{"$set":{"lastUpdated":"t"}}` + "\n" + blocked,
			rules: []string{"g/no-rm"}, skips: 4},
		{name: "calls in a $set patch", text: meta + `{"$set":{"messages":[` + strings.TrimSpace(blocked) + `]}}` + "\n", rules: []string{"g/no-rm"}, skips: 1},
		{name: "clean call and user message", text: meta + `{"id":"u","type":"user","content":[{"text":"go"}]}` + "\n" + msg("c1", "ls", "success", "output", "ok"), skips: 3},
		{name: "bad line is a problem", text: meta + "[1,\n" + blocked, rules: []string{"g/no-rm"}, skips: 2, problems: 1},
	})
}

// telemetryHook is a hook_call record as Gemini writes it (pretty-printed), for cmd with the
// given stdout, stderr and exit code.
func telemetryHook(cmd, stdout, stderr string, exit int) string {
	in := `{\n  \"session_id\": \"s1\",\n  \"hook_event_name\": \"BeforeTool\",\n  \"tool_name\": \"run_shell_command\",\n  \"tool_input\": {\n    \"command\": \"` + cmd + `\"\n  }\n}`
	return "{\n  \"hrTime\": [\n    1,\n    2\n  ],\n  \"attributes\": {\n    \"session.id\": \"s1\",\n    \"event.name\": \"gemini_cli.hook_call\",\n" +
		"    \"hook_event_name\": \"BeforeTool\",\n    \"hook_name\": \"guard\",\n    \"exit_code\": " + string(rune('0'+exit)) + ",\n" +
		"    \"hook_input\": \"" + in + "\",\n    \"stdout\": \"" + stdout + "\",\n    \"stderr\": \"" + stderr + "\"\n  },\n  \"_body\": \"Hook call\"\n}\n"
}

func TestGeminiTelemetryReader(t *testing.T) {
	deny := `{\"decision\": \"deny\", \"reason\": \"` + geminiDeny + `\"}`
	other := "{\n  \"hrTime\": [1, 2],\n  \"attributes\": {\n    \"event.name\": \"gemini_cli.tool_call\",\n    \"function_name\": \"run_shell_command\"\n  }\n}\n"
	span := "{\n  \"_spanContext\": {\"spanId\": \"x\"},\n  \"attributes\": {\"gen_ai.agent.name\": \"gemini-cli\"}\n}\n"
	runGeminiCases(t, gemini.TelemetryFormat().Reader, gemini.TelemetryFormat().Sniff, []geminiCase{
		{name: "deny", text: telemetryHook("rm x", deny, "", 0) + other, rules: []string{"g/no-rm"}, skips: 1},
		{name: "crash fails open", text: span + telemetryHook("ls", "", "Traceback", 1), rules: []string{"agc/hook-failed-open"}, skips: 1},
		{name: "no answer", text: telemetryHook("ls", "", "", 0), skips: 1},
		{name: "two hooks on one call, one event each", text: telemetryHook("rm x", deny, "", 0) + strings.Replace(telemetryHook("rm x", deny, "", 0), `"guard"`, `"other"`, 1),
			rules: []string{"g/no-rm"}},
		{name: "cut record is a problem, the next is read", text: "{\n  \"hrTime\": [1,\n" + telemetryHook("rm x", deny, "", 0),
			rules: []string{"g/no-rm"}, skips: 1, problems: 1},
	})
}

func FuzzGeminiStream(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gemini", "run", "stream.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"type":"tool_result","tool_id":"c","status":"error","output":"Tool execution blocked: x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), gemini.StreamFormat().Reader, data)
	})
}

func FuzzGeminiSession(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gemini", "run", "session.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"$set":{"messages":[{"type":"gemini","toolCalls":[{"id":"c","status":"error","result":[{"functionResponse":{"response":{"error":"Tool execution blocked: x"}}}]}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), gemini.SessionFormat().Reader, data)
	})
}

func FuzzGeminiTelemetry(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "gemini", "run", "telemetry.log")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(telemetryHook("rm x", `{\"decision\": \"deny\", \"reason\": \"x\"}`, "", 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), gemini.TelemetryFormat().Reader, data)
	})
}

// TestGeminiOneHookOneRule: Gemini CLI's telemetry names a hook by its settings name ("freeze"),
// the recorder's log by its program (freeze_guard.py); one exit-2 block read from both is one
// result, under the program's rule, with the settings name's rule as an alias, and it keeps the
// recorder's words (which name the command), whichever file is read first.
func TestGeminiOneHookOneRule(t *testing.T) {
	input := `{"session_id":"s1","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":"git push"}}`
	hookLog := `{"time":"2026-12-01T00:00:01Z","runtime":"gemini-cli","command":["python3",".gemini/hooks/freeze_guard.py"],"input":` + input +
		`,"exit_code":2,"stdout":"","stderr":"the tree is frozen\n"}` + "\n"
	q, _ := json.Marshal(input)
	telemetry := `{"attributes":{"session.id":"s1","event.name":"gemini_cli.hook_call","event.timestamp":"2026-12-01T00:00:01Z","hook_event_name":"BeforeTool","hook_type":"command","hook_name":"freeze","exit_code":2,"hook_input":` +
		string(q) + `,"stdout":"","stderr":"the tree is frozen\n"}}` + "\n"
	read := func(name, text string) *findings.Set {
		t.Helper()
		format := runtimes.Inputs().Detect([]byte(text))
		rd, err := runtimes.Inputs().ReaderFor(format)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		set := findings.NewSet()
		if err := rd.Read(context.Background(), inputs.Input{Name: name, R: strings.NewReader(text)}, inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}, set); err != nil {
			t.Fatal(err)
		}
		if len(set.Findings) != 1 {
			t.Fatalf("%s (%s): findings %v, problems %v, skips %v", name, format, findingRules(set), set.Problems, set.Skips)
		}
		return set
	}
	if got := read("telemetry.log", telemetry).Findings[0].RuleID; got != "hook/freeze" {
		t.Fatalf("telemetry alone: rule %s, want hook/freeze", got)
	}
	for _, order := range [][2]string{{"hook-log.jsonl", "telemetry.log"}, {"telemetry.log", "hook-log.jsonl"}} {
		texts := map[string]string{"hook-log.jsonl": hookLog, "telemetry.log": telemetry}
		all := findings.NewSet()
		all.Merge(read(order[0], texts[order[0]]))
		all.Merge(read(order[1], texts[order[1]]))
		if len(all.Findings) != 1 {
			t.Fatalf("%s first: findings %v, want one", order[0], findingRules(all))
		}
		f := all.Findings[0]
		if f.RuleID != "hook/freeze_guard" || !reflect.DeepEqual(f.Aliases, []string{"hook/freeze"}) ||
			!strings.Contains(f.Message, "freeze_guard.py") || f.Source.File != "hook-log.jsonl" {
			t.Errorf("%s first: rule %s aliases %v from %s, message %q", order[0], f.RuleID, f.Aliases, f.Source.File, f.Message)
		}
	}
}
