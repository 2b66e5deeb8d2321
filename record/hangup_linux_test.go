package record_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// hookEnv makes the test binary, started as a hook, play one (see TestMain).
const hookEnv = "AGC_RECORD_TEST_HOOK"

// writeAfterHangup is a hook that says "ready" on stderr, waits until the reader of its stdout
// has gone (at most 20 s), then writes its answer once and exits 0, as a hook that answers late
// does. Written through os.Stdout, the broken pipe kills it with SIGPIPE, as it kills a shell
// script's echo. Waiting for the hang-up, not for a time, makes the order certain: the test
// shows what the hook meets once its stdout's reader is gone.
func writeAfterHangup() {
	os.Stderr.WriteString("ready\n")
	fds := []unix.PollFd{{Fd: 1, Events: 0}}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if n, err := unix.Poll(fds, 100); err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0 {
			break
		}
	}
	os.Stdout.WriteString("answer\n")
	os.Exit(0)
}

// TestBinaryReaderGoneBeforeWrite: the caller closes the recorder's stdout before the hook
// writes. Bare, the hook dies of SIGPIPE on its write (a shell reports 141); through either
// recorder it must end the same way, and the recorder exit with 128+SIGPIPE as a shell would,
// not with the status of a hook whose write went into a pipe nobody reads.
func TestBinaryReaderGoneBeforeWrite(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	want := 128 + int(syscall.SIGPIPE)
	for name, argv := range map[string][]string{
		"bare hook":        nil,
		"agc-record":       {binary(t, "agc-record")},
		"agc-sarif record": {binary(t, "agc-sarif"), "record"},
	} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log.jsonl")
			if argv != nil {
				argv = append(argv, "--log", log, "--")
			}
			argv = append(argv, self)
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = append(os.Environ(), hookEnv+"=write-after-hangup")
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout = w
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			if line, err := bufio.NewReader(stderr).ReadString('\n'); err != nil || line != "ready\n" {
				t.Fatalf("hook's first line %q, %v", line, err)
			}
			r.Close() // the caller goes away before the hook writes
			err = cmd.Wait()
			got := cmd.ProcessState.ExitCode()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				got = 128 + int(ws.Signal()) // as a shell reports it
			}
			if got != want {
				t.Errorf("status %d (%v), want %d: the bare hook's death by SIGPIPE", got, err, want)
			}
			if argv[0] != self {
				if rec := lastRecord(t, log); rec.Signal != syscall.SIGPIPE.String() {
					t.Errorf("record says signal %q exit %d, want %q", rec.Signal, rec.ExitCode, syscall.SIGPIPE.String())
				}
			}
		})
	}
}
