//go:build unix

package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// run starts the hook, streams its output, forwards signals and waits for it.
func run(ctx context.Context, opts Options, now func() time.Time) (o outcome) {
	o.start = now()
	errOut := noSigpipe(opts.Stderr)
	stdout := newTee(noSigpipe(opts.Stdout), keepOr(opts.KeepOutput, DefaultKeepOutput), opts.SignalsReady)
	stderr := newTee(errOut, keepOr(opts.KeepOutput, DefaultKeepOutput), opts.SignalsReady)
	keepIn := keepOr(opts.KeepInput, DefaultKeepInput)
	defer func() {
		if o.duration == 0 { // not started: the time it took to find that out
			o.duration = now().Sub(o.start)
		}
		o.stdout, o.stdoutCut = stdout.result()
		o.stderr, o.stderrCut = stderr.result()
	}()
	// A caller that stops reading our stdout must not kill us with SIGPIPE before the record
	// is written: the tees, and the recorder's own start-failure messages (errOut), write
	// through the raw descriptors (noSigpipe), so a write to a broken pipe fails with EPIPE
	// instead, which the tee hands on to the hook. SIGPIPE is neither caught nor ignored, so
	// the hook inherits its default and meets the broken pipe exactly as it would on its own.
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		o.startErr, o.notStart = errors.New("no hook command given"), ExitNotFound
		fmt.Fprintf(errOut, "agc-sarif record: %v\n", o.startErr)
		o.stdin, o.stdinCut = readAvailable(opts.Stdin, keepIn)
		return o
	}
	hook, outs, err := startHook(opts, stdout, stderr)
	if err != nil {
		o.startErr, o.notStart = err, startFailureStatus(err)
		// Said on the recorder's stderr, as a shell would, but not logged as the hook's stderr.
		fmt.Fprintf(errOut, "agc-sarif record: could not run hook %q: %v\n", opts.Command[0], err)
		o.stdin, o.stdinCut = readAvailable(opts.Stdin, keepIn)
		return o
	}
	fed := feed(opts.Stdin, outs.stdin, keepIn)

	exited, stop := watchExit(hook.pid, descriptor(opts.Stdout), outs.stdout.hangUp)
	ws := forwardUntilExit(ctx, hook, opts.Signals, exited, &o)
	stop()
	o.duration = now().Sub(o.start) // the hook's time, not the wait for unread stdin below
	o.exitCode, o.signal = exitOf(ws)
	outs.stdout.hookExited()
	outs.stderr.hookExited()
	<-outs.stdout.done
	<-outs.stderr.done

	select {
	case <-fed.done:
	case <-time.After(stdinGrace):
	}
	o.stdin, o.stdinCut = fed.result()
	return o
}

// hookPipes are the recorder's ends of the hook's stdin, stdout and stderr.
type hookPipes struct {
	stdin          *os.File
	stdout, stderr *drain
}

// startHook starts the hook with its stdout and stderr drained into the tees; stdin is the
// write end of the hook's stdin pipe. On failure nothing is left open or running.
//
// It calls syscall.ForkExec, not os/exec: on Linux, os.StartProcess first checks once per
// process that pidfds work by cloning a child that exits at once, which is a second process
// start on every hook call (about 0.4 ms of the recorder's 4; see README: Overhead).
func startHook(opts Options, stdout, stderr *tee) (*hookProcess, hookPipes, error) {
	var p hookPipes
	path, err := exec.LookPath(opts.Command[0])
	if errors.Is(err, exec.ErrDot) {
		err = nil // a shell runs a hook found through "." in PATH; so do we
	}
	if err != nil {
		return nil, p, err
	}
	var hookEnds []*os.File // the hook's own ends, closed here once it holds them
	defer func() {
		for _, f := range hookEnds {
			f.Close()
		}
	}()
	var in, out, errw *os.File
	if in, p.stdin, err = os.Pipe(); err != nil {
		return nil, p, fmt.Errorf("could not make a pipe for the hook's stdin: %w", err)
	}
	hookEnds = append(hookEnds, in)
	if p.stdout, out, err = startDrain(stdout); err != nil {
		p.stdin.Close()
		return nil, p, fmt.Errorf("could not make a pipe for the hook's stdout: %w", err)
	}
	hookEnds = append(hookEnds, out)
	if p.stderr, errw, err = startDrain(stderr); err != nil {
		p.stdin.Close()
		return nil, p, fmt.Errorf("could not make a pipe for the hook's stderr: %w", err)
	}
	hookEnds = append(hookEnds, errw)
	pid, err := syscall.ForkExec(path, opts.Command, &syscall.ProcAttr{
		Dir:   opts.Dir,
		Env:   hookEnv(opts.Env, opts.Dir),
		Files: []uintptr{in.Fd(), out.Fd(), errw.Fd()},
		Sys:   procAttr(),
	})
	if err != nil {
		p.stdin.Close()
		return nil, p, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	return &hookProcess{pid: pid}, p, nil
}

// hookEnv is the hook's environment: env, or the recorder's own with PWD set to dir when dir
// is given (as os/exec does), so the hook sees the folder it runs in.
func hookEnv(env []string, dir string) []string {
	if env != nil {
		return env
	}
	env = os.Environ()
	if dir == "" {
		return env
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return env
	}
	kept := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PWD=") {
			kept = append(kept, kv)
		}
	}
	return append(kept, "PWD="+abs)
}

