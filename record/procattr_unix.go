//go:build unix && !linux

package record

import "syscall"

// procAttr puts the hook in its own process group, so signals reach its children too.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
