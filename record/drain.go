//go:build unix

package record

import (
	"os"
	"sync/atomic"
	"time"
)

// drain copies the read end of one of the hook's output pipes to a tee. It ends at EOF; when
// the tee's caller has gone (the broken pipe is then handed on to the hook by closing the read
// end); or, once the hook has exited, when a read waits OutputGrace with nothing to read — a
// child left running holds the pipe open. A caller that reads slowly never cuts the output:
// only time spent waiting for the hook counts, not time spent writing to the caller.
type drain struct {
	r      *os.File
	exited atomic.Bool
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
			return
		}
	}
}

// hookExited starts the idle bound, for the read under way too.
func (d *drain) hookExited() {
	d.exited.Store(true)
	_ = d.r.SetReadDeadline(time.Now().Add(OutputGrace))
}
