//go:build unix

package hooklog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// File modes of the hook log. Records hold tool inputs (commands, file contents) and hook
// output, which can carry secrets, so only the user who runs the agent may read them.
const (
	DirMode  os.FileMode = 0o700
	FileMode os.FileMode = 0o600
)

// LockTimeout is how long Append waits for another writer's lock before giving up.
// Writers hold the lock only for one write, so a longer wait means a stuck writer; the hook has
// answered by then, but the runtime still waits for the recorder to exit.
const LockTimeout = 2 * time.Second

// lockPoll is how often Append retries a lock held by another writer.
const lockPoll = 2 * time.Millisecond

// Append adds rec as one line to the hook log at path, creating the file (and its folder)
// when missing. Concurrent writers never interleave: the file is locked (flock) and the line
// goes out in one write. A symlink, FIFO or other non-regular file at path is refused.
func Append(ctx context.Context, path string, rec Record) error {
	line, err := Encode(rec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), DirMode); err != nil {
		return fmt.Errorf("could not create folder: %w", err)
	}
	// O_NOFOLLOW: an agent must not point the log at another file (~/.bashrc) with a symlink.
	// O_NONBLOCK: opening a FIFO must not hang; it has no effect on regular files.
	// O_RDWR: appendLine reads the last byte to end a line cut short by a crash.
	flags := os.O_RDWR | os.O_APPEND | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	f, err := os.OpenFile(path, flags, FileMode)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if err := lock(ctx, f); err != nil {
		return err
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return appendLine(f, line)
}

// lock takes an exclusive flock on f, polling until LockTimeout or ctx ends.
func lock(ctx context.Context, f *os.File) error {
	deadline := time.Now().Add(LockTimeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return fmt.Errorf("could not lock: %w", err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("could not lock within %s: another writer holds it", LockTimeout)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("could not lock: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// appendLine writes line at the end of the locked file f in one write. A line cut short by an
// earlier crash is ended first, so the new record stays parseable; a failed write is undone.
func appendLine(f *os.File, line []byte) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err == nil && last[0] != '\n' {
			// A separate write is safe under the lock and spares copying a large line.
			if _, err := f.Write([]byte{'\n'}); err != nil {
				_ = f.Truncate(size)
				return err
			}
		}
	}
	if _, err := f.Write(line); err != nil {
		// Leave no half line behind (disk full): cut back to where this write began.
		_ = f.Truncate(size)
		return err
	}
	return nil
}
