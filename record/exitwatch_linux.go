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
//
// When out is the descriptor of a pipe or socket (the recorder's stdout; -1 for none), the same
// wait also watches it for its reader's hang-up, in one epoll set with the pidfd, so that no
// other goroutine or thread is needed: hangup is called once, as soon as the reader has gone,
// while the hook runs.
func watchExit(pid, out int, hangup func()) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		go func() { defer close(ch); waitBlocking(pid) }()
		return ch, func() {}
	}
	ready, pidfd := pidfdExited, -1
	if ep, ok := hangupSet(fd, out); ok {
		pidfd = fd // kept open while the set watches it: closing it would take it out of the set
		ready = func(int) bool { return epollReady(ep, pidfd, out, &hangup) }
		fd = ep
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	go func() {
		defer close(ch)
		defer f.Close()
		if pidfd >= 0 {
			defer unix.Close(pidfd)
		}
		rc, err := f.SyscallConn()
		if err == nil {
			err = rc.Read(func(fd uintptr) bool { return ready(int(fd)) })
		}
		if err != nil { // not pollable: wait the slow way
			waitBlocking(pid)
		}
	}()
	return ch, func() {}
}

// hangupSet returns a non-blocking epoll set holding pidfd (readable once the hook exits) and
// out (an error or hang-up once its reader has gone), or false when out is not a pipe or socket
// or the set cannot be made.
func hangupSet(pidfd, out int) (int, bool) {
	if out < 0 || !pipeOrSocket(out) {
		return -1, false
	}
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return -1, false
	}
	// EPOLLERR and EPOLLHUP are always reported; out asks for nothing else, so the writes the
	// recorder makes to it never wake the set.
	if unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, pidfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(pidfd)}) != nil ||
		unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, out, &unix.EpollEvent{Events: 0, Fd: int32(out)}) != nil ||
		unix.SetNonblock(ep, true) != nil {
		unix.Close(ep)
		return -1, false
	}
	return ep, true
}

// pipeOrSocket reports whether fd is a pipe or a socket, whose reader can hang up.
func pipeOrSocket(fd int) bool {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return false
	}
	return st.Mode&unix.S_IFMT == unix.S_IFIFO || st.Mode&unix.S_IFMT == unix.S_IFSOCK
}

// epollReady reads the events of the set ep: a hang-up of out calls *hangup (then out leaves the
// set, which would report it again and again); it reports whether the hook has exited.
func epollReady(ep, pidfd, out int, hangup *func()) bool {
	var evs [2]unix.EpollEvent
	for {
		n, err := unix.EpollWait(ep, evs[:], 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return true // the set is broken: say exited, and the caller reaps the hook as usual
		}
		exited := false
		for _, e := range evs[:n] {
			switch int(e.Fd) {
			case pidfd:
				exited = true
			case out:
				_ = unix.EpollCtl(ep, unix.EPOLL_CTL_DEL, out, nil)
				if *hangup != nil {
					(*hangup)()
					*hangup = nil
				}
			}
		}
		return exited
	}
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
