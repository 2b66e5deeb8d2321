package safewrite

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteRefusesLinks: an output planted as a symlink, a hard link or behind a symlinked folder
// leading out of the workspace is refused and the file it leads to is untouched; a plain file is
// replaced, keeping its mode; a symlinked folder inside the workspace is followed.
func TestWriteRefusesLinks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, ws, outside string) string // returns the output path
		refused string                                        // in the error; "" when written
	}{
		{"new file", func(t *testing.T, ws, _ string) string { return filepath.Join(ws, "out", "new.sarif") }, ""},
		{"symlink", func(t *testing.T, ws, outside string) string {
			p := filepath.Join(ws, "agc.sarif")
			must(t, os.Symlink(filepath.Join(outside, "victim"), p))
			return p
		}, "is a symlink: refused"},
		{"dangling symlink", func(t *testing.T, ws, outside string) string {
			p := filepath.Join(ws, "agc.sarif")
			must(t, os.Symlink(filepath.Join(outside, "nothing-yet"), p))
			return p
		}, "is a symlink: refused"},
		{"hard link", func(t *testing.T, ws, outside string) string {
			p := filepath.Join(ws, "agc.sarif")
			must(t, os.Link(filepath.Join(outside, "victim"), p))
			return p
		}, "has 2 hard links: refused"},
		{"symlinked folder", func(t *testing.T, ws, outside string) string {
			must(t, os.Symlink(outside, filepath.Join(ws, "preview")))
			return filepath.Join(ws, "preview", "victim")
		}, "symlink leading outside the workspace: refused"},
		{"symlinked folder deeper", func(t *testing.T, ws, outside string) string {
			must(t, os.MkdirAll(filepath.Join(ws, "a"), 0o755))
			must(t, os.Symlink(outside, filepath.Join(ws, "a", "b")))
			return filepath.Join(ws, "a", "b", "c", "victim")
		}, "symlink leading outside the workspace: refused"},
		{"relative symlinked folder", func(t *testing.T, ws, outside string) string {
			rel, _ := filepath.Rel(ws, outside)
			must(t, os.Symlink(rel, filepath.Join(ws, "up")))
			return filepath.Join(ws, "up", "victim")
		}, "symlink leading outside the workspace: refused"},
		{"folder is a file", func(t *testing.T, ws, _ string) string {
			must(t, os.WriteFile(filepath.Join(ws, "f"), nil, 0o644))
			return filepath.Join(ws, "f", "x")
		}, "file exists"},
		{"a folder", func(t *testing.T, ws, _ string) string {
			must(t, os.Mkdir(filepath.Join(ws, "d"), 0o755))
			return filepath.Join(ws, "d")
		}, "not a regular file: refused"},
		{"symlinked folder inside", func(t *testing.T, ws, _ string) string {
			must(t, os.Mkdir(filepath.Join(ws, "real"), 0o755))
			must(t, os.Symlink("real", filepath.Join(ws, "alias")))
			return filepath.Join(ws, "alias", "x.sarif")
		}, ""},
		{"absolute symlinked folder inside", func(t *testing.T, ws, _ string) string {
			must(t, os.Mkdir(filepath.Join(ws, "real"), 0o755))
			must(t, os.Symlink(filepath.Join(ws, "real"), filepath.Join(ws, "alias")))
			return filepath.Join(ws, "alias", "x.sarif")
		}, ""},
		{"outside the workspace", func(t *testing.T, _, outside string) string { return filepath.Join(outside, "mine.sarif") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, outside := t.TempDir(), t.TempDir()
			victim := filepath.Join(outside, "victim")
			must(t, os.WriteFile(victim, []byte("precious"), 0o600))
			p := tc.plant(t, ws, outside)
			err := WriteFile(ws, p, []byte("output"))
			if b, _ := os.ReadFile(victim); string(b) != "precious" {
				t.Errorf("the file outside was changed: %q", b)
			}
			if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o600 {
				t.Errorf("the file outside has mode %v", fi.Mode().Perm())
			}
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("err %v, want %q", err, tc.refused)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := os.ReadFile(p); string(b) != "output" {
					t.Errorf("wrote %q", b)
				}
				if fi, _ := os.Lstat(p); fi.Mode().Perm() != Mode {
					t.Errorf("new file has mode %v, want %v", fi.Mode().Perm(), Mode)
				}
			}
			checkNoTemp(t, ws)
			checkNoTemp(t, outside)
		})
	}
}

// TestWriteReplaces: a plain file of ours is replaced whole and keeps its mode; a failed fill
// leaves it as it was and no temporary file behind.
func TestWriteReplaces(t *testing.T) {
	ws := t.TempDir()
	p := filepath.Join(ws, "agc.sarif")
	must(t, os.WriteFile(p, []byte(strings.Repeat("old ", 100)), 0o600))
	must(t, WriteFile(ws, p, []byte("new")))
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("got %q mode %v, want \"new\" mode 0600", b, fi.Mode().Perm())
	}
	boom := errors.New("boom")
	err := Write(ws, p, func(w io.Writer) error { _, _ = io.WriteString(w, "half"); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("a failed write changed the file: %q", b)
	}
	checkNoTemp(t, ws)
}

func checkNoTemp(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
