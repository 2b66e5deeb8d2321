package findings

import "testing"

// TestGroupIndexCollision files two keys under one hash, as a collision would: each is found
// at its own slot, a third key is not, and remapping keeps both.
func TestGroupIndexCollision(t *testing.T) {
	fs := []Finding{
		{RuleID: "g/a", Location: &Location{Path: "a.go", StartLine: 1}},
		{RuleID: "g/b", Location: &Location{Path: "b.go", StartLine: 2}},
		{RuleID: "g/c", Location: &Location{Path: "c.go", StartLine: 3}},
	}
	keys := make([]groupKey, len(fs))
	for i := range fs {
		keys[i] = aggregateKey(&fs[i])
	}
	x := newGroupIndex(0)
	x.add(fs, &keys[0], x.hash(&keys[0]), 0)
	x.slots[x.hash(&keys[1])] = 0 // b's hash now names a's slot
	x.add(fs, &keys[1], x.hash(&keys[1]), 1)
	if len(x.more) != 1 {
		t.Fatalf("the colliding key is not kept apart: %v", x.more)
	}
	for i := range 2 {
		if got, _, ok := x.find(fs, &keys[i]); !ok || got != int32(i) {
			t.Errorf("find(%s) = %d, %v; want %d", fs[i].RuleID, got, ok, i)
		}
	}
	if got, _, ok := x.find(fs, &keys[2]); ok {
		t.Errorf("find(g/c) = %d, found; it was never added", got)
	}
	x.remap([]int32{evicted, 0, 1})
	fs = fs[1:]
	if got, _, ok := x.find(fs, &keys[1]); !ok || got != 0 {
		t.Errorf("after remapping, find(g/b) = %d, %v; want 0", got, ok)
	}
	if _, _, ok := x.find(fs, &keys[0]); ok {
		t.Error("after remapping, the evicted g/a is still found")
	}
}
