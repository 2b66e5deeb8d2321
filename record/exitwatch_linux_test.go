package record

import (
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// startSleeper starts `sh -c 'read x; exit 3'` with its stdin on a pipe, so the test says when it
// exits: it exits when w is closed.
func startSleeper(t *testing.T) (pid int, release func()) {
	t.Helper()
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	pid, err := syscall.ForkExec("/bin/sh", []string{"sh", "-c", "read x; exit 3"}, &syscall.ProcAttr{Files: []uintptr{uintptr(p[0]), 1, 2}})
	syscall.Close(p[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid, func() { syscall.Close(p[1]) }
}

// reapStatus reaps pid (it must have exited and not been reaped) and returns its exit status.
func reapStatus(t *testing.T, pid int) int {
	t.Helper()
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	if err != nil || got != pid {
		t.Fatalf("wait4 = %d, %v: the watcher reaped the hook or it had not exited", got, err)
	}
	return ws.ExitStatus()
}

// TestWatchExit: the channel stays open while the hook runs, is closed once it exits, and the
// hook is left for the caller to reap (so its status is not lost and its pid not reused).
func TestWatchExit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		watch func(int) <-chan struct{}
	}{
		{"pidfd", func(pid int) <-chan struct{} { ch, _ := watchExit(pid, -1, nil); return ch }},
		{"waitid", func(pid int) <-chan struct{} {
			ch := make(chan struct{})
			go func() { defer close(ch); waitBlocking(pid) }()
			return ch
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pid, release := startSleeper(t)
			ch := tc.watch(pid)
			select {
			case <-ch:
				t.Fatal("closed while the hook still runs")
			case <-time.After(50 * time.Millisecond):
			}
			release()
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				t.Fatal("not closed after the hook exited")
			}
			if st := reapStatus(t, pid); st != 3 {
				t.Errorf("exit status %d, want 3", st)
			}
		})
	}
}

// TestWatchExitAfterExit: a hook that has already exited (a zombie, not yet reaped) when the
// watch starts is reported at once, by either watcher, and is still left for the caller to reap.
func TestWatchExitAfterExit(t *testing.T) {
	for name, watch := range map[string]func(int) <-chan struct{}{
		"pidfd": func(pid int) <-chan struct{} { ch, _ := watchExit(pid, -1, nil); return ch },
		"waitid": func(pid int) <-chan struct{} {
			ch := make(chan struct{})
			go func() { defer close(ch); waitBlocking(pid) }()
			return ch
		},
	} {
		t.Run(name, func(t *testing.T) {
			pid, release := startSleeper(t)
			release()
			var info unix.Siginfo // wait for the exit without reaping, as watchExit would
			if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
				t.Fatal(err)
			}
			select {
			case <-watch(pid):
			case <-time.After(10 * time.Second):
				t.Fatal("an already exited hook was never reported")
			}
			if st := reapStatus(t, pid); st != 3 {
				t.Errorf("exit status %d, want 3", st)
			}
		})
	}
}
