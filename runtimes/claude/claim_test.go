package claude

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/agc-sarif/agc-sarif/inputs"
)

// claimByScan is what claim answers, found by looking through every call kept, oldest first.
func claimByScan(t *callTable, event, tool string) *toolCall {
	var newest *toolCall
	for _, id := range t.order {
		c := t.byID[id]
		if c == nil || c.done || c.Name != tool {
			continue
		}
		if c.started[event] == 0 {
			return c
		}
		newest = c
	}
	return newest
}

// TestClaimSameAsScan: over random sessions (calls added, their results seen, hooks started, the
// oldest calls forgotten past MaxCalls, ids repeated), claim picks the call a scan of every call
// kept picks.
func TestClaimSameAsScan(t *testing.T) {
	tools := []string{"Bash", "Edit", "Write", "Read"}
	events := []string{"PreToolUse", "PostToolUse"}
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 7))
		tab := newCallTable()
		next := 0
		for op := 0; op < 3*inputs.MaxCalls; op++ {
			switch k := r.IntN(10); {
			case k < 4:
				id := fmt.Sprintf("toolu_%d", next)
				if r.IntN(20) == 0 && next > 0 {
					id = fmt.Sprintf("toolu_%d", r.IntN(next)) // a repeated or forgotten id
				} else {
					next++
				}
				tab.add(id, tools[r.IntN(len(tools))], nil)
				for _, l := range tab.pending { // memory: a forgotten call is not held
					for _, c := range l {
						if tab.byID[c.ID] != c {
							t.Fatalf("seed %d, op %d: forgotten call %s still pending", seed, op, c.ID)
						}
					}
				}
			case k < 7 && next > 0:
				tab.finish(fmt.Sprintf("toolu_%d", next-1-r.IntN(min(next, 50))))
			default:
				ev, tool := events[r.IntN(2)], tools[r.IntN(len(tools))]
				want := claimByScan(tab, ev, tool)
				got := tab.claim(ev, tool)
				if got != want {
					t.Fatalf("seed %d, op %d: claim(%s, %s) = %v, want %v", seed, op, ev, tool, got, want)
				}
				if got != nil && r.IntN(2) == 0 {
					got.mark(ev)
				}
			}
		}
		if n := len(tab.pending); n > len(tools) {
			t.Fatalf("seed %d: %d pending lists for %d tools", seed, n, len(tools))
		}
	}
}
