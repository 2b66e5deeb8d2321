package record

import "syscall"

// procAttr puts the hook in its own process group (so signals reach its children too) and
// kills it if the recorder dies first.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
