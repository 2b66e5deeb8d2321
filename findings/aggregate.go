package findings

import (
	"cmp"
	"slices"
	"time"

	"github.com/agc-sarif/agc-sarif/gates"
)

// DefaultMaxExamples is how many examples Aggregate keeps per merged finding when asked for 0.
const DefaultMaxExamples = 5

// Aggregate merges repeated events of one rule at one place into one finding, so that a hook
// that fired 10,000 times on the same line is one result, not 10,000 alerts. Findings are the
// same event group when RuleID, Target, Level, Verdict, Location path and Location start line
// are equal; the message is not part of the key (it often names the command, which changes per
// event), so a merged finding keeps the first event's message and fields, a Count that is the
// sum of the counts, the earliest and latest Time in FirstTime and LastTime, and up to
// maxExamples Examples (events with a message not yet among the examples are preferred).
// Groups keep the order of their first occurrence; a finding that stands alone is returned
// unchanged except that its Count is at least 1. It runs in time linear in len(fs).
func Aggregate(fs []Finding, maxExamples int) []Finding {
	return AggregateOver(slices.Clone(fs), maxExamples)
}

// AggregateOver is Aggregate writing the merged findings over fs, for a caller that has no more
// use for fs: no second slice of findings is made.
func AggregateOver(fs []Finding, maxExamples int) []Finding {
	s := NewAggregateSet(maxExamples)
	// The k-th group is written at fs[k], and the group of fs[i] is at most the i-th: merging
	// writes only over findings already read. Sized once, nothing grows.
	s.Findings, s.agg.groups = fs[:0], make([]group, 0, len(fs))
	s.agg.index = newGroupIndex(len(fs))
	for i := range fs {
		s.place(fs[i], -1)
	}
	clear(fs[len(s.Findings):]) // findings merged away: let what they hold go
	return s.Findings
}

// NewAggregateSet returns an empty set that merges repeats of one rule at one place as they are
// added, as Aggregate does, keeping up to maxExamples examples each. Findings are grouped as they
// are given: a caller whose place is part of the group (collect anchors) gives them placed. Call
// Compact when all is merged.
func NewAggregateSet(maxExamples int) *Set {
	if maxExamples <= 0 {
		maxExamples = DefaultMaxExamples
	}
	s := NewSet()
	s.agg = &aggregation{max: maxExamples, index: newGroupIndex(0)}
	return s
}

// aggregation is the grouping state of an aggregating set, parallel to its Findings.
type aggregation struct {
	max     int
	index   groupIndex
	groups  []group
	seq     int // events placed so far, to order groups by their first event
	bound   Bound
	holding bool // merging: no group may be dropped
}

// group is what a merged finding needs besides the finding itself.
type group struct {
	first int            // seq of the group's first event
	n     int            // findings merged into it
	msgs  map[string]int // examples kept per message, once merged
}

// place merges f into its group, or starts one; first orders a new group (-1: now).
func (a *aggregation) place(s *Set, f Finding, first int) int32 {
	if f.Count < 1 {
		f.Count = 1
	}
	if first < 0 {
		first = a.seq
	}
	a.seq++
	k := aggregateKey(&f)
	i, h, ok := a.index.find(s.Findings, &k)
	if !ok {
		if a.full(s) {
			s.evict(a.bound.Max)
		}
		i = int32(len(s.Findings))
		if len(s.Findings) == cap(s.Findings) {
			// Doubled, not the quarter append adds to a long slice: a Finding is 384 bytes,
			// and growing by quarters copied and cleared the set about four times over. From a
			// few, not 64: a set is made per file read, and most of 10,000 small files hold one
			// finding or none (24 KiB each at 64).
			s.Findings = slices.Grow(s.Findings, max(len(s.Findings), 4))
		}
		s.Findings = append(s.Findings, f)
		a.index.add(s.Findings, &k, h, i)
		a.groups = append(a.groups, group{first: first, n: 1})
		return i
	}
	a.merge(s, i, f, first)
	return i
}

