package sarif

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// FindingKey and RuleTitle give what the SARIF log states for the same findings, so that a
// pull-request comment and a code scanning alert carry one identity and one title; a binding's
// own check is titled from the rows handed down (Options.Checks).
func TestFindingKeyAndTitleMatchTheLog(t *testing.T) {
	fs := []findings.Finding{
		{RuleID: "code-review/debug-output", Gate: "code-review", Rule: "debug-output", Kind: findings.JudgmentGate,
			Verdict: gates.Block, Level: findings.Error, Message: "a print", Location: &findings.Location{Path: "./src/app.py", StartLine: 5},
			Repair: &findings.Repair{Before: "print(x)"}},
		{RuleID: "guard/no-edit", Gate: "guard", Rule: "no-edit", Kind: findings.RuntimeGate, Verdict: gates.Repaired,
			Level: findings.Warning, Message: "rewritten", Location: &findings.Location{Path: "src/b.go", StartLine: 2},
			Call: &findings.Call{Tool: "Edit", FilePath: "src/b.go"}},
		{RuleID: "agc/hook-failed-open", Gate: "agc", Rule: "hook-failed-open", Kind: findings.Contract,
			Level: findings.Warning, Message: "crashed", Location: &findings.Location{Path: "src/c.go", StartLine: 1}},
		{RuleID: "agc/own-check", Gate: "agc", Rule: "own-check", Kind: findings.Contract,
			Level: findings.Warning, Message: "own", Location: &findings.Location{Path: "src/d.go", StartLine: 1}},
	}
	checks := append(gates.Checks(), gates.Check{ID: "agc/own-check", Name: "OwnCheck", Binding: "hook", Level: "warning",
		Short: "A binding's `own` check broke.", Full: "Full.", Fix: "Fix."})
	opts := testOptions(t.TempDir())
	opts.Checks = checks
	_, _, doc := written(t, fs, opts)
	run := run0(t, doc)
	rules := map[string]string{}
	for _, r := range list(t, run["tool"].(map[string]any)["driver"].(map[string]any), "rules") {
		rm := r.(map[string]any)
		rules[rm["id"].(string)] = rm["shortDescription"].(map[string]any)["text"].(string)
	}
	results := list(t, run, "results")
	if len(results) != len(fs) {
		t.Fatalf("%d results, want %d", len(results), len(fs))
	}
	for _, r := range results {
		rm := r.(map[string]any)
		id := rm["ruleId"].(string)
		var f *findings.Finding
		for i := range fs {
			if fs[i].RuleID == id {
				f = &fs[i]
			}
		}
		key := rm["partialFingerprints"].(map[string]any)[fingerprintKey].(string)
		if got := FindingKey(f); got != key || len(got) != 64 {
			t.Errorf("%s: FindingKey %q, the log says %q", id, got, key)
		}
		if got := RuleTitle(checks, f); got != rules[id] {
			t.Errorf("%s: RuleTitle %q, the log says %q", id, got, rules[id])
		}
	}
	if got, want := rules["agc/own-check"], "A binding's own check broke."; got != want {
		t.Errorf("the own check's rule title is %q, want %q from its row", got, want)
	}
	if FindingKey(&findings.Finding{RuleID: "a/b"}) != "" {
		t.Error("a finding without a location has a key")
	}
}
