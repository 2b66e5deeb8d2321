//go:build unix

package record

import (
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// drain copies the read end of one of the hook's output pipes to a tee. It ends at EOF; when
// the tee's caller has gone, found by a failed write or, for stdout, by its hang-up while the
// hook runs (hangUp), and the broken pipe is then handed on to the hook by closing the read
// end; or, once the hook has exited, when a read waits OutputGrace with nothing to read — a
// child left running holds the pipe open. A caller that reads slowly never cuts the output:
// only time spent waiting for the hook counts, not time spent writing to the caller.
type drain struct {
	r      *os.File
	exited atomic.Bool
	hung   atomic.Bool // the reader of the recorder's stdout has gone (hangUp)
	done   chan struct{}
}

// startDrain makes a pipe whose write end is for the hook and copies its read end to t.
func startDrain(t *tee) (*drain, *os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	d := &drain{r: r, done: make(chan struct{})}
	go d.run(t)
	return d, w, nil
}

func (d *drain) run(t *tee) {
	defer close(d.done)
	defer d.r.Close()
	buf := make([]byte, 32<<10)
	for {
		if d.hung.Load() {
			d.rest(t, buf)
			return
		}
		if d.exited.Load() {
			_ = d.r.SetReadDeadline(time.Now().Add(OutputGrace))
		}
		n, err := d.r.Read(buf)
		if n > 0 {
			if _, werr := t.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if d.hung.Load() {
				d.rest(t, buf)
			}
			return
		}
	}
}

// maxRest bounds what rest reads: more than any pipe holds by default, so a hook that keeps
// writing cannot keep the reads going.
const maxRest = 1 << 20

// rest keeps, for the record, what the hook wrote before the hang-up and is still in the pipe
// (the tee keeps it though its caller has gone); run closes the pipe after it.
func (d *drain) rest(t *tee, buf []byte) {
	rc, err := d.r.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { // Control, not Read: the read deadline has passed
		for total := 0; total < maxRest; {
			n, err := syscall.Read(int(fd), buf) // the pipe is non-blocking: EAGAIN once it is empty
			if n <= 0 || err != nil {
				return
			}
			total += n
			_, _ = t.Write(buf[:n])
		}
	})
}

// hangUp has the read end of the pipe closed, for the reader of the recorder's stdout has gone: the
// hook's next write meets the broken pipe (EPIPE, and SIGPIPE unless it ignores it) as it would
// without the recorder in between, rather than filling a pipe nobody will read.
// What the hook wrote before is still kept for the record (rest); the pipe is closed after.
func (d *drain) hangUp() {
	d.hung.Store(true)
	_ = d.r.SetReadDeadline(time.Unix(1, 0)) // ends the read under way at once
}

// hookExited starts the idle bound, for the read under way too.
func (d *drain) hookExited() {
	d.exited.Store(true)
	if !d.hung.Load() {
		_ = d.r.SetReadDeadline(time.Now().Add(OutputGrace))
	}
}