// merge adds f (itself possibly merged) to the group at slot i.
func (a *aggregation) merge(s *Set, i int32, f Finding, first int) {
	g, m := &a.groups[i], &s.Findings[i]
	g.first = min(g.first, first)
	if m.Count == 0 { // every event of it moved away: f starts it again
		*m, g.n, g.msgs = f, 1, nil
		return
	}
	if g.n == 1 {
		g.msgs = map[string]int{}
		lone := *m
		m.Examples = nil
		m.FirstTime, m.LastTime = "", ""
		m.Count = 0
		mergeInto(m, lone, g.msgs, a.max)
	}
	g.n++
	mergeInto(m, f, g.msgs, a.max)
}

// unplace takes one event, read at src, out of the group at slot i: a duplicate that lost to a
// heavier record of the same event.
func (a *aggregation) unplace(s *Set, i int32, src Source) {
	g, m := &a.groups[i], &s.Findings[i]
	m.Count--
	if g.n <= 1 || m.Count <= 0 {
		return
	}
	for j, e := range m.Examples {
		if e.Source == src {
			g.msgs[e.Message]--
			m.Examples = slices.Delete(m.Examples, j, j+1)
			break
		}
	}
}

// adopt takes o's grouping state.
func (a *aggregation) adopt(o *aggregation) {
	a.index, a.groups, a.seq = o.index, o.groups, o.seq
}

// mergeGroups merges the aggregating set o into s: events both hold are resolved first (the
// heavier record keeps the event, the other group gives it up), then o's groups are merged into
// s's in o's order.
func (s *Set) mergeGroups(o *Set) {
	var keep []moved
	for id, oref := range o.events {
		sref, ok := s.events[id]
		if !ok {
			keep = append(keep, moved{id, oref})
			continue
		}
		s.Duplicates++
		if oref.weight() > sref.weight() {
			if sref.slot >= 0 && int(sref.slot) < len(s.Findings) {
				for _, f := range s.Findings[sref.slot].Sources { // the files that reported it before
					o.agree(oref.slot, f)
				}
			}
			s.unplace(sref)
			keep = append(keep, moved{id, oref})
			o.agree(oref.slot, s.files[sref.file()])
			continue
		}
		o.unplace(oref)
		s.agree(sref.slot, o.files[oref.file()])
	}
	keep = append(keep, s.mergeBare(o)...)
	remap := make([]int32, len(o.Findings))
	base := s.agg.seq
	defer func() { s.agg.seq = base + o.agg.seq }()
	for i := range o.Findings {
		if o.Findings[i].Count > 0 {
			sources := o.Findings[i].Sources
			remap[i] = s.place(o.Findings[i], base+o.agg.groups[i].first)
			for _, f := range sources {
				s.agree(remap[i], f)
			}
		}
	}
	for _, k := range keep {
		if o.events[k.id].slot == lost {
			continue // lost to s's finding of the event in mergeBare
		}
		r := k.ref
		if r.slot >= 0 {
			r.slot = remap[r.slot]
		}
		r.setFile(s.fileIndex(o.files[r.file()]))
		s.events[k.id] = r
	}
}

// moved is an event of o whose finding s takes over: ref's slot and file are still o's.
type moved struct {
	id  eventID
	ref eventRef
}

// mergeBare carries o's unstructured findings over to s: one that s holds under another name
// (one record knew the hook, the other did not) is a duplicate, and the one naming the hook wins.
// It returns s's events that o's findings now hold.
func (s *Set) mergeBare(o *Set) []moved {
	var won []moved
	for k, obs := range o.bare {
		for _, ob := range obs {
			if _, ok := s.events[ob.id]; ok {
				continue // the same rule: resolved with the events
			}
			oref := o.events[ob.id]
			j, found := s.bareMatch(k, ob.hook)
			if !found {
				s.bare[k] = append(s.bare[k], ob)
				continue
			}
			s.Duplicates++
			sb := s.bare[k][j]
			sref := s.events[sb.id]
			if sref.slot >= 0 && oref.slot >= 0 {
				s.alias(sref.slot, o.Findings[oref.slot].RuleID)
				o.alias(oref.slot, s.Findings[sref.slot].RuleID)
			}
			if sb.hook == (eventID{}) && ob.hook != (eventID{}) {
				s.unplace(sref)
				o.agree(oref.slot, s.files[sref.file()])
				s.bare[k][j].hook = ob.hook
				won = append(won, moved{sb.id, oref})
				continue
			}
			o.unplace(oref)
			s.agree(sref.slot, o.files[oref.file()])
			s.events[ob.id] = sref // the event is s's finding's
			o.events[ob.id] = eventRef{slot: lost}
		}
	}
	return won
}

