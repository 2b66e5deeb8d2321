package record

import (
	"os"

	"golang.org/x/sys/unix"
)

// watchExit returns a channel that is closed once the hook with this pid has exited. The hook
// is not reaped here: forwardUntilExit reaps it, in the goroutine that signals it, so no signal
// is ever sent to a pid the system has reused.
//
// It waits on a pidfd through Go's network poller, so no thread sits blocked and no SIGCHLD
// handler is needed: catching a signal with os/signal starts a thread and costs a handshake
// with it per signal, which is a tenth of the recorder's added cost (README: Overhead). Without
// pidfds opened with PIDFD_NONBLOCK (Linux before 5.10, or a seccomp filter) a goroutine
// blocks in waitid instead.
func watchExit(pid int) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		go func() { defer close(ch); waitBlocking(pid) }()
		return ch, func() {}
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	go func() {
		defer close(ch)
		defer f.Close()
		rc, err := f.SyscallConn()
		if err == nil {
			err = rc.Read(func(fd uintptr) bool { return pidfdExited(int(fd)) })
		}
		if err != nil { // not pollable: wait the slow way
			waitBlocking(pid)
		}
	}()
	return ch, func() {}
}

// pidfdExited reports whether the process behind a pidfd has exited (the pidfd is readable).
func pidfdExited(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, 0)
		if err == unix.EINTR {
			continue
		}
		return err != nil || (n > 0 && fds[0].Revents != 0)
	}
}

// waitBlocking blocks until the child pid has exited, without reaping it.
func waitBlocking(pid int) {
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != unix.EINTR {
			return
		}
	}
}
