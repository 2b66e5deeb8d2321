//go:build unix

package probe

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the guard in a process group of its own and makes the context's cancel kill
// that whole group, so a guard's children (a shell's sleep, a pipeline) die with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// reap kills what is left of the guard's process group after the guard itself has exited: a
// child it left behind in the background must not outlive the probe.
func reap(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
