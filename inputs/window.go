package inputs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"syscall"
)

// A part of a big file read in parallel (chunks.go) is read through windows of the file: bounded
// stretches of its bytes, memory-mapped when the file allows it (window_mmap.go), else read with
// one large pread each. Lines that fit in a window reach the line reader without a copy (a
// bufio.Reader copies every byte from the kernel into its buffer, and the chunk finder did so a
// second time); at most one window per reader is held, so memory stays bounded whatever the
// file's size. A line longer than a window is handed out in window-sized pieces, as bufio hands
// out a line longer than its buffer.

// defaultWindow is how many bytes of a file a window reader holds at once: more than the
// longest line a windowed reader holds whole (ElideWindow), so that such a line is never copied.
const defaultWindow = 2 << 20

// sliceReader is what the line reader needs of its source: bufio.Reader.ReadSlice.
type sliceReader interface {
	ReadSlice(delim byte) ([]byte, error)
}

// windowReader reads the bytes [pos, end) of a file through one window at a time. It is a
// sliceReader (and an io.Reader); the slices it returns are valid until its next call.
type windowReader struct {
	at     io.ReaderAt
	mapper *mapper // nil: windows are read into buf
	size   int     // bytes a window holds
	buf    []byte  // the window when read, not mapped
	mapped []byte  // the current mapping, released when the window moves
	win    []byte  // the window's bytes: those of the file from winOff
	winOff int64
	pos    int64
	end    int64
	clean  int64  // the bytes from pos up to clean hold no delimiter (searched already)
	known  []span // lines ahead whose end is known (their newline the last byte): not searched
}

// Mappable is an open file whose descriptor windows may be mapped from (an *os.File is one).
type Mappable interface {
	SyscallConn() (syscall.RawConn, error)
}

// newWindowReader reads [start, end) of at with windows of size bytes (0: defaultWindow),
// mapped when at is a file that can be mapped.
func newWindowReader(at io.ReaderAt, start, end int64, size int) *windowReader {
	if size < 1 {
		size = defaultWindow
	}
	w := &windowReader{at: at, size: size, pos: start, end: end, winOff: -1}
	if f, ok := at.(Mappable); ok {
		w.mapper = newMapper(f)
	}
	return w
}

// load makes the window start at off, or as close before it as mapping allows.
func (w *windowReader) load(off int64) error {
	w.release()
	n := int(min(int64(w.size), w.end-off))
	if w.mapper != nil {
		b, base, err := w.mapper.window(off, n)
		if err == nil {
			w.mapped, w.win, w.winOff = b, b, base
			return nil
		}
		w.mapper = nil // read it instead, from now on
	}
	if cap(w.buf) < n {
		w.buf = make([]byte, n)
	}
	k, err := w.at.ReadAt(w.buf[:n], off)
	if k < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF // the file shrank while it was read
		}
		return fmt.Errorf("reading at byte %d: %w", off+int64(k), err)
	}
	w.win, w.winOff = w.buf[:n], off
	return nil
}

// release unmaps the current window, if mapped.
func (w *windowReader) release() {
	if w.mapped != nil {
		w.mapper.unmap(w.mapped)
	}
	w.mapped, w.win = nil, nil
}

// avail is the window's bytes from pos on, up to end.
func (w *windowReader) avail() []byte {
	lo := w.pos - w.winOff
	if w.win == nil || lo < 0 || lo >= int64(len(w.win)) {
		return nil
	}
	return w.win[lo:min(int64(len(w.win)), w.end-w.winOff)]
}

// fill makes the window hold pos unless it does, and returns avail.
func (w *windowReader) fill() ([]byte, error) {
	if b := w.avail(); len(b) > 0 {
		return b, nil
	}
	if err := w.load(w.pos); err != nil {
		return nil, err
	}
	return w.avail(), nil
}

// ReadSlice reads up to and including the next delim, as bufio.Reader.ReadSlice does: without
// delim in a window's worth of bytes, it returns them with bufio.ErrBufferFull; at the end
// without delim, what is left with io.EOF.
func (w *windowReader) ReadSlice(delim byte) ([]byte, error) {
	if w.pos >= w.end {
		return nil, io.EOF
	}
	for len(w.known) > 0 && w.known[0].end <= w.pos {
		w.known = w.known[1:]
	}
	if len(w.known) > 0 && w.known[0].start <= w.pos && w.known[0].end <= w.end {
		return w.knownSlice()
	}
	for {
		b, err := w.fill()
		if err != nil {
			return nil, err
		}
		from := max(w.clean-w.pos, 0)
		if i := bytes.IndexByte(b[from:], delim); i >= 0 {
			w.pos += from + int64(i) + 1
			return b[:from+int64(i)+1], nil
		}
		w.clean = w.pos + int64(len(b))
		if w.winOff+int64(len(w.win)) >= w.end {
			w.pos = w.end
			return b, io.EOF
		}
		b, more, err := w.slide(b)
		if err != nil {
			return nil, err
		}
		if more {
			continue
		}
		w.pos += int64(len(b))
		return b, bufio.ErrBufferFull
	}
}

// knownSlice is ReadSlice inside a line whose end is known: no byte of it is searched.
func (w *windowReader) knownSlice() ([]byte, error) {
	end := w.known[0].end
	for {
		b, err := w.fill()
		if err != nil {
			return nil, err
		}
		if n := end - w.pos; n <= int64(len(b)) {
			w.pos = end
			w.known = w.known[1:]
			return b[:n], nil
		}
		b, more, err := w.slide(b)
		if err != nil {
			return nil, err
		}
		if more {
			continue
		}
		w.pos += int64(len(b))
		return b, bufio.ErrBufferFull
	}
}

// slide moves the window to pos when b, the window's bytes from pos on, are fewer than half a
// window: the line began late in it, and is then read whole. It reports whether the window now
// holds more bytes from pos than b; else it returns the bytes from pos to hand out, which are
// those of the window held now (b's may be unmapped).
func (w *windowReader) slide(b []byte) ([]byte, bool, error) {
	if len(b) >= w.size/2 {
		return b, false, nil
	}
	if err := w.load(w.pos); err != nil {
		return nil, false, err
	}
	now := w.avail()
	return now, len(now) > len(b), nil
}

// Read reads the next bytes, up to len(p).
func (w *windowReader) Read(p []byte) (int, error) {
	if w.pos >= w.end {
		return 0, io.EOF
	}
	b, err := w.fill()
	if err != nil {
		return 0, err
	}
	n := copy(p, b)
	w.pos += int64(n)
	return n, nil
}

// peek is the byte at pos; false at the end.
func (w *windowReader) peek() (byte, bool, error) {
	if w.pos >= w.end {
		return 0, false, nil
	}
	b, err := w.fill()
	if err != nil {
		return 0, false, err
	}
	return b[0], true, nil
}

// errFileChanged reports a fault reading a mapped file: it was cut shorter while it was read.
var errFileChanged = errors.New("the file changed while it was read (cut shorter?)")

// guardFaults runs read, turning a fault on a mapped window (the file shrank under the mapping)
// into errFileChanged instead of a crash. read must touch mapped memory in this goroutine only.
func guardFaults(read func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(interface{ Addr() uintptr }); !ok {
				panic(r)
			}
			err = errFileChanged
		}
	}()
	return read()
}
