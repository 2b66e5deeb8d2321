//go:build unix

package hooklog

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lines decodes every line of the log at path; a line that is not one whole record fails.
func lines(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestAppendCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", ".agc")
	path := filepath.Join(dir, "hook-log.jsonl")
	for i := range 3 {
		if err := Append(context.Background(), path, sample(i)); err != nil {
			t.Fatal(err)
		}
	}
	recs := lines(t, path)
	if len(recs) != 3 || recs[2].ExitCode != 2 || string(recs[1].Input) != `{"n":1,"html":"<a & b>"}` {
		t.Errorf("records %+v", recs)
	}
	for p, want := range map[string]os.FileMode{dir: DirMode, path: FileMode} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
}

// TestAppendEndsCutLine: a line cut short by a crash is ended, so the next record parses.
func TestAppendEndsCutLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte(`{"time":"cut sh`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Append(context.Background(), path, sample(1)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	got := strings.Split(string(b), "\n")
	if len(got) != 3 || got[0] != `{"time":"cut sh` || !strings.HasPrefix(got[1], `{"time":"2026`) || got[2] != "" {
		t.Errorf("log %q", b)
	}
}

func TestAppendRefuses(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"symlink":          link,
		"fifo":             fifo,
		"folder":           dir,
		"parent is a file": filepath.Join(target, "log.jsonl"),
	} {
		done := make(chan error, 1)
		go func() { done <- Append(context.Background(), path, sample(1)) }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s: appended", name)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Append hangs", name)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("symlink target changed: %q", b)
	}
}

// TestAppendRefusesAimedLog: a hard link to another file, a symlinked log folder and (when the
// test runs as root, which can give a file away) a file of another user are refused, and the
// file they aim at is left as it was.
func TestAppendRefusesAimedLog(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.jsonl")
	if err := os.Link(target, hard); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	if err := os.Mkdir(project, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(project, ".agc")); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"hard link":        hard,
		"symlinked folder": filepath.Join(project, ".agc", "hook-log.jsonl"),
	}
	if os.Geteuid() == 0 {
		theirs := filepath.Join(dir, "theirs.jsonl")
		if err := os.WriteFile(theirs, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases["another user's file"] = theirs
	} else {
		t.Log("not root: the other-owner case needs a file of another user")
	}
	for name, path := range cases {
		if err := Append(context.Background(), path, sample(1)); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s: Append = %v, want refused", name, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("hard link target changed: %q", b)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("the symlinked folder's target got %d files", len(ents))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "theirs.jsonl")); err == nil && len(b) != 0 {
		t.Errorf("another user's file got %q", b)
	}
}

// TestAppendWaitsForLock: a held lock delays the write; a cancelled context gives up.
func TestAppendWaitsForLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := Append(ctx, path, sample(1)); err == nil || !strings.Contains(err.Error(), "could not lock") {
		t.Errorf("Append under a held lock: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- Append(context.Background(), path, sample(2)) }()
	time.Sleep(20 * time.Millisecond)
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if recs := lines(t, path); len(recs) != 1 || recs[0].ExitCode != 2 {
		t.Errorf("records %+v", recs)
	}
}

// TestAppendConcurrent: many writers with large records never interleave.
func TestAppendConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	const writers = 40
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			if err := Append(context.Background(), path, sample(100_000+i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	recs := lines(t, path)
	if len(recs) != writers {
		t.Fatalf("%d records, want %d", len(recs), writers)
	}
	for _, r := range recs {
		if len(r.Stdout) != r.ExitCode {
			t.Errorf("record %d has %d bytes of stdout", r.ExitCode, len(r.Stdout))
		}
	}
}
