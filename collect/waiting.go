package collect

import (
	"cmp"
	"context"
	"sync"

	"github.com/agc-sarif/agc-sarif/anchor"
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
// most maxWaiting events wait: past them the reading stops, the inputs are read for their edits
// alone (the records are split and looked at for edits, not read by their format's reader), then
// read again with every edit known and every event anchored as it is read (what
// every run did before the edits came with the findings). The results are the same either way.

// maxWaiting is how many events may wait for the sessions' edits before the reading starts again
// in two passes (at most half the distinct results a run keeps while reading, MaxGroups).
const maxWaiting = 1 << 14

// waitPath is the place of a waiting event: a repo-relative path never holds a NUL.
const waitPath = "\x00waiting for the session's edits"

// readFunc reads every input into a set with prepare, handing edit calls to edits (nil: none);
// with prepare nil, it reads the edit calls only (inputs.Options.EditsOnly).
type readFunc func(ctx context.Context, prepare func(findings.Finding) findings.Finding, edits func(inputs.EditCall)) (*findings.Set, readStats)

// read reads the inputs with read: once, anchoring as they are read, without a diff (or with
// --session-anchor config); with it, once with the edits and the events that wait for them, or,
// past maxWaiting, in two passes.
func (p *preparation) read(ctx context.Context, read readFunc) (*findings.Set, readStats) {
	if p.res.Diff == nil || p.cfg.SessionAnchor == anchor.SessionConfig {
		return read(ctx, p.prepare(nil), nil)
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Waiting events are groups of one: fewer than the set's bound keeps them from its eviction.
	limit := min(cmp.Or(p.cfg.maxWaiting, maxWaiting), max(maxGroups(p.cfg)/2, 1))
	g, w := newEditGather(p.anc, p.files), &waiting{stop: cancel, max: limit}
	set, st := read(rctx, p.prepare(w), g.receive)
	if ctx.Err() != nil || !w.overflowed() {
		g.keep(p.cfg)
		w.settle(set, p.anchorLater)
		return set, st
	}
	g = newEditGather(p.anc, p.files)
	read(ctx, nil, g.receive)
	g.keep(p.cfg)
	return read(ctx, p.prepare(nil), nil)
}

// waiting holds what the events that wait need to be anchored later.
type waiting struct {
	mu   sync.Mutex
	held []heldEvent
	max  int    // events that may wait
	stop func() // stops the reading when more than max events wait
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
	w.mu.Unlock()
	if n > w.max {
		w.stop()
	}
	f.Location = &findings.Location{Path: waitPath, StartLine: n}
	return f
}

// overflowed reports whether more than max events waited.
func (w *waiting) overflowed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.held) > w.max
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
