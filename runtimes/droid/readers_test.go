package droid_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/inputs/inputstest"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/runtimes/droid"
)

// droidRun is what testdata/droid/run and bare show, by command (a Create has none): each answer
// form as Droid 0.225.2 acted on it.
var droidRun = map[string][]string{
	"git push --force origin main":         {"repo-policy/no-force-push"},
	"":                                     {"repo-policy/no-env-file"},
	"npm publish --dry-run":                {"repo-policy/no-publish"},
	"terraform apply -auto-approve":        {"repo-policy/no-apply"},
	"pip install requests":                 {"repo-policy/pinned-installs"},
	"docker run --rm alpine true":          {"agc/repair-with-allow", "repo-policy/no-containers"},
	"make lint":                            {droid.CheckPreToolSteer},
	"touch build.sh && chmod 777 build.sh": {droid.CheckDecisionBlockIgnored},
	"uname -s":                             {droid.CheckAskNotAsked, droid.CheckPreToolSteer},
	"date +%Y":                             {"agc/hook-failed-open"},
	"cat README.md":                        {"repo-policy/docs-are-stale"},
	"git log --oneline -1 2>/dev/null; echo history-done": {droid.CheckPostBlockIgnored, "repo-policy/history-is-private"},
	"rm -rf node_modules":         {droid.CheckDenyDropsContext, "hook/guard"},
	"sed -i s/0.1/0.2/ README.md": {"agc/repair-by-exit-2", "repo-policy/no-inplace-edit"},
	"git clean -fdx":              {"agc/hook-answer-heavier-than-verdict", "repo-policy/keep-untracked"},
}

// droidRunStream is what the stream of run and bare shows: the blocks whose error text carries an
// AGC response, with no check of the answer's form (the text does not tell a deny from exit 2).
var droidRunStream = map[string][]string{
	"git push --force origin main":  {"repo-policy/no-force-push"},
	"":                              {"repo-policy/no-env-file"},
	"npm publish --dry-run":         {"repo-policy/no-publish"},
	"terraform apply -auto-approve": {"repo-policy/no-apply"},
	"sed -i s/0.1/0.2/ README.md":   {"repo-policy/no-inplace-edit"},
	"git clean -fdx":                {"repo-policy/keep-untracked"},
}

// TestDroidReplay reads the records of the real Factory Droid (testdata/droid, made by regen.sh):
// the session transcript alone, the recorder's log alone, the stream alone (its blocks) and all
// together give the expected rule ids, each event's rule once; bare/ ran the guard without the recorder, so only its session
// tells; exit3/ and halt/ ended the session with a block.
func TestDroidReplay(t *testing.T) {
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}
	for _, c := range []struct {
		dir          string
		want, stream map[string][]string
	}{
		{"run", droidRun, droidRunStream},
		{"bare", droidRun, droidRunStream},
		{"exit3", map[string][]string{"make lint": {droid.CheckPreToolSteer}, "kubectl delete namespace staging": {"repo-policy/no-cluster-delete"}}, map[string][]string{}},
		{"halt", map[string][]string{"git reset --hard HEAD": {"repo-policy/no-hard-reset"}}, map[string][]string{}},
	} {
		dir := filepath.Join("..", "..", "testdata", "droid", c.dir)
		sessions, _ := filepath.Glob(filepath.Join(dir, "sessions", "*.jsonl"))
		files := map[inputs.Format][]string{droid.Session: sessions, droid.Stream: {filepath.Join(dir, "stream.jsonl")}}
		if _, err := os.Stat(filepath.Join(dir, "hook-log.jsonl")); err == nil {
			files[inputs.HookLog] = []string{filepath.Join(dir, "hook-log.jsonl")}
		}
		all := findings.NewSet()
		for format, paths := range files {
			set := findings.NewSet()
			for _, p := range paths {
				s, got := inputstest.ReadFile(t, runtimes.Inputs(), p, opts)
				if got != format {
					t.Errorf("%s detected as %q, want %q", p, got, format)
				}
				if len(s.Problems) > 0 {
					t.Errorf("%s: problems %v", p, s.Problems)
				}
				set.Merge(s)
			}
			want := c.want
			if format == droid.Stream {
				want = c.stream
			}
			if got := inputstest.RuleIDs(t, set, agent.Droid, true); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s alone:\n got %v\nwant %v", c.dir, format, got, want)
			}
			all.Merge(set)
		}
		if got := inputstest.RuleIDs(t, all, agent.Droid, true); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s together:\n got %v\nwant %v", c.dir, got, c.want)
		}
	}
}

