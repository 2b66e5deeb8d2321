//go:build linux

package inputs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWindowFileShrinks: a mapped file cut shorter while it is read gives errFileChanged, not a
// crash of the process.
func TestWindowFileShrinks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	data := append(bytes.Repeat([]byte("x"), 1<<16), '\n')
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wr := newWindowReader(f, 0, int64(len(data)), 0)
	defer wr.release()
	err = guardFaults(func() error {
		if _, err := wr.fill(); err != nil {
			return err
		}
		if wr.mapped == nil {
			t.Skip("the file was not mapped")
		}
		if err := os.Truncate(p, 0); err != nil {
			t.Fatal(err)
		}
		_, err := wr.ReadSlice('\n')
		return err
	})
	if !errors.Is(err, errFileChanged) {
		t.Fatalf("reading a file cut shorter: %v, want %v", err, errFileChanged)
	}
}
