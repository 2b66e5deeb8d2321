//go:build linux

package record_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/record"
)

// pattern is a reader of n bytes of a fixed, non-trivial pattern, hashed as it is read.
type pattern struct {
	n, off int64
}

func (p *pattern) Read(b []byte) (int, error) {
	if p.off >= p.n {
		return 0, io.EOF
	}
	b = b[:min(int64(len(b)), p.n-p.off)]
	for i := range b {
		x := p.off + int64(i)
		b[i] = byte(x ^ x>>8 ^ x>>16)
	}
	p.off += int64(len(b))
	return len(b), nil
}

// streamSize is the stream the memory test passes: 200 MB, the size its target was set for.
const streamSize = 200_000_000

// maxRSS is the peak resident memory the recorder may reach on that stream.
const maxRSS = 64 << 20

// TestBinaryLargeStreamBoundedMemory: 200 MB through the hook's stdin and stdout pass byte for
// byte, the record says both were cut with their full size and hash, and the recorder's peak
// RSS (the kernel's maxrss of the process, read at its end) stays under 64 MiB. A memory
// bound, not a timing.
func TestBinaryLargeStreamBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("passes 200 MB twice")
	}
	want := sha256.New()
	if _, err := io.Copy(want, &pattern{n: streamSize}); err != nil {
		t.Fatal(err)
	}
	wantSum := hex.EncodeToString(want.Sum(nil))
	for name, argv := range map[string][]string{"agc-record": {binary(t, "agc-record")}, "agc-sarif record": {binary(t, "agc-sarif"), "record"}} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log.jsonl")
			cmd := exec.Command(argv[0], append(argv[1:], "--log", log, "--", "cat")...)
			cmd.Stdin = &pattern{n: streamSize}
			got := sha256.New()
			cmd.Stdout = got
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			if sum := hex.EncodeToString(got.Sum(nil)); sum != wantSum {
				t.Errorf("stdout changed on the way: sha256 %s, want %s", sum, wantSum)
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
			t.Logf("%s: peak RSS %.1f MiB for %d bytes through stdin and stdout", name, float64(rss)/(1<<20), streamSize)
			if rss >= maxRSS {
				t.Errorf("peak RSS %d MiB, want under %d MiB", rss>>20, maxRSS>>20)
			}
			r := lastRecord(t, log)
			for s, c := range map[string]any{"stdout": r.StdoutCut, "input": r.InputCut} {
				if c == nil || r.StdoutCut.Size != streamSize || r.StdoutCut.SHA256 != wantSum || r.InputCut.Size != streamSize || r.InputCut.SHA256 != wantSum {
					t.Errorf("%s cut: stdout %+v input %+v", s, r.StdoutCut, r.InputCut)
				}
			}
		})
	}
}

// TestBinaryReaderGone: the caller closes the recorder's stdout while the hook still writes
// (TestBinaryReaderGoneBeforeWrite: before it writes).
// The recorder does not die of SIGPIPE before logging: the hook meets the broken pipe as it
// would on its own, the recorder ends with the hook's status (128+SIGPIPE) and the record is
// written.
func TestBinaryReaderGone(t *testing.T) {
	for name, argv := range map[string][]string{"agc-record": {binary(t, "agc-record")}, "agc-sarif record": {binary(t, "agc-sarif"), "record"}} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log.jsonl")
			cmd := exec.Command(argv[0], append(argv[1:], "--log", log, "--", "sh", "-c", `echo ready; while :; do echo more; done`)...)
			stdout := startReady(t, cmd)
			stdout.Close()
			err := cmd.Wait()
			if cmd.ProcessState.ExitCode() != 128+int(syscall.SIGPIPE) {
				t.Errorf("status %v (%v), want %d: the hook's own end", cmd.ProcessState, err, 128+int(syscall.SIGPIPE))
			}
			r := lastRecord(t, log)
			// The record keeps what the hook wrote before the hang-up: its first line at least
			// (the recorder may see the hang-up before the hook's next line, which then meets the
			// broken pipe, as it would bare).
			if r.Signal != syscall.SIGPIPE.String() || !strings.HasPrefix(r.Stdout, "ready\n") {
				t.Errorf("record signal %q stdout %.30q", r.Signal, r.Stdout)
			}
		})
	}
}

// TestBinarySlowReader: a caller that reads the recorder's stdout only well after the hook has
// exited still gets every byte: the grace for output held open by a hook's child counts only
// time spent waiting for the hook, never time spent waiting for the caller.
func TestBinarySlowReader(t *testing.T) {
	const size = 600_000 // beyond any pipe buffer
	log := filepath.Join(t.TempDir(), "log.jsonl")
	cmd := exec.Command(binary(t, "agc-record"), "--log", log, "--", "head", "-c", strconv.Itoa(size), "/dev/zero")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * record.OutputGrace) // the hook has long exited with its output unread
	got, err := io.ReadAll(stdout)
	if err != nil || len(got) != size {
		t.Errorf("read %d bytes (%v), want %d", len(got), err, size)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if r := lastRecord(t, log); r.StdoutCut != nil || len(r.Stdout) == 0 {
		t.Errorf("record stdout %d bytes, cut %+v", len(r.Stdout), r.StdoutCut)
	}
}
