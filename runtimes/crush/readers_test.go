package crush_test

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
	"github.com/agc-sarif/agc-sarif/runtimes/crush"
)

// crushRunLog is what the recorder's log of testdata/crush/run shows, by command (a write has
// none): each answer form as Crush 0.90.0 acted on it.
var crushRunLog = map[string][]string{
	"git push --force origin main":         {"ship-check/no-force-push"},
	"":                                     {"ship-check/no-env-file"},
	"npm publish --dry-run":                {"ship-check/no-publish"},
	"terraform apply -auto-approve":        {"ship-check/no-apply"},
	"pip install requests":                 {"ship-check/pinned-installs"},
	"docker run --rm alpine true":          {"agc/repair-with-allow", "ship-check/no-containers"},
	"make lint":                            {"ship-check/lint-in-ci"},
	"touch build.sh && chmod 777 build.sh": {crush.CheckAnswerIgnored},
	"uname -s":                             {"agc/hook-failed-open"},
	"date +%Y":                             {"agc/hook-failed-open"},
	"rm -rf node_modules":                  {crush.CheckDenyDropsContext, "hook/guard"},
	"sed -i s/soon/now/ NOTES.md":          {"agc/repair-by-exit-2", "ship-check/no-inplace-edit"},
	"git clean -fdx":                       {"agc/hook-answer-heavier-than-verdict", "ship-check/keep-untracked"},
}

// crushRunStore is what Crush's own store (and its dump) shows: every decision it kept, but no
// failed hook (decision none) and no check of how a hook blocked (a deny and exit 2 look alike).
var crushRunStore = map[string][]string{
	"git push --force origin main":         {"ship-check/no-force-push"},
	"":                                     {"ship-check/no-env-file"},
	"npm publish --dry-run":                {"ship-check/no-publish"},
	"terraform apply -auto-approve":        {"ship-check/no-apply"},
	"pip install requests":                 {"ship-check/pinned-installs"},
	"docker run --rm alpine true":          {"agc/repair-with-allow", "ship-check/no-containers"},
	"make lint":                            {"ship-check/lint-in-ci"},
	"touch build.sh && chmod 777 build.sh": {crush.CheckAnswerIgnored},
	"rm -rf node_modules":                  {"hook/ship-guard"},
	"sed -i s/soon/now/ NOTES.md":          {"ship-check/no-inplace-edit"},
	"git clean -fdx":                       {"ship-check/keep-untracked"},
}

// TestCrushReplay reads the records of the real Crush (testdata/crush, made by regen.sh): the
// store, its dump and the recorder's log, each alone and all together, give the expected rule
// ids, each event's rule once; bare/ ran the guard without the recorder; exit49/ and halt/ ended
// the turn with a block.
func TestCrushReplay(t *testing.T) {
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}
	for _, c := range []struct {
		dir        string
		log, store map[string][]string
	}{
		{"run", crushRunLog, crushRunStore},
		{"bare", nil, crushRunStore},
		{"exit49", map[string][]string{"make lint": {"ship-check/lint-in-ci"}, "kubectl delete namespace staging": {"ship-check/no-cluster-delete"}},
			map[string][]string{"make lint": {"ship-check/lint-in-ci"}, "kubectl delete namespace staging": {"ship-check/no-cluster-delete"}}},
		{"halt", map[string][]string{"git reset --hard HEAD": {"ship-check/no-hard-reset"}}, map[string][]string{"git reset --hard HEAD": {"ship-check/no-hard-reset"}}},
	} {
		dir := filepath.Join("..", "..", "testdata", "crush", c.dir)
		files := []struct {
			file   string
			format inputs.Format
			want   map[string][]string
		}{
			{"crush.db", crush.Store, c.store},
			{"messages.jsonl", crush.Messages, c.store},
		}
		if c.log != nil {
			files = append(files, struct {
				file   string
				format inputs.Format
				want   map[string][]string
			}{"hook-log.jsonl", inputs.HookLog, c.log})
		}
		all := findings.NewSet()
		for _, f := range files {
			set, got := inputstest.ReadFile(t, runtimes.Inputs(), filepath.Join(dir, f.file), opts)
			if got != f.format {
				t.Errorf("%s/%s detected as %q, want %q", c.dir, f.file, got, f.format)
			}
			if len(set.Problems) > 0 {
				t.Errorf("%s/%s: problems %v", c.dir, f.file, set.Problems)
			}
			if got := inputstest.RuleIDs(t, set, agent.Crush, true); !reflect.DeepEqual(got, f.want) {
				t.Errorf("%s/%s alone:\n got %v\nwant %v", c.dir, f.file, got, f.want)
			}
			all.Merge(set)
		}
		want := c.log
		if want == nil {
			want = c.store
		}
		if got := inputstest.RuleIDs(t, all, agent.Crush, true); !reflect.DeepEqual(got, want) {
			t.Errorf("%s together:\n got %v\nwant %v", c.dir, got, want)
		}
	}
}

func FuzzCrushMessages(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "crush", "run", "messages.jsonl")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"id":"m","session_id":"s","role":"tool","parts":[{"type":"tool_result","data":{"tool_call_id":"c","content":"x","metadata":"{\"hook\":{\"hook_count\":1,\"hooks\":[{\"name\":\"g\",\"decision\":\"deny\",\"reason\":\"AGC block: g/r/t — no\"}]}}"}}],"is_summary_message":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), crush.MessagesFormat().Reader, data)
	})
}

func FuzzCrushStore(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "crush", "run", "crush.db")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("SQLite format 3\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		inputstest.ReadFuzzed(t, runtimes.Inputs(), crush.StoreFormat().Reader, data)
	})
}
