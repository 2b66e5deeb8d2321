//go:build unix

package record

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while a run writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls until cond holds or fails the test after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestRunForwardsSignals: a signal the recorder receives reaches the hook's process group;
// the output streamed before it is passed on while the hook still runs.
func TestRunForwardsSignals(t *testing.T) {
	tests := []struct {
		name        string
		sig         syscall.Signal
		hook        string
		wantStatus  int
		wantSignal  string
		wantTimeout bool
		wantStdout  string
	}{
		{"SIGTERM kills", syscall.SIGTERM, `echo ready; sleep 30; echo never`, 143, "terminated", true, "ready\n"},
		{"SIGINT kills", syscall.SIGINT, `trap - INT; echo ready; exec sleep 30`, 130, "interrupt", false, "ready\n"},
		{"SIGHUP kills", syscall.SIGHUP, `echo ready; sleep 30`, 129, "hangup", false, "ready\n"},
		{"hook handles SIGTERM", syscall.SIGTERM, `trap 'echo bye; exit 0' TERM; echo ready; sleep 30 & wait`, 0, "", true, "ready\nbye\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			signals := make(chan os.Signal, 1)
			stdout := &syncBuffer{}
			done := make(chan int, 1)
			log := filepath.Join(t.TempDir(), "log.jsonl")
			rec := make(chan string, 1)
			start := time.Now()
			go func() {
				code, r := Run(context.Background(), Options{
					Command: []string{"sh", "-c", tc.hook}, Stdin: strings.NewReader(""), Stdout: stdout,
					Stderr: io.Discard, Log: log, Signals: signals,
				})
				rec <- r.Signal + "|" + r.Stdout + "|" + strconv.FormatBool(r.TimedOut) + "|" + strconv.Itoa(r.ExitCode)
				done <- code
			}()
			waitFor(t, "ready", func() bool { return strings.HasPrefix(stdout.String(), "ready\n") })
			signals <- tc.sig
			code := <-done
			if code != tc.wantStatus {
				t.Errorf("status %d, want %d", code, tc.wantStatus)
			}
			wantExit := -1
			if tc.wantSignal == "" {
				wantExit = tc.wantStatus
			}
			want := tc.wantSignal + "|" + tc.wantStdout + "|" + strconv.FormatBool(tc.wantTimeout) + "|" + strconv.Itoa(wantExit)
			if got := <-rec; got != want {
				t.Errorf("record signal|stdout|timed_out|exit_code = %q, want %q", got, want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v: the signal did not reach the whole process group", d)
			}
		})
	}
}

// TestRunContextCancel: a cancelled context with no signal behind it ends the hook with SIGTERM.
func TestRunContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	code, r := Run(ctx, Options{
		Command: []string{"sleep", "30"}, Log: filepath.Join(t.TempDir(), "log.jsonl"),
	})
	if code != 143 || r.Signal != "terminated" || !r.TimedOut || r.DurationMS > 5000 {
		t.Errorf("status %d record %+v", code, r)
	}
}

// TestRunStdinNotRead: a hook that ignores its stdin still has all of it logged.
func TestRunStdinNotRead(t *testing.T) {
	input := `{"pad":"` + strings.Repeat("p", 1<<20) + `"}`
	code, r := Run(context.Background(), Options{
		Command: []string{"true"}, Stdin: strings.NewReader(input), Log: filepath.Join(t.TempDir(), "log.jsonl"),
	})
	if code != 0 || string(r.Input) != input {
		t.Errorf("status %d, input of %d bytes logged, want %d", code, len(r.Input), len(input))
	}
}

// TestRunOutputHeldOpen: a background child holding stdout open does not hang the recorder.
func TestRunOutputHeldOpen(t *testing.T) {
	start := time.Now()
	code, r := Run(context.Background(), Options{
		Command: []string{"sh", "-c", "echo hi; sleep 4 & exit 3"}, Log: filepath.Join(t.TempDir(), "log.jsonl"),
	})
	if code != 3 || r.Stdout != "hi\n" || time.Since(start) > 3*time.Second {
		t.Errorf("status %d stdout %q after %v", code, r.Stdout, time.Since(start))
	}
}

