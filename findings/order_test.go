package findings

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

func TestSortHeaviest(t *testing.T) {
	fs := []Finding{
		{RuleID: "note", Level: Note, Verdict: gates.Steer, Count: 9},
		{RuleID: "warn-steer", Level: Warning, Verdict: gates.Steer, Count: 5},
		{RuleID: "warn-block-1", Level: Warning, Verdict: gates.Block, Count: 1},
		{RuleID: "error", Level: Error, Verdict: gates.Steer, Count: 1},
		{RuleID: "warn-block-3", Level: Warning, Verdict: gates.Block, Count: 3},
		{RuleID: "warn-block-3b", Level: Warning, Verdict: gates.Block, Count: 3},
	}
	SortHeaviest(fs)
	want := []string{"error", "warn-block-3", "warn-block-3b", "warn-block-1", "warn-steer", "note"}
	for i, w := range want {
		if fs[i].RuleID != w {
			t.Fatalf("order %d = %s, want %s (level, then verdict, then count; input order on ties)", i, fs[i].RuleID, w)
		}
	}
}
