package record

import (
	"os"
	"os/signal"
	"syscall"
)

// Forwarded are the signals a recorder catches and passes on to the hook's process group.
var Forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}

// CatchSignals starts catching Forwarded onto ch in the background, for Options.Signals, and
// returns a channel closed once they are caught (Options.SignalsReady) and a func that stops
// catching. Catching a signal costs a handshake with the Go runtime's
// signal thread, which it starts first: a few tenths of a millisecond per hook call on a
// 2-core machine (docs/performance.md). Done in the background, it overlaps the start of the
// hook. A signal that arrives before it is in place ends the recorder (and, on Linux, through
// its parent-death signal, the hook; elsewhere the hook runs on) as one arriving before main
// would; none can arrive after the hook's first output has reached the caller
// (Options.SignalsReady).
func CatchSignals(ch chan<- os.Signal) (ready <-chan struct{}, stop func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		signal.Notify(ch, Forwarded...)
	}()
	return done, func() {
		<-done
		signal.Stop(ch)
	}
}
