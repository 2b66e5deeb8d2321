//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package inputs

import (
	"os"
	"syscall"
)

// mapper maps windows of a file read-only: the page cache's pages themselves, no copy. Pages of a
// mapping count in the process's resident memory while mapped, so a reader keeps one window.
type mapper struct {
	f    Mappable
	page int64
}

func newMapper(f Mappable) *mapper { return &mapper{f: f, page: int64(os.Getpagesize())} }

// window maps the n bytes of the file from off on. It returns the mapping, which starts at the
// page boundary base at or before off.
func (m *mapper) window(off int64, n int) ([]byte, int64, error) {
	base := off - off%m.page
	conn, err := m.f.SyscallConn()
	if err != nil {
		return nil, 0, err
	}
	var b []byte
	var merr error
	err = conn.Control(func(fd uintptr) {
		b, merr = syscall.Mmap(int(fd), base, int(off-base)+n, syscall.PROT_READ, syscall.MAP_SHARED)
	})
	if err == nil {
		err = merr
	}
	if err != nil {
		return nil, 0, err
	}
	return b, base, nil
}

// unmap releases a mapping window returned.
func (m *mapper) unmap(b []byte) { _ = syscall.Munmap(b) }
