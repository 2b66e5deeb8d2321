package sarif

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// TestFoldMergedAlerts runs a block and a repair of one rule anchored at the same line of
// .claude/settings.json (GitHub would merge them into one alert, the level undefined): the log
// holds one result, at the block's level, naming both verdicts and the repair.
func TestFoldMergedAlerts(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"hooks\": [{\"command\": \"guard.sh\"}]}\n    ]\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	at := &findings.Location{Path: ".claude/settings.json", StartLine: 4}
	base := findings.Finding{RuleID: "guard/main-checkout", Gate: "guard", Rule: "main-checkout", Kind: findings.RuntimeGate,
		Location: at, Anchored: "Anchored to the hook's line in .claude/settings.json: the call touched no file.", Count: 1}
	block, repair := base, base
	block.Verdict, block.Level, block.Message = gates.Block, findings.Warning, "The command works in the main checkout."
	block.Call = &findings.Call{Tool: "Bash", Event: "PreToolUse", Command: "cd /srv/main && git push"}
	block.Source = findings.Source{File: "hook-log.jsonl", Line: 1}
	repair.Verdict, repair.Level, repair.Message = gates.Repaired, findings.Warning, "The command now runs in the worktree."
	repair.Call = &findings.Call{Tool: "Bash", Event: "PreToolUse", Command: "cd /srv/main && git status"}
	repair.Repair = &findings.Repair{Before: "cd /srv/main && git status", After: "git status"}
	repair.Source = findings.Source{File: "hook-log.jsonl", Line: 2}
	steer := repair // another rule on the same line stays its own alert
	steer.RuleID, steer.Rule, steer.Verdict, steer.Level = "guard/other", "other", gates.Steer, findings.Note

	for _, order := range [][]findings.Finding{{repair, block, steer}, {block, repair, steer}} {
		_, _, doc := written(t, order, testOptions(root))
		results := list(t, run0(t, doc), "results")
		if len(results) != 2 {
			t.Fatalf("%d results, want 2 (block and repair folded, the other rule apart)", len(results))
		}
		r := results[0].(map[string]any)
		if r["ruleId"] != "guard/main-checkout" || r["level"] != "warning" {
			t.Errorf("folded result %v at %v", r["ruleId"], r["level"])
		}
		text := r["message"].(map[string]any)["text"].(string)
		for _, want := range []string{"The command works in the main checkout.", "Verdict: block",
			"block 1, repaired 1", "Repair: cd /srv/main && git status → git status", "hook-log.jsonl:2"} {
			if !strings.Contains(text, want) {
				t.Errorf("folded text does not say %q:\n%s", want, text)
			}
		}
		props := r["properties"].(map[string]any)
		counts, _ := props["verdictCounts"].(map[string]any)
		if counts["block"] != 1.0 || counts["repaired"] != 1.0 || props["verdict"] != "block" {
			t.Errorf("properties: verdict %v, verdictCounts %v", props["verdict"], counts)
		}
		if folded, _ := props["folded"].([]any); len(folded) != 1 {
			t.Errorf("properties.folded = %v, want the repair", props["folded"])
		}
	}
}

// TestFoldHeaviestLevel checks that a folded result takes the heaviest level of its members.
func TestFoldHeaviestLevel(t *testing.T) {
	at := &findings.Location{Path: "a.go", StartLine: 1}
	mk := func(v gates.Verdict, l findings.Level) findings.Finding {
		return findings.Finding{RuleID: "g/r", Gate: "g", Rule: "r", Kind: findings.RuntimeGate, Verdict: v, Level: l,
			Message: string(v) + ".", Location: at, Count: 1}
	}
	_, _, doc := written(t, []findings.Finding{mk(gates.Steer, findings.Note), mk(gates.Repaired, findings.Error),
		mk(gates.Block, findings.Warning)}, testOptions(t.TempDir()))
	results := list(t, run0(t, doc), "results")
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	r := results[0].(map[string]any)
	if r["level"] != "error" || !strings.HasPrefix(r["message"].(map[string]any)["text"].(string), "repaired.") {
		t.Errorf("folded result: level %v, text %q; want error, led by the repair", r["level"], r["message"])
	}
}
