package findings

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/gates"
)

// The call model: every finding about a tool call, from whichever record, joins its call by one
// key (CallKey), so that a call is one row and one count however many files tell of it and
// however many hooks and checks met it. The Session table and the summary's headline count from it.

// SessionCall is one tool call that met a hook, as all its records tell.
type SessionCall struct {
	Key              string // CallKey
	Runtime, Session string
	Tool, What       string // the tool, and the command or file of the call
	Time             string // the earliest record's time (RFC 3339), "" when none gave one
	Source           Source // its first record, by file and line
	Rewritten        string // the call as a repair rewrote it, when one did
	Outcomes         []Outcome
}

// Outcome is one finding's part in a call: the hook event, the rule, the gate's claim (verdict)
// and what the runtime did with the answer (Effect).
type Outcome struct {
	Event   string
	After   bool // the hook ran after the call
	RuleID  string
	Kind    Kind
	Verdict gates.Verdict
	Effect  gates.Effect
	// Carried says the runtime did what the verdict claimed; Known that the effect was known.
	Carried, Known bool
}

// CallKey is the identity of the call f is about: runtime, session, and the runtime's id of the
// call, else its order key, else the event the finding came from (a record that names no call
// is a call of its own); "" when f is about no tool call.
func CallKey(f *Finding) string {
	c := f.Call
	if c == nil || c.Tool == "" && c.Command == "" && c.FilePath == "" {
		return ""
	}
	id := c.ToolUseID
	switch {
	case id != "":
	case c.Key != "":
		id = "key:" + c.Key
	case f.EventKey != "":
		id = "event:" + f.EventKey
	default:
		id = "at:" + f.Source.File + ":" + strconv.Itoa(f.Source.Line) + ":" + f.Time + ":" + c.Tool + ":" + c.Command + c.FilePath
	}
	return c.Runtime + "\x00" + c.SessionID + "\x00" + id
}

// CallLedger gathers the calls of findings as they are read, each once. It keeps at most max
// calls (the rest are counted in Dropped). Not safe for concurrent use.
type CallLedger struct {
	max     int
	index   map[string]int
	seen    map[string]bool
	calls   []SessionCall
	Dropped int // calls not kept past the bound
}

// NewCallLedger returns an empty ledger that keeps up to max calls (max <= 0: 10,000).
func NewCallLedger(max int) *CallLedger {
	if max <= 0 {
		max = 10000
	}
	return &CallLedger{max: max, index: map[string]int{}, seen: map[string]bool{}}
}

// Add joins f to its call; a finding about no call, or one of an event and rule the call
// already holds (the same hook event read from another record), changes nothing.
func (l *CallLedger) Add(f *Finding) {
	k := CallKey(f)
	if k == "" {
		return
	}
	i, ok := l.index[k]
	if !ok {
		if len(l.calls) >= l.max {
			if !l.seen["dropped\x00"+k] {
				l.seen["dropped\x00"+k] = true
				l.Dropped++
			}
			return
		}
		i = len(l.calls)
		l.index[k] = i
		l.calls = append(l.calls, SessionCall{Key: k, Runtime: f.Call.Runtime, Session: f.Call.SessionID, Source: f.Source})
	}
	c := &l.calls[i]
	what := f.Call.Command
	if what == "" {
		what = f.Call.FilePath
	}
	// The first record by place names the call, whichever file was read first.
	first := !ok || f.Source.File < c.Source.File || f.Source.File == c.Source.File && f.Source.Line < c.Source.Line
	if first {
		c.Source = f.Source
	}
	if c.Tool == "" || first && f.Call.Tool != "" {
		c.Tool = f.Call.Tool
	}
	if c.What == "" || first && what != "" {
		c.What = what
	}
	for _, t := range []string{f.FirstTime, f.Time} {
		if t != "" && (c.Time == "" || earlier(t, c.Time)) {
			c.Time = t
		}
	}
	if f.Verdict == gates.Repaired && f.Repair != nil && c.Rewritten == "" && f.Call.Effect == gates.EffectRewritten {
		c.Rewritten = f.Repair.After
	}
	ok2 := k + "\x00" + f.Call.Event + "\x00" + f.RuleID
	if l.seen[ok2] {
		return
	}
	l.seen[ok2] = true
	carried, known := Carried(f)
	c.Outcomes = append(c.Outcomes, Outcome{Event: f.Call.Event, After: f.Call.After, RuleID: f.RuleID, Kind: f.Kind, Verdict: f.Verdict,
		Effect: f.Call.Effect, Carried: carried, Known: known})
}