// hookProcess is the started hook. It is reaped and signalled from one goroutine
// (forwardUntilExit), so no signal is sent after reaping, to an ID the system may reuse.
type hookProcess struct {
	pid int
}

// reap reaps the hook if it has exited, without waiting.
func (h *hookProcess) reap() (syscall.WaitStatus, bool) {
	var ws syscall.WaitStatus
	for {
		pid, err := syscall.Wait4(h.pid, &ws, syscall.WNOHANG, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil: // not our child any more (cannot happen): report a plain failure
			return syscall.WaitStatus(1 << 8), true
		}
		return ws, pid == h.pid
	}
}

// signal sends s to the hook's process group (to the hook alone if that fails).
func (h *hookProcess) signal(s syscall.Signal) {
	if err := syscall.Kill(-h.pid, s); err != nil {
		_ = syscall.Kill(h.pid, s)
	}
}

// reapPoll is how often forwardUntilExit checks for the hook's exit without word from
// watchExit: only a safety net.
const reapPoll = 200 * time.Millisecond

// forwardUntilExit passes each signal the recorder receives to the hook's process group until
// the hook exits, and returns its wait status. The exit is noticed on exited (watchExit). A
// cancelled ctx counts as a SIGTERM, unless the signal that cancelled it shows up on signals
// shortly after.
func forwardUntilExit(ctx context.Context, hook *hookProcess, signals <-chan os.Signal, exited <-chan struct{}, o *outcome) syscall.WaitStatus {
	done := ctx.Done()
	var ctxTimer <-chan time.Time
	poll := time.NewTicker(reapPoll)
	defer poll.Stop()
	for {
		if ws, reaped := hook.reap(); reaped {
			noteLateSignal(ws, signals, o)
			return ws
		}
		select {
		case _, ok := <-exited:
			if !ok {
				exited = nil // closed: reaped above next time round; the poll is the safety net
			}
		case <-poll.C:
		case sig := <-signals:
			forward(hook, sig, o)
		case <-done:
			done = nil
			ctxTimer = time.After(ctxSignalWait)
		case <-ctxTimer:
			ctxTimer = nil
			if o.received == nil {
				forward(hook, syscall.SIGTERM, o)
			}
		}
	}
}

// lateSignalWait is how long a hook ended by a signal the recorder did not forward waits for that
// signal to reach the recorder too: a runtime that ends a timed-out hook by signalling every
// process of its tree (the shell, the recorder, the hook) may reach the hook first, and the
// recorder would then log the timeout as a crash.
const lateSignalWait = 250 * time.Millisecond

// noteLateSignal notes a signal the recorder received as the hook ended, which the wait for its
// exit did not take: one already queued, or, when a signal ended the hook and none reached the
// recorder yet, one that comes within lateSignalWait. Nothing is forwarded: the hook is gone.
func noteLateSignal(ws syscall.WaitStatus, signals <-chan os.Signal, o *outcome) {
	if o.received != nil || signals == nil {
		return
	}
	select {
	case sig := <-signals:
		o.received = sig
		return
	default:
	}
	if !ws.Signaled() {
		return
	}
	select {
	case sig := <-signals:
		o.received = sig
	case <-time.After(lateSignalWait):
	}
}

// forward sends sig to the hook's process group and notes the first signal received.
func forward(hook *hookProcess, sig os.Signal, o *outcome) {
	if o.received == nil {
		o.received = sig
	}
	s, ok := sig.(syscall.Signal)
	if !ok {
		s = syscall.SIGTERM
	}
	hook.signal(s)
}

// exitOf turns the hook's wait status into its exit code (-1 when a signal ended it) and that
// signal.
func exitOf(ws syscall.WaitStatus) (int, syscall.Signal) {
	if ws.Signaled() {
		return -1, ws.Signal()
	}
	return ws.ExitStatus(), 0
}

// startFailureStatus is the status a shell gives for a command that could not be started.
func startFailureStatus(err error) int {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return ExitNotFound
	default:
		return ExitNotExecutable // EACCES, ENOEXEC and the rest: found but could not be run
	}
}

// readAvailable reads stdin for the log when no hook runs, waiting at most stdinGrace.
func readAvailable(src io.Reader, limit int) ([]byte, *hooklog.Cut) {
	if src == nil {
		return nil, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil
	}
	pr.Close()
	fed := feed(src, pw, limit)
	select {
	case <-fed.done:
	case <-time.After(stdinGrace):
	}
	return fed.result()
}

// keepOr is n when positive, else def.
func keepOr(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
