package cline_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/inputs/inputstest"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/runtimes/cline"
)

// TestClineReplay reads the records of the real Cline CLI (testdata/cline): the recorder's log,
// the session's messages JSON and the --json stream, each alone and all together, and checks
// the rules each call gave, each event's rule once, under Cline's rules.
func TestClineReplay(t *testing.T) {
	cases := []struct {
		dir           string
		log, messages map[string][]string
		skips         []string
	}{
		{dir: "lguard",
			log: map[string][]string{
				"":                               {"lguard/read-scope"},
				"curl https://example.invalid/x": {"lguard/no-network"},
				"git push --force origin main":   {"agc/cline-exit-status-ignored"},
				"wc -l README.md":                {"lguard/count-seen"},
				"chmod 600 README.md":            {"agc/hook-failed-open"},
				"echo TYPO":                      {"agc/hook-failed-open"},
				"npm publish":                    {"lguard/no-publish"},
			},
			// The transcript keeps contexts and the rewrite; not the exit 2, the crashes or the
			// cancel's answer.
			messages: map[string][]string{
				"":                               {"lguard/read-scope"},
				"curl https://example.invalid/x": {"lguard/no-network"},
				"wc -l README.md":                {"lguard/count-seen"},
			}},
		{dir: "vguard",
			log: map[string][]string{
				"cat a.txt":                     {"agc/cline-exit-status-ignored"},
				"terraform apply -auto-approve": {"agc/block-lets-call-through", "vguard/no-apply"},
				"pip install requests":          {"vguard/no-install"},
				"make deploy":                   {"vguard/no-deploy"},
			},
			messages: map[string][]string{
				"terraform apply -auto-approve": {"agc/block-lets-call-through", "vguard/no-apply"},
				"pip install requests":          {"vguard/no-install"},
			}},
		{dir: "example",
			log: map[string][]string{
				"echo --color=always": {"cguard/no-colour"},
				"echo sudo-ran":       {"agc/cline-exit-status-ignored"},
				"echo CRASH ran":      {"agc/hook-failed-open"},
				"echo CONTEXT ran":    {"cguard/note"},
				"echo CTRLLINE ran":   {"cguard/ctrl-line"},
				"echo BADJSON ran":    {"agc/hook-failed-open"},
				"echo POSTCTX ran":    {"cguard/post-note"},
				"rm -rf build":        {"agc/cline-cancel-drops-context", "hook/guard"},
			},
			messages: map[string][]string{
				"echo --color=always": {"cguard/no-colour"},
				"echo CONTEXT ran":    {"cguard/note"},
				"echo CTRLLINE ran":   {"cguard/ctrl-line"},
				"echo POSTCTX ran":    {"cguard/post-note"},
			}},
	}
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}
	for _, c := range cases {
		dir := filepath.Join("..", "..", "testdata", "cline", c.dir)
		msgs, _ := filepath.Glob(filepath.Join(dir, "session", "*.messages.json"))
		if len(msgs) != 1 {
			t.Fatalf("%s: %d messages files", c.dir, len(msgs))
		}
		files := map[string]inputs.Format{filepath.Join(dir, "hook-log.jsonl"): inputs.HookLog, msgs[0]: cline.Messages, filepath.Join(dir, "stream.jsonl"): cline.Stream}
		all := findings.NewSet()
		for path, wantFormat := range files {
			set, format := inputstest.ReadFile(t, runtimes.Inputs(), path, opts)
			if format != wantFormat {
				t.Errorf("%s detected as %q, want %q", path, format, wantFormat)
			}
			want := map[string][]string{}
			switch format {
			case inputs.HookLog:
				want = c.log
			case cline.Messages:
				want = c.messages
			}
			if got := inputstest.RuleIDs(t, set, agent.Cline, true); !reflect.DeepEqual(got, want) {
				t.Errorf("%s alone:\n got %v\nwant %v", path, got, want)
			}
			all.Merge(set)
		}
		if got := inputstest.RuleIDs(t, all, agent.Cline, true); !reflect.DeepEqual(got, c.log) {
			t.Errorf("%s together:\n got %v\nwant %v", c.dir, got, c.log)
		}
	}
}

func FuzzClineMessages(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "cline", "example", "session", "1796395276600_phpm0.messages.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"version":1,"sessionId":"s","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"run_commands","input":{"commands":["a"]}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":[{"query":"b"}]},{"type":"text","text":"<hook_context source=\"PreToolUse\" tool_name=\"run__commands\" tool_call_id=\"c\">\nAGC block: g/r/t — m\n</hook_context>"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), cline.MessagesFormat().Reader, data)
	})
}

func FuzzClineStream(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "cline", "lguard", "stream.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"ts":"t","type":"hook_event","hookEventName":"tool_call"}` + "\n" + `{"ts":"t","type":"hook_event","hookEventName":"agent_error"}` + "\n" + `{"ts":"t","type":"run_aborted"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), cline.StreamFormat().Reader, data)
	})
}
