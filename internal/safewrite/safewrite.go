// Package safewrite writes output files whole and never through a link: each file is written
// beside its place and renamed into it, so a symlink or hard link planted at an output's path,
// or a symlinked folder leading out of the workspace, never gets another file overwritten.
package safewrite

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Mode is the mode of a new output file: readable by later steps (the action's container runs
// as root, later steps as the runner user).
const Mode os.FileMode = 0o644

// WriteFile writes data to path as Write does.
func WriteFile(workspace, path string, data []byte) error {
	return Write(workspace, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write writes what fill writes to path: to a temporary file in path's folder, then renamed
// into place, so a reader never sees half a file. It refuses (writing nothing) a path whose last
// component is a symlink, not a regular file, or a file with more than one hard link, and, when
// path lies inside workspace (when workspace is not ""), a path whose folders lead outside the
// workspace through a symlink. Missing folders are created. A plain file the user owns keeps its
// mode when replaced; any other file gets Mode. Relative paths are taken against the working
// folder.
func Write(workspace, path string, fill func(io.Writer) error) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	dir, base := filepath.Split(abs)
	if base == "" || base == "." || base == ".." {
		return fmt.Errorf("could not write %s: not a file name", path)
	}
	root, err := openFolder(workspace, filepath.Clean(dir), path)
	if err != nil {
		return err
	}
	defer root.Close()
	mode, err := modeFor(root, base, path)
	if err != nil {
		return err
	}
	tmp, f, err := createTemp(root, base)
	if err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	renamed := false
	defer func() {
		if !renamed {
			_ = f.Close() // a second Close after the one below only fails
			_ = root.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := fill(bw); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil { // explicit: the umask does not decide it
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := root.Rename(tmp, base); err != nil {
		return fmt.Errorf("could not write %s: %w", path, err)
	}
	renamed = true
	return nil
}

// openFolder opens dir, the output's folder, creating it when missing. Inside workspace it is
// opened through an os.Root at the workspace, which refuses a symlink leading out of it.
func openFolder(workspace, dir, path string) (*os.Root, error) {
	if rel, ok := inside(workspace, dir); ok {
		ws, err := os.OpenRoot(workspace)
		if err != nil {
			return nil, fmt.Errorf("could not write %s: %w", path, err)
		}
		defer ws.Close()
		if rel != "." {
			if err := ws.MkdirAll(rel, 0o755); err != nil {
				return resolved(workspace, dir, path, err)
			}
		}
		r, err := ws.OpenRoot(rel)
		if err != nil {
			return resolved(workspace, dir, path, err)
		}
		return r, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("could not write %s: %w", path, err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("could not write %s: %w", path, err)
	}
	return r, nil
}

// resolved opens dir when the workspace's os.Root refused it (err) for a symlink it does not
// follow, an absolute one, yet dir resolves inside the workspace; else it words the refusal.
func resolved(workspace, dir, path string, err error) (*os.Root, error) {
	if !strings.Contains(err.Error(), "escapes from parent") {
		return nil, fmt.Errorf("could not write %s: %w", path, err)
	}
	ws, werr := filepath.EvalSymlinks(workspace)
	real, derr := filepath.EvalSymlinks(dir)
	if werr == nil && derr == nil {
		if _, ok := inside(ws, real); ok {
			if r, err := os.OpenRoot(real); err == nil {
				return r, nil
			}
		}
	}
	return nil, fmt.Errorf("could not write %s: a folder on the path %s is a symlink leading outside the workspace: refused", path, dir)
}

// inside reports whether dir lies lexically inside workspace, and its path relative to it.
func inside(workspace, dir string) (string, bool) {
	if workspace == "" {
		return "", false
	}
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(ws, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// modeFor is the mode the written file gets: the present file's when it is a plain file we own,
// else Mode. A present file that is not one to replace is refused (see Check).
func modeFor(root *os.Root, base, path string) (os.FileMode, error) {
	fi, err := root.Lstat(base)
	if errors.Is(err, fs.ErrNotExist) {
		return Mode, nil
	}
	if err != nil {
		return 0, fmt.Errorf("could not write %s: %w", path, err)
	}
	if err := Check(fi, path); err != nil {
		return 0, err
	}
	if Owned(fi) {
		return fi.Mode().Perm(), nil
	}
	return Mode, nil
}

// Check refuses a file that is not to be written or replaced: a symlink, not a regular file, or
// a regular file with more than one hard link. fi is the file's Lstat (or its open Stat).
func Check(fi fs.FileInfo, path string) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symlink: refused", path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file: refused", path)
	}
	if n := links(fi); n > 1 {
		return fmt.Errorf("%s has %d hard links: refused", path, n)
	}
	return nil
}

// createTemp creates a new file beside base in root, readable and writable by us only.
func createTemp(root *os.Root, base string) (string, *os.File, error) {
	for range 10 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		name := "." + base + "." + hex.EncodeToString(b[:]) + ".tmp"
		f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, errors.New("no free temporary name")
}
