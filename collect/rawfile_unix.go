//go:build unix

package collect

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
	"time"
)

// rawFile is an input file read through its descriptor, without an *os.File: os.NewFile asks the
// kernel for the descriptor's flags, and reading a small file to its end costs a read that finds
// nothing. Reading 10,000 one-response files, these were a tenth of the system calls. rawFile
// reads up to the size the file had when opened and then says io.EOF without asking.
type rawFile struct {
	fd   int
	name string
	off  int64 // the offset Read reads from next
	size int64 // the size fstat gave on opening; 0: read until the kernel says the end
}

// openRaw opens name to read and stats the open file. O_NONBLOCK keeps a FIFO or device from
// blocking the open (readFile refuses anything but a regular file before reading it); it changes
// nothing for a regular file.
func openRaw(name string) (*rawFile, fs.FileInfo, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		_ = syscall.Close(fd)
		return nil, nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	info := rawInfo{name: name, size: st.Size, mode: fileMode(uint32(st.Mode))}
	f := &rawFile{fd: fd, name: name}
	if info.mode.IsRegular() {
		f.size = st.Size
	}
	return f, info, nil
}

// fstat is syscall.Fstat, tried again when a signal interrupts it.
func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

// fileMode is the fs.FileMode of a stat mode: its type bits (the permissions are not used).
func fileMode(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

func (f *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if f.size > 0 {
		if f.off >= f.size {
			return 0, io.EOF
		}
		p = p[:min(int64(len(p)), f.size-f.off)]
	}
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		f.off += int64(n)
		return n, nil
	}
}

func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	done := 0
	for done < len(p) {
		n, err := syscall.Pread(f.fd, p[done:], off+int64(done))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return done, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return done, io.EOF
		}
		done += n
	}
	return done, nil
}

func (f *rawFile) Seek(offset int64, whence int) (int64, error) {
	off, err := syscall.Seek(f.fd, offset, whence)
	if err != nil {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: err}
	}
	f.off = off
	return off, nil
}

func (f *rawFile) Close() error { return syscall.Close(f.fd) }

// SyscallConn lets the readers map windows of a big file (inputs.Mappable).
func (f *rawFile) SyscallConn() (syscall.RawConn, error) { return rawConn(f.fd), nil }

// rawConn is a descriptor as a syscall.RawConn, for mapping only: Control hands it over; Read and
// Write, which would wait on the runtime's poller for a descriptor it never saw, are refused.
type rawConn int

func (c rawConn) Control(fn func(fd uintptr)) error { fn(uintptr(c)); return nil }
func (c rawConn) Read(func(fd uintptr) bool) error  { return errors.ErrUnsupported }
func (c rawConn) Write(func(fd uintptr) bool) error { return errors.ErrUnsupported }

// rawInfo is the fs.FileInfo of an opened input: what readFile looks at.
type rawInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i rawInfo) Name() string       { return i.name }
func (i rawInfo) Size() int64        { return i.size }
func (i rawInfo) Mode() fs.FileMode  { return i.mode }
func (i rawInfo) ModTime() time.Time { return time.Time{} }
func (i rawInfo) IsDir() bool        { return i.mode.IsDir() }
func (i rawInfo) Sys() any           { return nil }

var _ inputFile = (*rawFile)(nil)
