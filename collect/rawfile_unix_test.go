//go:build unix

package collect

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRawFile: an input opened by openRaw reads what the file held when it was opened, by
// offset and again from the start, and says what a FIFO is without blocking on its open.
func TestRawFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "in.jsonl")
	want := []byte("{\"a\":1}\n{\"b\":2}\n")
	if err := os.WriteFile(name, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, info, err := openRaw(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !info.Mode().IsRegular() || info.Size() != int64(len(want)) {
		t.Fatalf("info: mode %v size %d, want a regular file of %d bytes", info.Mode(), info.Size(), len(want))
	}
	// Bytes written after the open are not read: the reader stops at the size it was told.
	g, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WriteString("{\"late\":3}\n"); err != nil {
		t.Fatal(err)
	}
	g.Close()
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadAll = %q, %v; want %q", got, err, want)
	}
	p := make([]byte, 7)
	if n, err := f.ReadAt(p, 8); err != nil || string(p[:n]) != `{"b":2}` {
		t.Fatalf("ReadAt(8) = %q, %v", p[:n], err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(f); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("after Seek(0): %q, %v", got, err)
	}
	// Its descriptor is handed over for mapping, and only for that.
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var handed uintptr
	if err := rc.Control(func(fd uintptr) { handed = fd }); err != nil || handed != uintptr(f.fd) {
		t.Fatalf("Control gave %d, %v; want %d", handed, err, f.fd)
	}
	if err := rc.Read(func(uintptr) bool { return true }); err == nil {
		t.Fatal("Read on the raw descriptor was not refused")
	}
	if _, _, err := openRaw(filepath.Join(dir, "missing")); !errorsIsNotExist(err) {
		t.Fatalf("missing file: %v, want a not-exist error", err)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	ff, info, err := openRaw(fifo) // a blocking open would hang here: no writer
	if err != nil {
		t.Fatal(err)
	}
	ff.Close()
	if info.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("fifo mode %v, want a named pipe", info.Mode())
	}
}

func errorsIsNotExist(err error) bool { return err != nil && os.IsNotExist(err) }
