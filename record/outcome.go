package record

import (
	"os"
	"syscall"
	"time"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// outcome is what one run of the hook produced.
type outcome struct {
	start    time.Time
	duration time.Duration
	stdin    []byte
	stdout   []byte
	stderr   []byte
	// stdinCut, stdoutCut, stderrCut say what of a stream longer than the record keeps was cut.
	stdinCut, stdoutCut, stderrCut *hooklog.Cut
	exitCode                       int            // the hook's exit status; -1 when a signal ended it
	signal                         syscall.Signal // the signal that ended the hook, or 0
	received                       os.Signal      // the first signal the recorder itself received while the hook ran
	startErr                       error          // why the hook could not be started
	notStart                       int            // 126 or 127 when startErr is set
}

// timedOut is the timed_out heuristic: the recorder itself received SIGTERM while the hook ran.
// Runtimes end a hook that overran its timeout with SIGTERM (then SIGKILL); the recorder cannot
// tell a timeout from another sender, only that the signal came from outside the hook.
func timedOut(received os.Signal) bool {
	return received == syscall.SIGTERM
}

// exitStatus is the status the recorder ends with, as a shell would report the hook.
func (o outcome) exitStatus() int {
	switch {
	case o.startErr != nil:
		return o.notStart
	case o.signal != 0:
		return exitSignalBase + int(o.signal)
	default:
		return o.exitCode
	}
}
