package findings

import (
	"cmp"
	"slices"
)

// Bound limits how many event groups an aggregating set holds while it reads, so that memory
// stays bounded when every record is a distinct result (as a hostile agent can write).
type Bound struct {
	// Max is how many groups are kept; the set grows to twice as many before it drops the rest.
	Max int
	// Weigh orders groups: the heaviest Max are kept, ties by first event.
	Weigh func(*Finding) uint64
	// Must marks a finding that decides the run's outcome: when one is dropped, the first of its
	// kind, verdict and severity is kept in LeftOutMust, so that the outcome stays right.
	Must func(*Finding) bool
}

// evicted marks an event whose group was dropped to stay within the Bound; lost marks an event
// whose finding went to another set's record of it while merging.
const (
	evicted int32 = -1
	lost    int32 = -2
)

// Limit bounds the groups the aggregating set s keeps while it reads (see Bound). Groups dropped
// are counted in LeftOut and their events in LeftOutEvents.
func (s *Set) Limit(b Bound) {
	if s.agg != nil && b.Max > 0 && b.Weigh != nil {
		s.agg.bound = b
	}
}

// full reports whether the set must drop groups before it takes a new one.
func (a *aggregation) full(s *Set) bool {
	return a.bound.Max > 0 && !a.holding && len(s.Findings) >= 2*a.bound.Max
}

// evict keeps the heaviest keep groups (by Bound.Weigh, then first event) and drops the rest,
// counting them; events of dropped groups are remembered as evicted, so a repeat is still a
// duplicate.
func (s *Set) evict(keep int) {
	a := s.agg
	order := make([]int32, 0, len(s.Findings))
	weights := make([]uint64, len(s.Findings))
	for i := range s.Findings {
		if s.Findings[i].Count > 0 {
			order = append(order, int32(i))
			weights[i] = a.bound.Weigh(&s.Findings[i])
		}
	}
	if len(order) <= keep && len(order) == len(s.Findings) {
		return
	}
	slices.SortStableFunc(order, func(i, j int32) int {
		if c := cmp.Compare(weights[j], weights[i]); c != 0 {
			return c
		}
		return cmp.Compare(a.groups[i].first, a.groups[j].first)
	})
	for _, k := range order[min(keep, len(order)):] {
		s.drop(&s.Findings[k])
	}
	order = order[:min(keep, len(order))]
	slices.Sort(order) // keep the groups' slots in their order
	remap := make([]int32, len(s.Findings))
	for i := range remap {
		remap[i] = evicted
	}
	fs, gs := make([]Finding, len(order)), make([]group, len(order))
	for n, k := range order {
		remap[k], fs[n], gs[n] = int32(n), s.Findings[k], a.groups[k]
	}
	s.Findings, a.groups = fs, gs
	a.index.remap(remap)
	for id, r := range s.events {
		if r.slot >= 0 {
			r.slot = remap[r.slot]
			s.events[id] = r
		}
	}
}

// drop counts the group f as left out, keeping it when it is the first Must finding of its kind.
func (s *Set) drop(f *Finding) {
	s.LeftOut++
	s.LeftOutEvents += f.Count
	if m := s.agg.bound.Must; m != nil && m(f) {
		lone := *f
		lone.Examples, lone.Sources = nil, nil
		s.keepMust(lone)
	}
}

// keepMust keeps f in LeftOutMust unless one of its kind, verdict and severity is there.
func (s *Set) keepMust(f Finding) {
	for _, o := range s.LeftOutMust {
		if o.Kind == f.Kind && o.Verdict == f.Verdict && o.Severity == f.Severity {
			return
		}
	}
	s.LeftOutMust = append(s.LeftOutMust, f)
}
