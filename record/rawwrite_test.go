//go:build unix

package record

import (
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestRawWriterWaitsOnFullPipe: stdout is a non-blocking pipe (os.Pipe's) whose reader is slow.
// A write far beyond the pipe's buffer meets EAGAIN, waits in the poller for room and still
// delivers every byte, in order, with no error.
func TestRawWriterWaitsOnFullPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := noSigpipe(w)
	if _, ok := out.(rawWriter); !ok {
		t.Fatalf("noSigpipe(*os.File) = %T, want rawWriter", out)
	}
	want := make([]byte, 1<<20)
	for i := range want {
		want[i] = byte(i * 31)
	}
	got := make(chan []byte)
	go func() {
		time.Sleep(50 * time.Millisecond) // let the pipe fill
		b, _ := io.ReadAll(r)
		got <- b
	}()
	n, err := out.Write(want)
	w.Close()
	if n != len(want) || err != nil {
		t.Errorf("Write = %d, %v; want %d, nil", n, err, len(want))
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("reader got %d bytes, not the %d written", len(b), len(want))
	}
}

// TestRawWriterBrokenPipe: a write to a pipe with no reader returns EPIPE (the test process
// would die of SIGPIPE only for descriptors 1 and 2, so this shows the error path, not the
// signal; TestBinaryReaderGone shows the signal).
func TestRawWriterBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	if _, err := noSigpipe(w).Write([]byte("x")); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("Write error %v, want EPIPE", err)
	}
}