// TestRunConcurrent: Run from many goroutines of one process appends whole lines too.
func TestRunConcurrent(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	const runs = 20
	var wg sync.WaitGroup
	for i := range runs {
		wg.Go(func() {
			input := `{"n":` + strconv.Itoa(i) + `,"pad":"` + strings.Repeat("p", 128<<10) + `"}`
			if code, _ := Run(context.Background(), Options{
				Command: []string{"cat"}, Stdin: strings.NewReader(input), Stdout: io.Discard, Log: log,
			}); code != 0 {
				t.Errorf("run %d: status %d", i, code)
			}
		})
	}
	wg.Wait()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != runs {
		t.Fatalf("%d lines, want %d", len(lines), runs)
	}
	for n, line := range lines {
		if !json.Valid([]byte(line)) {
			t.Fatalf("%s:%d: not one whole record", log, n+1)
		}
	}
}

// TestRunHoldsOutputUntilSignalsReady: Run passes SignalsReady to both tees, so none of the
// hook's stdout or stderr reaches the caller before it is closed, and all of it does after.
func TestRunHoldsOutputUntilSignalsReady(t *testing.T) {
	var stdout, stderr syncBuffer
	ready := make(chan struct{})
	done := make(chan int)
	go func() {
		code, _ := Run(context.Background(), Options{
			Command:      []string{"sh", "-c", "echo out; echo err >&2"},
			Stdout:       &stdout,
			Stderr:       &stderr,
			Log:          filepath.Join(t.TempDir(), "log.jsonl"),
			SignalsReady: ready,
		})
		done <- code
	}()
	time.Sleep(200 * time.Millisecond) // the hook has long written and exited
	if o, e := stdout.String(), stderr.String(); o != "" || e != "" {
		t.Errorf("before SignalsReady: stdout %q stderr %q reached the caller", o, e)
	}
	close(ready)
	if code := <-done; code != 0 {
		t.Errorf("status %d", code)
	}
	if o, e := stdout.String(), stderr.String(); o != "out\n" || e != "err\n" {
		t.Errorf("after SignalsReady: stdout %q stderr %q", o, e)
	}
}

// TestRunTimeoutSignalAfterHookDied: a runtime that ends a timed-out hook by signalling each
// process of its tree may reach the hook before the recorder; the recorder's SIGTERM, coming
// after the hook is gone, still marks the record timed_out (it once logged such a run as a crash).
func TestRunTimeoutSignalAfterHookDied(t *testing.T) {
	signals := make(chan os.Signal, 1)
	stdout := &syncBuffer{}
	rec := make(chan signalSeen, 1)
	go func() {
		_, r := Run(context.Background(), Options{
			Command: []string{"sh", "-c", `echo $$; exec sleep 30`}, Stdin: strings.NewReader(""), Stdout: stdout,
			Stderr: io.Discard, Log: filepath.Join(t.TempDir(), "log.jsonl"), Signals: signals,
		})
		rec <- signalSeen{r.Signal, r.TimedOut}
	}()
	waitFor(t, "the hook's pid", func() bool { return strings.HasSuffix(stdout.String(), "\n") })
	pid, err := strconv.Atoi(strings.TrimSpace(stdout.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The hook is dead (a zombie until the recorder reaps it, or gone) before the recorder's
	// signal arrives.
	waitFor(t, "the hook to end", func() bool {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		return err != nil || strings.Contains(string(b), ") Z ")
	})
	signals <- syscall.SIGTERM
	if got := <-rec; got != (signalSeen{"terminated", true}) {
		t.Errorf("record signal, timed_out = %+v, want terminated, true", got)
	}
}

type signalSeen struct {
	Signal   string
	TimedOut bool
}