// Calls are the calls gathered, in the order they happened: by time, then, for calls without
// one, by where they were first recorded.
func (l *CallLedger) Calls() []SessionCall {
	out := make([]SessionCall, len(l.calls))
	for i, c := range l.calls {
		c.Outcomes = slices.Clone(c.Outcomes)
		slices.SortStableFunc(c.Outcomes, func(a, b Outcome) int {
			return cmp.Or(cmp.Compare(afterRank(a.After), afterRank(b.After)), strings.Compare(a.Event, b.Event),
				cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), strings.Compare(a.RuleID, b.RuleID))
		})
		out[i] = c
	}
	SortCalls(out)
	return out
}

// afterRank orders the hook events of a call as they happen: before the call, then after.
func afterRank(after bool) int {
	if after {
		return 1
	}
	return 0
}

// kindRank puts the gates' claims before the contract findings about them.
func kindRank(k Kind) int {
	if k == Contract {
		return 1
	}
	return 0
}

// SortCalls orders calls by time, calls without one last, then by where they were recorded.
func SortCalls(cs []SessionCall) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if (a.Time == "") != (b.Time == "") {
			return a.Time != ""
		}
		if a.Time != b.Time {
			return earlier(a.Time, b.Time)
		}
		if a.Source.File != b.Source.File {
			return a.Source.File < b.Source.File
		}
		return a.Source.Line < b.Source.Line
	})
}

// earlier reports whether time a is before b; texts that are not RFC 3339 compare as text.
func earlier(a, b string) bool {
	ta, ea := time.Parse(time.RFC3339Nano, a)
	tb, eb := time.Parse(time.RFC3339Nano, b)
	if ea != nil || eb != nil {
		return a < b
	}
	return ta.Before(tb)
}

// CallsOf is the calls of fs (findings already read, perhaps merged: a merged finding stands for
// its first call only).
func CallsOf(fs []Finding) []SessionCall {
	l := NewCallLedger(0)
	for i := range fs {
		l.Add(&fs[i])
	}
	return l.Calls()
}

// Claimed reports whether a gate (not a contract check) answered v for the call.
func (c *SessionCall) Claimed(v gates.Verdict) bool {
	for _, o := range c.Outcomes {
		if o.Kind != Contract && o.Verdict == v {
			return true
		}
	}
	return false
}

// CarriedOut reports whether the runtime did what a gate's v claimed for the call: an answer v
// whose effect is known and carried it, or whose effect is unknown (the records do not say, and
// nothing says otherwise).
func (c *SessionCall) CarriedOut(v gates.Verdict) bool {
	for _, o := range c.Outcomes {
		if o.Kind != Contract && o.Verdict == v && (o.Carried || !o.Known) {
			return true
		}
	}
	return false
}

// Unguarded reports whether a hook failed open on the call: it ran as no gate saw it.
func (c *SessionCall) Unguarded() bool {
	for _, o := range c.Outcomes {
		if o.Effect == gates.EffectFailedOpen {
			return true
		}
	}
	return false
}

// Did says what the runtime did with the call, from the effects of its hooks' answers in the
// order they were read, and which of the gates' claims it did not carry out; "" when no record
// says.
func (c *SessionCall) Did() string {
	var parts []string
	seen := map[string]bool{}
	for _, o := range c.Outcomes {
		p := EffectPhrase(&Call{Event: o.Event, After: o.After, Effect: o.Effect})
		if o.Effect == gates.EffectRewritten && c.Rewritten != "" {
			p = "the call ran as rewritten: " + Clip(c.Rewritten, 100)
		}
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if o.Event != "" && len(c.events()) > 1 {
			p = o.Event + ": " + p
		}
		parts = append(parts, p)
	}
	for _, v := range []gates.Verdict{gates.Block, gates.Repaired, gates.Steer} {
		if c.Claimed(v) && !c.CarriedOut(v) {
			parts = append(parts, "not the gate's "+string(v))
		}
	}
	return strings.Join(parts, "; ")
}

// events are the hook events that met the call.
func (c *SessionCall) events() []string {
	var out []string
	for _, o := range c.Outcomes {
		if o.Event != "" && !slices.Contains(out, o.Event) {
			out = append(out, o.Event)
		}
	}
	return out
}
