package findings

import (
	"fmt"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// TestBoundEvictedEventsStayCounted: events of groups dropped to stay within the Bound are
// still known, so a repeat is a duplicate and not a new result, and a heavier repeat takes the
// event back; every event added is kept, left out or a duplicate, in one set or merged ones.
func TestBoundEvictedEventsStayCounted(t *testing.T) {
	ev := func(i int, v gates.Verdict) Finding {
		return Finding{RuleID: fmt.Sprintf("g/r%d", i), Verdict: v, Level: Warning,
			EventKey: fmt.Sprintf("e%d", i), Source: Source{File: "f", Line: i + 1}}
	}
	weigh := func(f *Finding) uint64 { return uint64(f.Verdict.Weight())<<32 | uint64(f.Count) }
	for _, split := range []int{0, 5} {
		sets := []*Set{NewAggregateSet(5)}
		if split > 0 {
			sets = append(sets, NewAggregateSet(5))
		}
		for _, s := range sets {
			s.Limit(Bound{Max: 2, Weigh: weigh})
		}
		added := 0
		add := func(f Finding) { sets[min(added/max(split, 1), len(sets)-1)*min(split, 1)].Add(f); added++ }
		for i := range 10 {
			add(ev(i, gates.Steer))
		}
		add(ev(0, gates.Steer)) // a repeat of an evicted event: a duplicate
		add(ev(1, gates.Block)) // heavier: it is kept again
		s := sets[0]
		if len(sets) > 1 {
			s = NewAggregateSet(5)
			s.Limit(Bound{Max: 2, Weigh: weigh})
			s.Merge(sets[0])
			s.Merge(sets[1])
		}
		s.Compact()
		kept := 0
		for _, f := range s.Findings {
			kept += f.Count
		}
		// Kept: the heaviest, in the order of their first event (r1's block came last).
		if len(s.Findings) != 2 || s.Findings[0].RuleID != "g/r0" || s.Findings[1].RuleID != "g/r1" || s.Findings[1].Verdict != gates.Block {
			t.Errorf("split %d: kept %+v, want r0's steer and r1's block", split, s.Findings)
		}
		if kept+s.LeftOutEvents+s.Duplicates != added || s.Duplicates != 2 {
			t.Errorf("split %d: kept %d + left out %d + duplicates %d events, want %d with 2 duplicates", split, kept, s.LeftOutEvents, s.Duplicates, added)
		}
	}
}
