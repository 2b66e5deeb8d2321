//go:build unix

package record_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// binDir holds the binaries built once, on first use, for the tests that need a real process
// (not in TestMain: fuzzing workers run TestMain too and need none).
var binDir string

var (
	buildOnce sync.Once
	buildErr  error
)

func TestMain(m *testing.M) {
	if os.Getenv(hookEnv) == "write-after-hangup" {
		writeAfterHangup()
	}
	dir, err := os.MkdirTemp("", "agc-sarif-record-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binary returns the path of the built agc-sarif or agc-record, building both on first use.
func binary(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		for _, n := range []string{"agc-sarif", "agc-record"} {
			build := exec.Command("go", "build", "-o", filepath.Join(binDir, n), "../cmd/"+n)
			if out, err := build.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("could not build %s: %v\n%s", n, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, name)
}

// lastRecord reads the one record in the log at path.
func lastRecord(t *testing.T, path string) hooklog.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var r hooklog.Record
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil || len(lines) != 1 {
		t.Fatalf("%s: %d lines: %v", path, len(lines), err)
	}
	return r
}

// startReady starts cmd, whose hook prints "ready" first, and returns its stdout once that line
// has arrived: the recorder streams the hook's output rather than holding it to the end.
func startReady(t *testing.T, cmd *exec.Cmd) io.ReadCloser {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("first line %q, %v: output is not streamed", line, err)
	}
	return stdout
}

// alive says whether process pid still exists (and is not a zombie of ours).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// TestBinarySIGTERM: `record` itself is SIGTERMed while the hook (and a child of it) sleeps.
// Output already written arrives before the end, the whole process group ends, the status is
// 128+15 and the record says terminated and timed_out.
func TestBinarySIGTERM(t *testing.T) {
	dir := t.TempDir()
	log, pidFile := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "child.pid")
	cmd := exec.Command(binary(t, "agc-sarif"), "record", "--log", log, "--", "sh", "-c",
		`sleep 30 & echo $! >"$1"; echo ready; wait`, "hook", pidFile)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse"}`)
	startReady(t, cmd)
	b, _ := os.ReadFile(pidFile)
	child, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("child pid %q: %v", b, err)
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if cmd.ProcessState.ExitCode() != 143 {
		t.Errorf("status %v (%v), want 143", cmd.ProcessState, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("record ended %v after SIGTERM", d)
	}
	waitGone := time.Now().Add(5 * time.Second)
	for alive(child) && time.Now().Before(waitGone) {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(child) {
		t.Errorf("the hook's child %d outlived SIGTERM", child)
		syscall.Kill(child, syscall.SIGKILL)
	}
	r := lastRecord(t, log)
	if r.ExitCode != -1 || r.Signal != "terminated" || !r.TimedOut || r.Stdout != "ready\n" || string(r.Input) != `{"hook_event_name":"PreToolUse"}` {
		t.Errorf("record %+v", r)
	}
}

// TestBinaryHookKilled: a hook killed by SIGKILL (not from the recorder) is not a timeout.
func TestBinaryHookKilled(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	cmd := exec.Command(binary(t, "agc-sarif"), "record", "--log", log, "--", "sh", "-c", `echo partial; echo dying >&2; kill -KILL $$`)
	out, err := cmd.Output()
	if cmd.ProcessState.ExitCode() != 137 || string(out) != "partial\n" {
		t.Errorf("status %v (%v) stdout %q, want 137 and partial", cmd.ProcessState, err, out)
	}
	r := lastRecord(t, log)
	if r.ExitCode != -1 || r.Signal != "killed" || r.TimedOut || r.Stderr != "dying\n" {
		t.Errorf("record %+v", r)
	}
}

// TestBinaryPassThrough: stdin, stdout, stderr and status of the built binary, byte for byte.
func TestBinaryPassThrough(t *testing.T) {
	payload := make([]byte, 1<<20)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	log := filepath.Join(t.TempDir(), "log.jsonl")
	cmd := exec.Command(binary(t, "agc-sarif"), "record", "--log", log, "--", "sh", "-c", `cat; printf 'e\000rr' >&2; exit 2`)
	cmd.Stdin = strings.NewReader(string(payload))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	if cmd.ProcessState.ExitCode() != 2 || string(out) != string(payload) || stderr.String() != "e\x00rr" {
		t.Errorf("status %d, stdout equal %v, stderr %q", cmd.ProcessState.ExitCode(), string(out) == string(payload), stderr.String())
	}
	if r := lastRecord(t, log); r.StdoutEncoding != "base64" || r.Stderr != "e\x00rr" || r.ExitCode != 2 {
		t.Errorf("record exit %d stdout_encoding %q stderr %q", r.ExitCode, r.StdoutEncoding, r.Stderr)
	}
}

// TestBinaryConcurrent: 20 recorders at once (parallel tool calls) append 20 whole lines.
func TestBinaryConcurrent(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	const runs = 20
	errs := make(chan error, runs)
	for i := range runs {
		go func() {
			// 256 KiB each: beyond any atomic pipe or page write, so interleaving would show.
			input := fmt.Sprintf(`{"n":%d,"pad":%q}`, i, strings.Repeat(strconv.Itoa(i%10), 256<<10))
			cmd := exec.Command(binary(t, "agc-sarif"), "record", "--log", log, "--", "sh", "-c", "cat")
			cmd.Stdin = strings.NewReader(input)
			out, err := cmd.Output()
			if err == nil && string(out) != input {
				err = fmt.Errorf("run %d: stdout differs from stdin", i)
			}
			errs <- err
		}()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != runs {
		t.Fatalf("%d lines, want %d", len(lines), runs)
	}
	seen := map[int]bool{}
	for n, line := range lines {
		var r hooklog.Record
		var in struct {
			N   int    `json:"n"`
			Pad string `json:"pad"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s:%d: %v", log, n+1, err)
		}
		if err := json.Unmarshal(r.Input, &in); err != nil || len(in.Pad) != 256<<10 || r.Stdout != string(r.Input) {
			t.Fatalf("%s:%d: damaged record (%v)", log, n+1, err)
		}
		seen[in.N] = true
	}
	if len(seen) != runs {
		t.Errorf("%d distinct records, want %d", len(seen), runs)
	}
}

// TestBinarySignals: SIGINT and SIGHUP reach the hook as themselves (not as the SIGTERM a
// cancelled context stands for) and are not timeouts, through both binaries: agc-record
// catches them with CatchSignals alone, agc-sarif also cancels its context on SIGINT.
func TestBinarySignals(t *testing.T) {
	tests := []struct {
		sig        syscall.Signal
		wantStatus int
		wantName   string
	}{
		{syscall.SIGINT, 130, "interrupt"},
		{syscall.SIGHUP, 129, "hangup"},
	}
	binaries := map[string][]string{"agc-record": {binary(t, "agc-record")}, "agc-sarif record": {binary(t, "agc-sarif"), "record"}}
	for _, tc := range tests {
		for name, argv := range binaries {
			t.Run(name+"/"+tc.wantName, func(t *testing.T) {
				log := filepath.Join(t.TempDir(), "log.jsonl")
				// exec: the hook is sleep itself, which dies of SIGINT (a shell script would not).
				cmd := exec.Command(argv[0], append(argv[1:], "--log", log, "--", "sh", "-c", `echo ready; exec sleep 30`)...)
				startReady(t, cmd)
				if err := cmd.Process.Signal(tc.sig); err != nil {
					t.Fatal(err)
				}
				err := cmd.Wait()
				if cmd.ProcessState.ExitCode() != tc.wantStatus {
					t.Errorf("status %v (%v), want %d", cmd.ProcessState, err, tc.wantStatus)
				}
				if r := lastRecord(t, log); r.Signal != tc.wantName || r.TimedOut || r.ExitCode != -1 {
					t.Errorf("record %+v", r)
				}
			})
		}
	}
}

// TestBinaryStartFailureStderrGone: the hook cannot be found and the caller has closed the
// recorder's stderr. Saying so on stderr meets the broken pipe; the recorder must not die of
// SIGPIPE there but end with a shell's 127 and write the record.
func TestBinaryStartFailureStderrGone(t *testing.T) {
	for name, argv := range map[string][]string{"agc-record": {binary(t, "agc-record")}, "agc-sarif record": {binary(t, "agc-sarif"), "record"}} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log.jsonl")
			cmd := exec.Command(argv[0], append(argv[1:], "--log", log, "--", "agc-no-such-hook")...)
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // the reader is gone before the recorder writes a word
			cmd.Stderr = w
			err = cmd.Run()
			w.Close()
			if cmd.ProcessState.ExitCode() != 127 {
				t.Errorf("status %v (%v), want 127", cmd.ProcessState, err)
			}
			if rec := lastRecord(t, log); rec.ExitCode != 127 {
				t.Errorf("record exit %d, want 127", rec.ExitCode)
			}
		})
	}
}
