package findings

import (
	"fmt"
	"slices"
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

// TestPermute checks the in-place move against building the permuted slice anew, for every
// permutation of five findings.
func TestPermute(t *testing.T) {
	var perms [][]int
	var gen func(p []int, used int)
	gen = func(p []int, used int) {
		if len(p) == 5 {
			perms = append(perms, slices.Clone(p))
			return
		}
		for i := range 5 {
			if used&(1<<i) == 0 {
				gen(append(p, i), used|1<<i)
			}
		}
	}
	gen(nil, 0)
	for _, p := range perms {
		fs := make([]Finding, 5)
		want := make([]string, 5)
		for i := range fs {
			fs[i].RuleID = fmt.Sprint("r", i)
		}
		for i, k := range p {
			want[i] = fs[k].RuleID
		}
		order := slices.Clone(p)
		permute(fs, order)
		for i := range fs {
			if fs[i].RuleID != want[i] || order[i] != -1 {
				t.Fatalf("permute by %v: %v, want %v", p, fs, want)
			}
		}
	}
}

// TestSortHeaviestTrustedThenGates: trusted findings first whatever their level, then the
// heaviest of each gate before a second of any gate, then the rest by weight.
func TestSortHeaviestTrustedThenGates(t *testing.T) {
	fs := []Finding{
		{RuleID: "a1", Gate: "a", Level: Error, Verdict: gates.Block},
		{RuleID: "a2", Gate: "a", Level: Error, Verdict: gates.Block},
		{RuleID: "b1", Gate: "b", Level: Warning, Verdict: gates.Repaired},
		{RuleID: "a3", Gate: "a", Level: Error, Verdict: gates.Block},
		{RuleID: "t1", Gate: "a", Level: Note, Verdict: gates.Steer, Trusted: true},
		{RuleID: "c1", Gate: "c", Level: Note, Verdict: gates.Steer},
	}
	SortHeaviest(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.RuleID)
	}
	if want := []string{"t1", "a1", "b1", "c1", "a2", "a3"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
