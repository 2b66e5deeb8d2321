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
	"os/signal"
	"syscall"
	"time"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// run starts the hook, streams its output, forwards signals and waits for it.
func run(ctx context.Context, opts Options, now func() time.Time) (o outcome) {
	o.start = now()
	stdout := newTee(opts.Stdout, keepOr(opts.KeepOutput, DefaultKeepOutput))
	stderr := newTee(opts.Stderr, keepOr(opts.KeepOutput, DefaultKeepOutput))
	keepIn := keepOr(opts.KeepInput, DefaultKeepInput)
	defer func() {
		if o.duration == 0 { // not started: the time it took to find that out
			o.duration = now().Sub(o.start)
		}
		o.stdout, o.stdoutCut = stdout.result()
		o.stderr, o.stderrCut = stderr.result()
	}()
	// A caller that stops reading our stdout must not kill us with SIGPIPE before the record
	// is written: with SIGPIPE caught, a write to a broken pipe fails with EPIPE instead, which
	// the tee hands on to the hook. Caught, not ignored: an ignored signal would be inherited
	// by the hook, which must meet the broken pipe exactly as it would on its own.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	if len(opts.Command) == 0 || opts.Command[0] == "" {
		o.startErr, o.notStart = errors.New("no hook command given"), ExitNotFound
		fmt.Fprintf(opts.Stderr, "agc-sarif record: %v\n", o.startErr)
		o.stdin, o.stdinCut = readAvailable(opts.Stdin, keepIn)
		return o
	}
	cmd, outs, err := startHook(opts, stdout, stderr)
	if err != nil {
		o.startErr, o.notStart = err, startFailureStatus(err)
		// Said on the recorder's stderr, as a shell would, but not logged as the hook's stderr.
		fmt.Fprintf(opts.Stderr, "agc-sarif record: could not run hook %q: %v\n", opts.Command[0], err)
		o.stdin, o.stdinCut = readAvailable(opts.Stdin, keepIn)
		return o
	}
	fed := feed(opts.Stdin, outs.stdin, keepIn)

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	waitErr := forwardUntilExit(ctx, cmd.Process.Pid, opts.Signals, waited, &o)
	o.duration = now().Sub(o.start) // the hook's time, not the wait for unread stdin below
	o.exitCode, o.signal = exitOf(cmd.ProcessState, waitErr)
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
func startHook(opts Options, stdout, stderr *tee) (*exec.Cmd, hookPipes, error) {
	var p hookPipes
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	if errors.Is(cmd.Err, exec.ErrDot) {
		cmd.Err = nil // a shell runs a hook found through "." in PATH; so do we
	}
	cmd.Dir, cmd.Env, cmd.SysProcAttr = opts.Dir, opts.Env, procAttr()
	var hookEnds []*os.File // the hook's own ends, closed here once it holds them
	defer func() {
		for _, f := range hookEnds {
			f.Close()
		}
	}()
	var err error
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
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errw
	if err := cmd.Start(); err != nil {
		p.stdin.Close()
		return nil, p, err
	}
	return cmd, p, nil
}

// forwardUntilExit passes each signal the recorder receives to the hook's process group until
// the hook exits, and returns Wait's error. A cancelled ctx counts as a SIGTERM, unless the
// signal that cancelled it shows up on signals shortly after.
func forwardUntilExit(ctx context.Context, pid int, signals <-chan os.Signal, waited <-chan error, o *outcome) error {
	done := ctx.Done()
	var ctxTimer <-chan time.Time
	for {
		select {
		case err := <-waited:
			return err
		case sig := <-signals:
			forward(pid, sig, o)
		case <-done:
			done = nil
			ctxTimer = time.After(ctxSignalWait)
		case <-ctxTimer:
			ctxTimer = nil
			if o.received == nil {
				forward(pid, syscall.SIGTERM, o)
			}
		}
	}
}

// forward sends sig to the hook's process group (to the hook alone if that fails).
func forward(pid int, sig os.Signal, o *outcome) {
	if o.received == nil {
		o.received = sig
	}
	s, ok := sig.(syscall.Signal)
	if !ok {
		s = syscall.SIGTERM
	}
	if err := syscall.Kill(-pid, s); err != nil {
		_ = syscall.Kill(pid, s)
	}
}

// exitOf turns the hook's end into its exit code (-1 when a signal ended it) and that signal.
func exitOf(ps *os.ProcessState, waitErr error) (int, syscall.Signal) {
	if ps == nil {
		return -1, 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, ws.Signal()
	}
	_ = waitErr // ErrWaitDelay: output left open by a child; the exit status still stands
	return ps.ExitCode(), 0
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
