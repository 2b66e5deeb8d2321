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

	"golang.org/x/sys/unix"

	"github.com/agc-sarif/agc-sarif/internal/safewrite"
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
// goes out in one write. See AppendLine for the files it refuses.
func Append(ctx context.Context, path string, rec Record) error {
	line, err := Encode(rec)
	if err != nil {
		return err
	}
	return AppendLine(ctx, path, line)
}

// AppendLine adds line (which ends in "\n") to the file at path under the same lock and
// checks as Append. It refuses, without writing, a path whose folder is a symlink, and a file
// that is a symlink, not a regular file (FIFO, device, folder), hard-linked elsewhere (link
// count > 1) or owned by another user: an agent must not aim the log at another file.
func AppendLine(ctx context.Context, path string, line []byte) error {
	f, err := openLog(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := lock(ctx, f); err != nil {
		return err
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return appendLine(f, line)
}

// openLog opens path for appending, relative to its folder opened without following a symlink.
func openLog(path string) (*os.File, error) {
	dir, base := filepath.Split(filepath.Clean(path))
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return nil, fmt.Errorf("could not create folder: %w", err)
	}
	dfd, err := unix.Open(filepath.Clean(dir), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return nil, fmt.Errorf("folder %s is a symlink or not a folder: refused", dir)
		}
		return nil, fmt.Errorf("could not open folder %s: %w", dir, err)
	}
	defer unix.Close(dfd)
	// O_NOFOLLOW: no symlink as the file itself. O_NONBLOCK: opening a FIFO must not hang (no
	// effect on regular files). O_RDWR: appendLine reads the last byte to end a cut line.
	flags := unix.O_RDWR | unix.O_APPEND | unix.O_CREAT | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC
	fd, err := unix.Openat(dfd, base, flags, uint32(FileMode))
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("%s is a symlink: refused", path)
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	if err := checkLogFile(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkLogFile refuses an open log that is not a regular file of ours with one link: the
// output files' rule (safewrite.Check), and the owner too, since the log is appended to in place.
func checkLogFile(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if err := safewrite.Check(fi, path); err != nil {
		return err
	}
	if !safewrite.Owned(fi) {
		return fmt.Errorf("%s is owned by user %d, not by us: refused", path, safewrite.Owner(fi))
	}
	return nil
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
