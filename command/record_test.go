//go:build unix

package command

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// recordRun is one in-process run of `agc-sarif record`.
type recordRun struct {
	code           int
	stdout, stderr []byte
}

// runRecord runs `agc-sarif record args...` through Main with stdin and the given environment.
func runRecord(t *testing.T, dir string, stdin []byte, getenv map[string]string, args ...string) recordRun {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := Env{
		Stdin:  bytes.NewReader(stdin),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string { return getenv[k] },
		Dir:    dir,
	}
	code := Main(context.Background(), append([]string{"agc-sarif", "record"}, args...), env)
	return recordRun{code: code, stdout: stdout.Bytes(), stderr: stderr.Bytes()}
}

// readLog decodes every line of a hook log, failing on any line that is not one whole record.
func readLog(t *testing.T, path string) []hooklog.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []hooklog.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<30)
	for n := 1; sc.Scan(); n++ {
		var r hooklog.Record
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

// decoded is a logged stream's bytes, undoing base64 when the record says so.
func decoded(t *testing.T, s, enc string) []byte {
	t.Helper()
	if enc == "" {
		return []byte(s)
	}
	if enc != "base64" {
		t.Fatalf("unknown encoding %q", enc)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRecordPassesThrough(t *testing.T) {
	binary := []byte{0, 1, 2, 0xff, 0xfe, '\n', 0xc3, 0x28, 'x'}
	tests := []struct {
		name       string
		stdin      []byte
		hook       string // sh -c script
		wantCode   int
		wantStdout []byte
		wantStderr []byte
		wantInput  string // the record's input, as JSON
		wantEnc    string // the record's stdout_encoding
	}{
		{
			name:       "json answer on exit 0",
			stdin:      []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash"}` + "\n"),
			hook:       `cat >/dev/null; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}'`,
			wantStdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}`),
			wantInput:  `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`,
		},
		{
			name:       "exit 2 with stderr",
			stdin:      []byte(`{"tool_name":"Bash"}`),
			hook:       `echo 'AGC block: guard/no-rm/Bash.command — rm -rf is refused.' >&2; exit 2`,
			wantCode:   2,
			wantStderr: []byte("AGC block: guard/no-rm/Bash.command — rm -rf is refused.\n"),
			wantInput:  `{"tool_name":"Bash"}`,
		},
		{
			name:       "exit 1",
			stdin:      []byte(`{}`),
			hook:       `echo out; echo crashed >&2; exit 1`,
			wantCode:   1,
			wantStdout: []byte("out\n"),
			wantStderr: []byte("crashed\n"),
			wantInput:  `{}`,
		},
		{
			name:       "binary data unchanged",
			stdin:      binary,
			hook:       `cat; cat /dev/null >&2`,
			wantStdout: binary,
			wantInput:  `"` + base64.StdEncoding.EncodeToString(binary) + `"`,
			wantEnc:    "base64",
		},
		{
			name:       "non-JSON stdin stored as a string",
			stdin:      []byte("not json {\n"),
			hook:       `cat`,
			wantStdout: []byte("not json {\n"),
			wantInput:  `"not json {\n"`,
		},
		{
			name:      "empty stdin",
			hook:      `exit 0`,
			wantInput: `""`,
		},
		{
			name:      "high exit status",
			hook:      `exit 255`,
			wantCode:  255,
			wantInput: `""`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "log", "hook-log.jsonl")
			got := runRecord(t, dir, tc.stdin, nil, "--log", log, "--", "sh", "-c", tc.hook)
			if got.code != tc.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", got.code, tc.wantCode, got.stderr)
			}
			if !bytes.Equal(got.stdout, tc.wantStdout) {
				t.Errorf("stdout %q, want %q", got.stdout, tc.wantStdout)
			}
			if !bytes.Equal(got.stderr, tc.wantStderr) {
				t.Errorf("stderr %q, want %q", got.stderr, tc.wantStderr)
			}
			recs := readLog(t, log)
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			r := recs[0]
			if string(r.Input) != tc.wantInput {
				t.Errorf("input %s, want %s", r.Input, tc.wantInput)
			}
			if r.ExitCode != tc.wantCode || r.Runtime != "claude-code" || r.StdoutEncoding != tc.wantEnc {
				t.Errorf("record exit %d runtime %q stdout_encoding %q", r.ExitCode, r.Runtime, r.StdoutEncoding)
			}
			if out := decoded(t, r.Stdout, r.StdoutEncoding); !bytes.Equal(out, tc.wantStdout) {
				t.Errorf("logged stdout %q, want %q", out, tc.wantStdout)
			}
			if r.Stderr != string(tc.wantStderr) {
				t.Errorf("logged stderr %q, want %q", r.Stderr, tc.wantStderr)
			}
			if want := []string{"sh", "-c", tc.hook}; fmt.Sprint(r.Command) != fmt.Sprint(want) {
				t.Errorf("command %q, want %q", r.Command, want)
			}
			if r.DurationMS <= 0 || r.Time == "" || r.Signal != "" || r.TimedOut || r.Error != "" {
				t.Errorf("record %+v", r)
			}
		})
	}
}

func TestRecordCannotStart(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		hook string
		want int
	}{
		{"not found in PATH", "agc-sarif-no-such-hook", 127},
		{"no such file", filepath.Join(dir, "missing.sh"), 127},
		{"not executable", notExec, 126},
		{"a folder", dir, 126},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "hook-log.jsonl")
			got := runRecord(t, dir, []byte(`{"tool_name":"Bash"}`), nil, "--log", log, "--", tc.hook, "arg")
			if got.code != tc.want || len(got.stdout) != 0 {
				t.Errorf("exit %d stdout %q, want exit %d and no stdout", got.code, got.stdout, tc.want)
			}
			if !strings.HasPrefix(string(got.stderr), "agc-sarif record: could not run hook ") {
				t.Errorf("stderr %q", got.stderr)
			}
			r := readLog(t, log)[0]
			if r.ExitCode != tc.want || r.Error == "" || string(r.Input) != `{"tool_name":"Bash"}` {
				t.Errorf("record %+v", r)
			}
		})
	}
}

// TestRecordLogUnwritable: the hook's answer is unchanged, its stderr (the block reason on exit 2)
// too; one warning line goes to the warnings file instead.
func TestRecordLogUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o500); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	logs := map[string]string{
		"parent is a file": filepath.Join(file, "hook-log.jsonl"),
		"a FIFO":           fifo,
		"a symlink":        link,
	}
	if os.Geteuid() != 0 { // root writes into read-only folders
		logs["read-only folder"] = filepath.Join(readOnly, "hook-log.jsonl")
	}
	for name, log := range logs {
		t.Run(name, func(t *testing.T) {
			warnings := filepath.Join(t.TempDir(), "warnings.log")
			got := runRecord(t, dir, []byte("{}"), map[string]string{"AGC_RECORD_WARNINGS": warnings},
				"--log", log, "--", "sh", "-c", "echo answer; echo own >&2; exit 2")
			if got.code != 2 || string(got.stdout) != "answer\n" || string(got.stderr) != "own\n" {
				t.Errorf("exit %d stdout %q stderr %q", got.code, got.stdout, got.stderr)
			}
			b, err := os.ReadFile(warnings)
			if err != nil || strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), fmt.Sprintf(" agc-sarif record: could not write hook log %q: ", log)) {
				t.Errorf("warnings %q (%v)", b, err)
			}
		})
	}
	if b, _ := os.ReadFile(file); len(b) != 0 {
		t.Errorf("the symlink's target was written: %q", b)
	}
}

func TestRecordDefaultLog(t *testing.T) {
	project := t.TempDir()
	work := t.TempDir()
	tests := []struct {
		name   string
		getenv map[string]string
		want   string
	}{
		{"CLAUDE_PROJECT_DIR", map[string]string{"CLAUDE_PROJECT_DIR": project}, filepath.Join(project, ".agc", "hook-log.jsonl")},
		{"working folder", nil, filepath.Join(work, ".agc", "hook-log.jsonl")},
		{"AGC_HOOK_LOG", map[string]string{"AGC_HOOK_LOG": "x.jsonl", "CLAUDE_PROJECT_DIR": project}, filepath.Join(work, "x.jsonl")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := runRecord(t, work, nil, tc.getenv, "--", "true"); got.code != 0 {
				t.Fatalf("exit %d: %s", got.code, got.stderr)
			}
			if n := len(readLog(t, tc.want)); n != 1 {
				t.Errorf("%d records in %s", n, tc.want)
			}
			fi, err := os.Stat(tc.want)
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("log mode %v (%v), want 0600", fi.Mode(), err)
			}
			os.Remove(tc.want)
		})
	}
	fi, err := os.Stat(filepath.Join(project, ".agc"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf(".agc mode %v (%v), want 0700", fi.Mode(), err)
	}
}

func TestRecordUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--"}, {"--log", "x"}} {
		got := runRecord(t, t.TempDir(), nil, nil, args...)
		if got.code != ExitUsage || !strings.Contains(string(got.stderr), "no hook command") {
			t.Errorf("record %q: exit %d stderr %q", args, got.code, got.stderr)
		}
	}
}

// TestRecordLargePayload: 50 MB of binary stdin and stdout pass through whole; the log keeps their
// start and says how long they were and their hash.
func TestRecordLargePayload(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB payload")
	}
	payload := make([]byte, 50<<20)
	if _, err := rand.Read(payload); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "hook-log.jsonl")
	got := runRecord(t, dir, payload, nil, "--log", log, "--", "sh", "-c", "cat; cat /dev/null")
	if got.code != 0 || !bytes.Equal(got.stdout, payload) {
		t.Fatalf("exit %d, stdout %d bytes equal=%v", got.code, len(got.stdout), bytes.Equal(got.stdout, payload))
	}
	r := readLog(t, log)[0]
	var in string
	if err := json.Unmarshal(r.Input, &in); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(payload)
	for name, c := range map[string]struct {
		kept []byte
		cut  *hooklog.Cut
	}{
		"input":  {decoded(t, in, r.InputEncoding), r.InputCut},
		"stdout": {decoded(t, r.Stdout, r.StdoutEncoding), r.StdoutCut},
	} {
		if c.cut == nil || c.cut.Size != int64(len(payload)) || c.cut.SHA256 != hex.EncodeToString(sum[:]) ||
			c.cut.Kept != int64(len(c.kept)) || len(c.kept) == 0 || !bytes.HasPrefix(payload, c.kept) {
			t.Errorf("%s: cut %+v, %d bytes kept: not the payload's start, size and hash", name, c.cut, len(c.kept))
		}
	}
}

// mkfifo makes a named pipe at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

func TestRecordRuntime(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"claude code input", nil, `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash"}`, "claude-code"},
		{"codex input", nil, `{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","tool_name":"Bash"}`, "codex"},
		{"flag wins", []string{"--runtime", "my-runtime"}, `{"turn_id":"t"}`, "my-runtime"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log.jsonl")
			args := append(append([]string{"--log", log}, tc.args...), "--", "true")
			if got := runRecord(t, t.TempDir(), []byte(tc.stdin), nil, args...); got.code != 0 {
				t.Fatalf("exit %d: %s", got.code, got.stderr)
			}
			if r := readLog(t, log)[0]; r.Runtime != tc.want {
				t.Errorf("runtime %q, want %q", r.Runtime, tc.want)
			}
		})
	}
}