// bareMatch finds in s the unstructured finding under bare key k that an event with hook hash
// hook duplicates.
func (s *Set) bareMatch(k, hook eventID) (int, bool) {
	for i, b := range s.bare[k] {
		if b.hook != (eventID{}) && hook != (eventID{}) && b.hook != hook {
			continue
		}
		return i, true
	}
	return 0, false
}

// Compact ends an aggregating set: it drops groups whose every event went to a heavier record and
// orders the rest by their first event. The set takes no more findings afterwards.
func (s *Set) Compact() {
	sortSources(s.Findings)
	if s.agg == nil {
		return
	}
	if s.agg.bound.Max > 0 {
		s.evict(s.agg.bound.Max)
	}
	order := make([]int, 0, len(s.Findings))
	for i := range s.Findings {
		if s.Findings[i].Count > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(s.agg.groups[i].first, s.agg.groups[j].first) })
	// In place: the groups whose events all went elsewhere go last, and are cleared.
	kept := len(order)
	for i := range s.Findings {
		if s.Findings[i].Count <= 0 {
			order = append(order, i)
		}
	}
	permute(s.Findings, order)
	clear(s.Findings[kept:])
	s.Findings = s.Findings[:kept:kept]
	s.agg, s.events, s.bare = nil, nil, nil
}

// groupKey is the identity of an event group (a struct, so building it allocates nothing).
type groupKey struct {
	rule, target, path string
	level              Level
	verdict            gates.Verdict
	line               int
	trusted            bool // a reviewer's finding never merges under an agent-written one
}

// aggregateKey is the identity of the event group of f.
func aggregateKey(f *Finding) groupKey {
	k := groupKey{rule: f.RuleID, target: f.Target, level: f.Level, verdict: f.Verdict, trusted: f.Trusted}
	if f.Location != nil {
		k.path, k.line = f.Location.Path, f.Location.StartLine
	}
	return k
}

// mergeInto adds finding f (itself possibly already merged) to the merged finding m.
func mergeInto(m *Finding, f Finding, msgs map[string]int, max int) {
	m.Count += f.Count
	for _, r := range f.Aliases {
		m.Aliases = withAlias(m.Aliases, r, m.RuleID)
	}
	firsts, lasts := f.FirstTime, f.LastTime
	if firsts == "" {
		firsts = f.Time
	}
	if lasts == "" {
		lasts = f.Time
	}
	if firsts != "" && (m.FirstTime == "" || timeBefore(firsts, m.FirstTime)) {
		m.FirstTime = firsts
	}
	if lasts != "" && (m.LastTime == "" || timeBefore(m.LastTime, lasts)) {
		m.LastTime = lasts
	}
	for _, src := range f.Sources {
		addSource(m, src)
	}
	exs := f.Examples
	if len(exs) == 0 {
		exs = []Example{{Source: f.Source, Time: f.Time, Message: f.Message}}
	}
	for _, e := range exs {
		addExample(m, e, msgs, max)
	}
}

// addExample keeps e when there is room, or when its message is new and an example whose
// message is repeated can make way for it.
func addExample(m *Finding, e Example, msgs map[string]int, max int) {
	if len(m.Examples) < max {
		m.Examples = append(m.Examples, e)
		msgs[e.Message]++
		return
	}
	if msgs[e.Message] > 0 {
		return
	}
	for i := len(m.Examples) - 1; i >= 0; i-- {
		old := m.Examples[i].Message
		if msgs[old] > 1 {
			msgs[old]--
			m.Examples[i] = e
			msgs[e.Message]++
			return
		}
	}
}

// timeBefore reports whether RFC 3339 time a is before b; unparsable times compare as strings.
func timeBefore(a, b string) bool {
	ta, ea := time.Parse(time.RFC3339Nano, a)
	tb, eb := time.Parse(time.RFC3339Nano, b)
	if ea != nil || eb != nil {
		return a < b
	}
	return ta.Before(tb)
}
