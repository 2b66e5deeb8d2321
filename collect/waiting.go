package collect

import (
	"sync"

	"github.com/agc-sarif/agc-sarif/findings"
)

// Events that may go beside their session's edit cannot be anchored as they are read, since the
// edits are read with them: the edit they go beside may come later in the file, or from another
// file. Such an event waits in the set as a group of its own, under a place no file can have, and
// is anchored when the reading is done (settle); the final aggregation then merges it with its
// repeats, in the order the events were read.

// waitPath is the place of a waiting event: a repo-relative path never holds a NUL.
const waitPath = "\x00waiting for the session's edits"

// waiting holds what the events that wait need to be anchored later.
type waiting struct {
	mu   sync.Mutex
	held []heldEvent
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
