package record

import "golang.org/x/sys/unix"

// waitExitable blocks until the process pid has exited, without reaping it (waitid with
// WNOWAIT), and reports that it did.
func waitExitable(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err == nil
		}
	}
}
