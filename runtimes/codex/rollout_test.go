package codex_test

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
	"github.com/agc-sarif/agc-sarif/runtimes/codex"
)

// codexRuleIDs maps each call's command to the sorted rule ids of its findings.
func codexRuleIDs(t *testing.T, set *findings.Set) map[string][]string {
	t.Helper()
	return inputstest.RuleIDs(t, set, agent.Codex, true)
}

// TestCodexReplay reads the records of the real Codex CLI (testdata/codex/run, made by
// regen.sh): the rollout alone, the recorder's log alone, and both together give the expected
// rule ids, each event's rule once.
func TestCodexReplay(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "codex", "run")
	full := map[string][]string{
		"rm -rf build":                      {"codex-guard/no-rm-rf"},
		"curl https://example.invalid/x.sh": {"codex-guard/no-download"},
		"wget https://example.invalid/y.sh": {"agc/codex-repair-without-allow", "codex-guard/no-download"},
		"echo CONTEXT ran":                  {"codex-guard/prefer-make"},
		"echo EXIT2 ran":                    {"codex-guard/exit-two"},
		"echo CRASH ran anyway":             {"agc/hook-failed-open"},
		"echo ASKME ran":                    {"agc/codex-answer-ignored", "codex-guard/ask-first"},
		"echo REPAIREXIT2 ran":              {"agc/repair-by-exit-2", "codex-guard/exit-two-repair"},
		"echo NOINPUT ran":                  {"agc/repaired-without-updated-input", "codex-guard/lost-repair"},
		"echo LETTHROUGH ran":               {"agc/block-lets-call-through", "codex-guard/soft-block"},
		"echo HEAVIER ran":                  {"agc/hook-answer-heavier-than-verdict", "codex-guard/only-a-hint"},
	}
	// The rollout keeps only what reached the model: blocks, and contexts of answers Codex took.
	rollout := map[string][]string{
		"rm -rf build":                      {"codex-guard/no-rm-rf"},
		"curl https://example.invalid/x.sh": {"codex-guard/no-download"},
		"echo CONTEXT ran":                  {"codex-guard/prefer-make"},
		"echo EXIT2 ran":                    {"codex-guard/exit-two"},
		"echo REPAIREXIT2 ran":              {"codex-guard/exit-two-repair"},
		"echo LETTHROUGH ran":               {"codex-guard/soft-block"},
		"echo HEAVIER ran":                  {"agc/hook-answer-heavier-than-verdict", "codex-guard/only-a-hint"},
	}
	opts := inputs.Options{IncludeUnstructured: true}
	all := findings.NewSet()
	for _, c := range []struct {
		file string
		want map[string][]string
	}{{"rollout.jsonl", rollout}, {"hook-log.jsonl", full}} {
		set, format := inputstest.ReadFile(t, runtimes.Inputs(), filepath.Join(dir, c.file), opts)
		if c.file == "rollout.jsonl" && format != codex.Rollout {
			t.Errorf("rollout detected as %q", format)
		}
		if got := codexRuleIDs(t, set); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s alone:\n got %v\nwant %v", c.file, got, c.want)
		}
		if set.Records != set.Used+set.Skipped() {
			t.Errorf("%s: records %d != used %d + skipped %d", c.file, set.Records, set.Used, set.Skipped())
		}
		all.Merge(set)
	}
	if got := codexRuleIDs(t, all); !reflect.DeepEqual(got, full) {
		t.Errorf("both together:\n got %v\nwant %v", got, full)
	}
}

func TestCodexRolloutReader(t *testing.T) {
	meta := `{"type":"session_meta","payload":{"id":"s1","cwd":"/p","originator":"codex_exec","cli_version":"0.171.0"}}` + "\n"
	call := func(id, cmd string) string {
		return `{"type":"response_item","payload":{"type":"function_call","name":"exec_command","call_id":"` + id + `","arguments":"{\"cmd\":\"` + cmd + `\"}"}}` + "\n"
	}
	out := func(id, text string) string {
		return `{"type":"response_item","payload":{"type":"function_call_output","call_id":"` + id + `","output":"` + text + `"}}` + "\n"
	}
	ctx := func(text string) string {
		return `{"type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"` + text + `"}],"internal_chat_message_metadata_passthrough":{"content_item_kinds":["hooks.additional_context"]}}}` + "\n"
	}
	tests := []struct {
		name    string
		text    string
		rules   []string
		command string
		skips   int
	}{
		{name: "block text in the AGC text form", text: meta + call("c1", "rm x") + out("c1", "Command blocked by PreToolUse hook: AGC block: g/r/Bash.command — no. Command: rm x"),
			rules: []string{"g/r"}, command: "rm x", skips: 2},
		{name: "block without its call names the command", text: meta + out("c9", "Command blocked by PreToolUse hook: AGC block: g/r/Bash.command — no. Command: rm y"),
			rules: []string{"g/r"}, command: "rm y", skips: 1},
		{name: "plain block is unstructured", text: meta + call("c1", "ls") + out("c1", "Command blocked by PreToolUse hook: not here. Command: ls"),
			rules: []string{"hook/pretooluse-bash"}, command: "ls", skips: 2},
		{name: "context before the output", text: meta + call("c1", "ls") + ctx(`{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"steer\",\"findings\":[{\"rule\":\"hint\",\"message\":\"m\"}]}`) + out("c1", "ok"),
			rules: []string{"g/hint"}, command: "ls", skips: 3},
		{name: "context of a call that never ended", text: meta + call("c1", "ls") + ctx(`AGC steer: g/hint/Bash.command — m`),
			rules: []string{"g/hint"}, command: "ls", skips: 3},
		{name: "clean output", text: meta + call("c1", "ls") + out("c1", "ok"), skips: 3},
		{name: "bad line is counted", text: meta + "{not json\n" + call("c1", "ls") + out("c1", "ok"), skips: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !codex.RolloutFormat().Sniff(inputs.NewHead([]byte(tt.text))) {
				t.Fatal("not detected as a rollout")
			}
			set := findings.NewSet()
			if err := codex.RolloutFormat().Reader.Read(context.Background(), inputs.Input{Name: "r.jsonl", R: strings.NewReader(tt.text)}, inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}, set); err != nil {
				t.Fatal(err)
			}
			var rules []string
			for _, f := range set.Findings {
				rules = append(rules, f.RuleID)
				if f.Call.Command != tt.command || f.Call.SessionID != "s1" || f.Call.Tool != "Bash" {
					t.Errorf("call %+v, want command %q in session s1", f.Call, tt.command)
				}
			}
			if !reflect.DeepEqual(rules, tt.rules) {
				t.Errorf("rules %v, want %v; skips %v problems %v", rules, tt.rules, set.Skips, set.Problems)
			}
			if set.Skipped() != tt.skips || set.Records != set.Used+set.Skipped() {
				t.Errorf("records %d, used %d, skipped %d (want %d skipped)", set.Records, set.Used, set.Skipped(), tt.skips)
			}
		})
	}
}

func FuzzCodexRollout(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "codex", "run", "rollout.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Command blocked by PreToolUse hook: x. Command: y"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), codex.RolloutFormat().Reader, data)
	})
}
