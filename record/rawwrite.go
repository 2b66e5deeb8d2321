//go:build unix

package record

import (
	"io"
	"os"
	"syscall"
)

// rawWriter writes to a file through its raw descriptor. os.File's Write ends the whole
// process with SIGPIPE when a write to descriptor 1 or 2 meets a broken pipe, unless SIGPIPE
// is caught with os/signal (which costs a thread and a handshake per signal: README:
// Overhead). Written this way the write fails with EPIPE instead, which the tee hands on to
// the hook, so a caller that stops reading never kills the recorder before the record is
// written, and the hook meets the broken pipe exactly as it would on its own.
type rawWriter struct{ rc syscall.RawConn }

// noSigpipe returns w, written through its raw descriptor when it is an *os.File.
func noSigpipe(w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok {
		return w
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return w
	}
	return rawWriter{rc}
}

// Write implements io.Writer.
func (w rawWriter) Write(p []byte) (int, error) {
	n := 0
	var werr error
	err := w.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			m, err := syscall.Write(int(fd), p[n:])
			if m > 0 {
				n += m
			}
			switch {
			case err == syscall.EINTR:
			case err == syscall.EAGAIN:
				return false // wait until the descriptor can take more
			case err != nil:
				werr = err
				return true
			case m == 0:
				werr = io.ErrShortWrite
				return true
			}
		}
		return true
	})
	if werr == nil {
		werr = err
	}
	return n, werr
}

// descriptor returns the descriptor of w when it is an *os.File, else -1. It does not change
// the file's blocking mode, as os.File.Fd would.
func descriptor(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return -1
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	if rc.Control(func(u uintptr) { fd = int(u) }) != nil {
		return -1
	}
	return fd
}
