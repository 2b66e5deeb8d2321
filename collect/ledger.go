package collect

import (
	"sync"

	"github.com/agc-sarif/agc-sarif/findings"
)

// maxCalls bounds the calls the call model keeps (the Session table lists at most 500).
const maxCalls = 10000

// ledger is the run's call model (findings.CallLedger), fed by the sink with every finding the
// run reports, redacted, from every reader at once.
type ledger struct {
	mu sync.Mutex
	l  *findings.CallLedger
}

func newLedger() *ledger { return &ledger{l: findings.NewCallLedger(maxCalls)} }

// add joins f, whose call is already redacted, to its call.
func (g *ledger) add(f *findings.Finding) {
	if g == nil || f.Call == nil {
		return
	}
	g.mu.Lock()
	g.l.Add(f)
	g.mu.Unlock()
}

// calls are the calls gathered, in time order, and how many were not kept.
func (g *ledger) calls() ([]findings.SessionCall, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.l.Calls(), g.l.Dropped
}

// noteCall hands the ledger f's call, redacted and with its file and hook as people read them
// (shown), as the outputs show it.
func (s *sink) noteCall(f findings.Finding) {
	if s.ledger == nil || findings.CallKey(&f) == "" {
		return
	}
	// As place asks for it (with the input, which the memo keeps for anchoring), then bare.
	c := *s.shown(s.calls.redacted(f.Call, true))
	c.Input = nil
	f.Call = &c
	f.Source.File = s.red.String(f.Source.File)
	if f.Repair != nil {
		f.Repair = &findings.Repair{Before: s.red.String(f.Repair.Before), After: s.red.String(f.Repair.After)}
	}
	s.ledger.add(&f)
}