// TestDroidHookLogRuntime: the recorder named every record of the run factory-droid.
func TestDroidHookLogRuntime(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "droid", "run", "hook-log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if n := strings.Count(string(b), `"runtime":"`+agent.Droid+`"`); n != len(lines) {
		t.Errorf("%d of %d records name %s", n, len(lines), agent.Droid)
	}
}

// TestDroidSessionLines: every line is counted; a hook record names its call by the tool_use
// before it, and one without a tool_use is still read (as a hook of no tool).
func TestDroidSessionLines(t *testing.T) {
	start := `{"type":"session_start","id":"s1","version":2,"cwd":"/p","hostId":"h"}` + "\n"
	use := `{"type":"message","timestamp":"2026-12-04T00:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"call_1_0","name":"Execute","input":{"command":"rm -rf /"}}]}}` + "\n"
	hook := func(id, stdout string, exit int) string {
		return `{"type":"message","message":{"role":"user","content":[],"hookEventName":"PreToolUse","hookCommands":[{"type":"command","command":"guard.py"}],"hookResults":[{"exitCode":` +
			strconv.Itoa(exit) + `,"stdout":` + stdout + `,"stderr":"AGC block: g/r/Execute.command — no"}],"hookToolCallId":"` + id + `"}}` + "\n"
	}
	tests := []struct {
		name, text string
		rules      []string
		skips      int
	}{
		{"deny", start + use + hook("call_1_0", `"{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"AGC block: g/r/Execute.command — no\"}}"`, 0), []string{"g/r"}, 2},
		{"exit 3 blocks", start + use + hook("call_1_0", `""`, 3), []string{"g/r"}, 2},
		{"exit 1 fails open", start + use + hook("call_1_0", `""`, 1), []string{"agc/hook-failed-open"}, 2},
		{"decision block ignored", start + use + hook("call_1_0", `"{\"decision\":\"block\",\"reason\":\"AGC block: g/r/Execute.command — no\"}"`, 0), []string{droid.CheckDecisionBlockIgnored}, 2},
		{"no call", start + hook("call_9_0", `""`, 0), nil, 2},
		{"text", start + `{"type":"message","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}` + "\n", nil, 2},
		{"other", start + `{"type":"todo_state","todos":[]}` + "\n", nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !droid.SessionFormat().Sniff(inputs.NewHead([]byte(tt.text))) {
				t.Fatal("not detected")
			}
			set := inputstest.ReadFuzzed(t, runtimes.Inputs(), droid.SessionFormat().Reader, []byte(tt.text))
			var got []string
			for _, f := range set.Findings {
				got = append(got, f.RuleID)
			}
			if !reflect.DeepEqual(got, tt.rules) || set.Skipped() != tt.skips {
				t.Errorf("rules %v skips %d; want %v %d", got, set.Skipped(), tt.rules, tt.skips)
			}
		})
	}
}

// TestDroidSessionNotSniffed: a Claude Code transcript is not taken for a Droid session.
func TestDroidSessionNotSniffed(t *testing.T) {
	for _, s := range []string{
		`{"type":"user","sessionId":"s","cwd":"/p","message":{"role":"user","content":"hi"}}`,
		`{"type":"session_start","id":"s"}`,
	} {
		if droid.SessionFormat().Sniff(inputs.NewHead([]byte(s))) {
			t.Errorf("%s sniffed as a Droid session", s)
		}
	}
}

func FuzzDroidStream(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "droid", "run", "stream.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"type":"system","subtype":"init","cwd":"/p","session_id":"s","tools":["Execute"]}` + "\n" +
		`{"type":"tool_call","id":"c","toolName":"Execute","parameters":{"command":"x"}}` + "\n" +
		`{"type":"tool_result","id":"c","isError":true,"value":"Error: AGC block: g/r/t — no"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), droid.StreamFormat().Reader, data)
	})
}

func FuzzDroidSession(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "droid", "run", "sessions", "*.jsonl"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":"session_start","id":"s","cwd":"/p","hostId":"h"}` + "\n" +
		`{"type":"message","message":{"role":"user","content":[],"hookEventName":"PreToolUse","hookCommands":[{"command":"g"}],"hookResults":[{"exitCode":2,"stdout":"","stderr":"x"}],"hookToolCallId":"c"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), droid.SessionFormat().Reader, data)
	})
}
