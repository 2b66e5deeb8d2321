//go:build unix

package record

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestCatchSignals: once ready is closed, a forwarded signal sent to the process arrives on the
// channel (instead of ending the process), and stop ends the catching.
func TestCatchSignals(t *testing.T) {
	ch := make(chan os.Signal, 1)
	ready, stop := CatchSignals(ch)
	defer stop()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("never ready")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-ch:
		if s != syscall.SIGHUP {
			t.Errorf("got %v, want SIGHUP", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGHUP not delivered to the channel")
	}
}

// TestTeeGate: the hook's output reaches the caller (and the record) only once the gate
// opens (the signals are caught), and then in order.
func TestTeeGate(t *testing.T) {
	var out bytes.Buffer
	gate := make(chan struct{})
	tee := newTee(&out, 1<<10, gate)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		tee.Write([]byte("first "))
	}()
	select {
	case <-wrote:
		t.Fatal("written before the gate opened")
	case <-time.After(50 * time.Millisecond):
	}
	close(gate)
	<-wrote
	tee.Write([]byte("second"))
	if got := out.String(); got != "first second" {
		t.Errorf("caller got %q", got)
	}
	if head, _ := tee.result(); string(head) != "first second" {
		t.Errorf("kept %q", head)
	}
}
