package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Run is what one run of the guard did.
type Run struct {
	Exit     int           // exit status; -1 when a signal ended it
	Stdout   []byte        // at most maxOutput bytes
	Stderr   []byte        // at most maxOutput bytes
	Duration time.Duration // from start to exit (or kill)
	TimedOut bool          // killed at the timeout, with its process group
	Timeout  time.Duration // the timeout the run had
}

// maxOutput bounds what is kept of each of the guard's output streams.
const maxOutput = 4 << 20

// Spec is how to run the guard once.
type Spec struct {
	Argv    []string
	Dir     string   // the working folder
	Env     []string // the whole environment
	Stdin   []byte
	Closed  bool // stdin is closed at once: the write end is shut before a byte is written
	Timeout time.Duration
}

// Exec runs the guard once as s says and kills its whole process group at s.Timeout. An error
// means the guard could not be started at all.
func Exec(ctx context.Context, s Spec) (Run, error) {
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	stdout, stderr := &capped{max: maxOutput}, &capped{max: maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	var in *os.File
	if s.Closed {
		r, w, err := os.Pipe()
		if err != nil {
			return Run{}, fmt.Errorf("probe: stdin pipe: %w", err)
		}
		_ = w.Close()
		in = r
		cmd.Stdin = r
	} else {
		cmd.Stdin = bytes.NewReader(s.Stdin)
	}
	ownGroup(cmd)
	cmd.WaitDelay = time.Second // a grandchild that keeps the pipes open does not hold probe
	start := time.Now()
	err := cmd.Start()
	if in != nil {
		_ = in.Close()
	}
	if err != nil {
		return Run{}, fmt.Errorf("could not start %s: %w", s.Argv[0], err)
	}
	err = cmd.Wait()
	reap(cmd)
	r := Run{Duration: time.Since(start), Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Timeout: s.Timeout}
	r.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	r.Exit = cmd.ProcessState.ExitCode()
	if err != nil && cmd.ProcessState == nil {
		return r, fmt.Errorf("running %s: %w", s.Argv[0], err)
	}
	return r, nil
}

// capped keeps the first max bytes written to it and takes the rest without keeping it.
type capped struct {
	buf bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) Bytes() []byte { return c.buf.Bytes() }

var _ io.Writer = (*capped)(nil)
