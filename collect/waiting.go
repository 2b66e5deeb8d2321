package collect

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// With the change's diff, the readers hand over the sessions' edits as they read (edits.go), so
// the inputs are read once. An event that may go beside its session's edit cannot be anchored as
// it is read, since the edit it goes beside may come later in the file, or from another file:
// such an event waits in the set as a group of its own, under a place no file can have, and is
// anchored when the reading is done (settle); the final aggregation then merges it with its
// repeats, in the order the events were read.
//
// Waiting costs memory per event, where anchoring as read costs it per distinct result. So at
// most maxWaiting events wait (docs/architecture-read.md): past them the sink stops placing
// findings, the read goes on to its end for the edits and the consumer, and one second pass reads
// the findings again with every edit known and every event anchored as it is read. The results
// are the same either way; the run says that it read the inputs twice (Result.Notes).

// maxWaiting is how many events may wait for the sessions' edits before the findings are read in
// a second pass (at most half the distinct results a run keeps while reading, MaxGroups).
const maxWaiting = 1 << 14

// waitingBound is how many events may wait in a run of cfg.
func waitingBound(cfg Config) int {
	return min(cmp.Or(cfg.maxWaiting, maxWaiting), max(maxGroups(cfg)/2, 1))
}

// waitPath is the place of a waiting event: a repo-relative path never holds a NUL.
const waitPath = "\x00waiting for the session's edits"

// readPass reads every input once into a set, handing what the readers find to opts.Sink.
type readPass func(ctx context.Context, opts inputs.Options) (*findings.Set, readStats)

// read reads the inputs through s: once, anchoring as they are read, without a diff (or with
// --session-anchor config); with it, once with the edits and the events that wait for them, and
// past the waiting bound a second pass for the findings alone.
func (s *sink) read(ctx context.Context, opts inputs.Options, read readPass) (*findings.Set, readStats, []string) {
	opts.Sink = s
	if s.wait == nil {
		return with(read(ctx, opts))
	}
	opts.Edits = true
	set, st := read(ctx, opts)
	s.edits.keep(s.cfg)
	if ctx.Err() != nil || !s.wait.full.Load() {
		s.wait.settle(set, s.placeLater)
		return set, st, nil
	}
	set = nil // its findings stopped at the bound: the second pass reads them all
	opts = inputs.Options{Registry: opts.Registry, IncludeUnstructured: s.cfg.IncludeUnstructured, MaxRecord: opts.MaxRecord, Sink: s.again()}
	set, st = read(ctx, opts)
	note := fmt.Sprintf("more than %d events waited for their session's edits, so the inputs were read a second time to place them (see docs/architecture-read.md)", s.wait.max)
	fmt.Fprintf(s.cfg.Stderr, "agc-sarif: %s\n", note)
	return set, st, []string{note}
}

// with is a read's set and stats with no note.
func with(set *findings.Set, st readStats) (*findings.Set, readStats, []string) { return set, st, nil }

// waiting holds what the events that wait need to be anchored later.
type waiting struct {
	mu   sync.Mutex
	held []heldEvent
	max  int         // events that may wait
	full atomic.Bool // more than max events came to wait: the findings are read again
}

// heldEvent is what a waiting event's place in the set hides: its own location, and whether a
// path it named held a secret.
type heldEvent struct {
	loc    *findings.Location
	hidden bool
}

// hold gives f its waiting place, unique to it so that it merges with nothing while it waits.
func (w *waiting) hold(f findings.Finding, hidden bool) findings.Finding {
	w.mu.Lock()
	w.held = append(w.held, heldEvent{loc: f.Location, hidden: hidden})
	n := len(w.held)
	if n > w.max {
		w.full.Store(true)
		w.held = nil // nothing of this pass is placed: let them go
	}
	w.mu.Unlock()
	f.Location = &findings.Location{Path: waitPath, StartLine: n}
	return f
}

// settle anchors every waiting event of set with anchor, given the event as it was read (with
// what the set gathered while it waited: its count and the files that reported it).
func (w *waiting) settle(set *findings.Set, anchor func(f findings.Finding, hidden bool) findings.Finding) {
	for i := range set.Findings {
		f := &set.Findings[i]
		if f.Location == nil || f.Location.Path != waitPath || f.Location.StartLine < 1 || f.Location.StartLine > len(w.held) {
			continue
		}
		h := w.held[f.Location.StartLine-1]
		g := *f
		g.Location = h.loc
		*f = anchor(g, h.hidden)
	}
	w.held = nil
}
