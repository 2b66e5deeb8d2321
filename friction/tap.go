package friction

import (
	"sync"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Tap gathers the calls and the findings of one read of the inputs for the report: collect hands
// it both as it reads (collect.Config.Consumer), redacted, so the friction ladder reads the same
// pass as the rest of the run. It is safe for concurrent use.
type Tap struct {
	tl    *Timeline
	mu    sync.Mutex
	found *findings.Set // one finding per event, as read
}

// NewTap returns an empty tap.
func NewTap() *Tap { return &Tap{tl: NewTimeline(), found: findings.NewSet()} }

// Call takes one tool-call event.
func (t *Tap) Call(ev inputs.CallEvent) { t.tl.Add(ev) }

// Finding takes one finding; an event read from several records is kept once.
func (t *Tap) Finding(f findings.Finding) {
	t.mu.Lock()
	t.found.Add(f)
	t.mu.Unlock()
}

// Report joins the findings to the calls and analyses them (Timeline.Report).
func (t *Tap) Report(opts Options) Report {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tl.Report(t.found.Findings, opts)
}
