package findings

import (
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
	if maxExamples <= 0 {
		maxExamples = DefaultMaxExamples
	}
	type group struct {
		f    Finding
		n    int            // findings merged into it
		msgs map[string]int // examples kept per message
	}
	idx := make(map[groupKey]int, len(fs))
	groups := make([]*group, 0, len(fs))
	for _, f := range fs {
		if f.Count < 1 {
			f.Count = 1
		}
		k := aggregateKey(&f)
		i, ok := idx[k]
		if !ok {
			idx[k] = len(groups)
			groups = append(groups, &group{f: f, n: 1})
			continue
		}
		g := groups[i]
		if g.n == 1 {
			g.msgs = map[string]int{}
			first := g.f
			g.f.Examples = nil
			g.f.FirstTime, g.f.LastTime = "", ""
			g.f.Count = 0
			mergeInto(&g.f, first, g.msgs, maxExamples)
		}
		g.n++
		mergeInto(&g.f, f, g.msgs, maxExamples)
	}
	out := make([]Finding, len(groups))
	for i, g := range groups {
		out[i] = g.f
	}
	return out
}

// groupKey is the identity of an event group (a struct, so building it allocates nothing).
type groupKey struct {
	rule, target, path string
	level              Level
	verdict            gates.Verdict
	line               int
}

// aggregateKey is the identity of the event group of f.
func aggregateKey(f *Finding) groupKey {
	k := groupKey{rule: f.RuleID, target: f.Target, level: f.Level, verdict: f.Verdict}
	if f.Location != nil {
		k.path, k.line = f.Location.Path, f.Location.StartLine
	}
	return k
}

// mergeInto adds finding f (itself possibly already merged) to the merged finding m.
func mergeInto(m *Finding, f Finding, msgs map[string]int, max int) {
	m.Count += f.Count
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
