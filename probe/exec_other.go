//go:build !unix

package probe

import "os/exec"

// ownGroup: without process groups only the guard itself is killed at the timeout.
func ownGroup(*exec.Cmd) {}

// reap: without process groups nothing is left to kill.
func reap(*exec.Cmd) {}
