package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// evidenceGaps lists rule ids a record format cannot show for a scenario, and why.
var evidenceGaps = map[string][]string{
	// A PostToolUse block leaves hook_blocking_error and no hook_success: the transcript does not
	// keep the stdout, so the binding cannot tell that additionalContext was missing.
	"post-no-agc/session.jsonl": {"agc/post-without-agc-json"},
	// A PreToolUse deny whose AGC response rides only in permissionDecisionReason leaves no hook
	// record in the transcript: only the call's tool_result, whose text is the reason.
	"guard-mix/session.jsonl": {"repo-guard/no-inline-token"},
	// Both of the above in one run: the exit-2 "repair" after the call, and the deny of a Write
	// whose AGC rides only in the reason.
	"allow-beside-block/session.jsonl": {"agc/post-without-agc-json", "release-guard/no-plain-secret"},
}

// TestClaudeReplay reads the records the real Claude Code wrote in testdata/claude/<scenario>/
// (session transcript and stream-json of the same run) and expects the scenario's rule ids from
// each, and the same events from both.
func TestClaudeReplay(t *testing.T) {
	wants, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "claude", "*", "want.json"))
	if len(wants) == 0 {
		t.Skip("no replay testdata in testdata/claude")
	}
	for _, w := range wants {
		dir := filepath.Dir(w)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			var want struct {
				RuleIDs []string `json:"rule_ids"`
			}
			data, err := os.ReadFile(w)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%s: %v", w, err)
			}
			sets := map[string]*findings.Set{}
			for _, file := range []string{"session.jsonl", "stream.jsonl"} {
				path := filepath.Join(dir, file)
				if _, err := os.Stat(path); err != nil {
					continue
				}
				set, f := readClaude(t, path, inputs.Options{Registry: testRegistry, IncludeUnstructured: true})
				wantFormat := map[string]inputs.Format{"session.jsonl": Transcript, "stream.jsonl": StreamJSON}[file]
				if f != wantFormat {
					t.Errorf("%s: detected %q, want %q", file, f, wantFormat)
				}
				if len(set.Problems) > 0 {
					t.Errorf("%s: problems %v", file, set.Problems)
				}
				checkRules(t, name+"/"+file, ruleIDs(set), want.RuleIDs)
				sets[file] = set
			}
			session, stream := sets["session.jsonl"], sets["stream.jsonl"]
			if session == nil || stream == nil {
				return
			}
			// Read together, every gate or contract finding of the stream is a duplicate of the
			// transcript's (same event key, rule and target).
			both := findings.NewSet()
			both.Merge(session)
			both.Merge(stream)
			var dup int
			for _, f := range stream.Findings {
				if f.Kind != findings.Unstructured && f.EventKey != "" && !strings.HasPrefix(f.EventKey, "claude-code//") {
					dup++
				}
			}
			t.Logf("reading both: %d duplicates of %d stream findings", both.Duplicates, len(stream.Findings))
			gap := len(evidenceGaps[name+"/session.jsonl"])
			if both.Duplicates < dup-gap {
				t.Errorf("reading both files: %d duplicates dropped, want at least %d (stream findings %v)", both.Duplicates, dup-gap, ruleIDs(stream))
			}
		})
	}
}

// checkRules compares rule ids, allowing the known evidence gaps. Unstructured hook rules are
// named by the binding after the hook command, which stream-json does not record: only their
// presence is compared.
func checkRules(t *testing.T, name string, got, want []string) {
	t.Helper()
	norm := func(ids []string, drop []string) map[string]bool {
		m := map[string]bool{}
		for _, id := range ids {
			if strings.HasPrefix(id, "hook/") {
				id = "hook/*"
			}
			m[id] = true
		}
		for _, d := range drop {
			delete(m, d)
		}
		return m
	}
	g, w := norm(got, evidenceGaps[name]), norm(want, evidenceGaps[name])
	for id := range w {
		if !g[id] {
			t.Errorf("%s: missing rule %s (got %v, want %v)", name, id, got, want)
		}
	}
	for id := range g {
		if !w[id] {
			t.Errorf("%s: unexpected rule %s (got %v, want %v)", name, id, got, want)
		}
	}
}
