//go:build unix

package safewrite

import (
	"io/fs"
	"os"
	"syscall"
)

// links is fi's hard-link count (1 when the system does not say).
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// Owned reports whether the file fi describes belongs to the user running us.
func Owned(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// Owner is the user id owning the file fi describes, or -1 when the system does not say.
func Owner(fi fs.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}
