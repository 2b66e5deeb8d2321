// Package record runs one agent hook unchanged — same stdin, environment and working folder,
// stdout, stderr and exit status passed through as they come — and appends one hooklog.Record
// of the run to the hook log. It fails open: a log that cannot be written never changes the
// hook's answer.
package record

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// Exit statuses a shell would give for a hook that could not be started.
const (
	ExitNotExecutable = 126 // found but not executable (permission denied, bad format)
	ExitNotFound      = 127 // no such command
	exitSignalBase    = 128 // a hook killed by signal N gives 128+N
)

// Grace periods after the hook has exited.
const (
	// OutputGrace is how long the recorder waits for more output once the hook has exited with
	// its stdout or stderr still open (held by a child it left running) before it stops reading.
	OutputGrace = time.Second
	// stdinGrace is how long the recorder waits for the rest of its stdin when the hook exited
	// without reading all of it; what came by then is logged.
	stdinGrace = 250 * time.Millisecond
	// ctxSignalWait is how long a cancelled context waits for the signal that cancelled it to
	// arrive on Options.Signals, so that signal (not SIGTERM) is the one forwarded.
	ctxSignalWait = 50 * time.Millisecond
)

// GCPercent is the GC target (GOGC; Go's default is 100) the recorder sets once a stream it
// keeps passes LowGCAt bytes: the record is built from up to 6 MiB of kept streams in a few
// copies, and a low target keeps the peak RSS near what is live (36 MiB instead of 51 on 200
// MB of text). It is not set from the start: on a small heap a target of 20 starts a garbage
// collection within the few hundred KiB that `agc-sarif record` allocates on every hook call.
const GCPercent = 20

// LowGCAt is the size of a kept stream at which the recorder sets GCPercent.
const LowGCAt = 256 << 10

// lowGC sets GCPercent for the rest of the process, once.
var lowGC = sync.OnceFunc(func() { debug.SetGCPercent(GCPercent) })

// Options says what to run and where its streams and record go.
type Options struct {
	Command []string  // the hook's argv; Command[0] is looked up in PATH when it has no slash
	Dir     string    // working folder of the hook; "" = the recorder's
	Env     []string  // environment of the hook; nil = the recorder's
	Stdin   io.Reader // passed to the hook and logged as "input"
	Stdout  io.Writer // receives the hook's stdout as it comes
	Stderr  io.Writer // receives the hook's stderr, and nothing else once the hook started
	Log     string    // hook log file to append to
	// Warnings is the file that a failed log write is noted in ("" = nowhere; see WarnPath).
	// Never the hook's stderr: on exit 2 that is the block reason the model reads.
	Warnings string
	// Runtime is the "runtime" field; "" = recognised from the input (claude-code by default),
	// else from the environment (Getenv).
	Runtime string
	// Getenv reads the hook's environment, for a runtime the input does not name (agent.DetectEnv); nil = none.
	Getenv func(string) string
	// Signals delivers signals the recorder received; each is forwarded to the hook's process
	// group. nil = none. A SIGTERM received here marks the record timed_out.
	Signals <-chan os.Signal
	// SignalsReady, when not nil, is closed once Signals catches (CatchSignals). None of the
	// hook's output reaches Stdout or Stderr before, so a caller that signals the recorder
	// after reading the hook's first words always has the signal forwarded. It must be
	// closed: until it is, the hook's output is held and Run does not return.
	SignalsReady <-chan struct{}
	Now          func() time.Time // clock; nil = time.Now
	// KeepOutput and KeepInput bound the bytes of each stream the record holds (0 = the
	// defaults); longer streams still pass through whole and are logged as cut.
	KeepOutput, KeepInput int
}

// Run runs the hook, appends its record to opts.Log and returns the exit status the recorder
// should end with: the hook's own, 128+N when signal N killed it, 126/127 when it could not be
// started. The record is returned too. A log write failure is noted in opts.Warnings and
// changes nothing the hook's caller sees.
func Run(ctx context.Context, opts Options) (int, hooklog.Record) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	out := run(ctx, opts, now)
	rec := out.record(opts)
	// Not cancelled with ctx: a runtime's SIGTERM (which cancels ctx in main) is exactly the
	// run that must still be logged. hooklog.LockTimeout bounds the wait.
	if err := hooklog.Append(context.WithoutCancel(ctx), opts.Log, rec); err != nil {
		warn(context.WithoutCancel(ctx), opts, now, fmt.Sprintf("could not write hook log %q: %s", opts.Log, describeLogError(opts.Log, err)))
	}
	return out.exitStatus(), rec
}

// warn appends one line to the warnings file; a warning that cannot be written is dropped,
// as the hook's answer must go through unchanged either way.
func warn(ctx context.Context, opts Options, now func() time.Time, msg string) {
	if opts.Warnings == "" {
		return
	}
	line := fmt.Sprintf("%s agc-sarif record: %s\n", now().UTC().Format(time.RFC3339), strings.ReplaceAll(msg, "\n", `\n`))
	_ = hooklog.AppendLine(ctx, opts.Warnings, []byte(line))
}

// WarnPath is the file the recorder notes failed log writes in, since the hook's stderr is not
// its to write to: $AGC_RECORD_WARNINGS, else $XDG_STATE_HOME/agc-sarif/record-warnings.log,
// else ~/.local/state/agc-sarif/record-warnings.log; "" when none can be named.
func WarnPath(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	if p := getenv("AGC_RECORD_WARNINGS"); p != "" {
		return p
	}
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "agc-sarif", "record-warnings.log")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "agc-sarif", "record-warnings.log")
	}
	return ""
}
