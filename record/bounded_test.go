//go:build unix

package record

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// TestRunKeepsBoundedStart: streams longer than the record keeps pass through whole; the record
// holds their start (never a split character) and their full size and hash.
func TestRunKeepsBoundedStart(t *testing.T) {
	input := []byte(`{"hook_event_name":"PreToolUse","tool_name":"Write","pad":"` + strings.Repeat("é", 3000) + `"}`)
	var out, errb bytes.Buffer
	log := filepath.Join(t.TempDir(), "log.jsonl")
	code, r := Run(context.Background(), Options{
		Command: []string{"sh", "-c", "cat; cat >&2 <<EOF\nshort\nEOF"}, Stdin: bytes.NewReader(input),
		Stdout: &out, Stderr: &errb, Log: log, KeepOutput: 1001, KeepInput: 2001,
	})
	if code != 0 || !bytes.Equal(out.Bytes(), input) || errb.String() != "short\n" {
		t.Fatalf("status %d, stdout passed whole %v, stderr %q", code, bytes.Equal(out.Bytes(), input), errb.String())
	}
	sum := sha256.Sum256(input)
	for name, c := range map[string]struct {
		cut   *hooklog.Cut
		value string
		limit int
	}{
		"stdout": {r.StdoutCut, r.Stdout, 1001},
		"input":  {r.InputCut, string(r.Input), 2001},
	} {
		if c.cut == nil || c.cut.Size != int64(len(input)) || c.cut.SHA256 != hex.EncodeToString(sum[:]) || c.cut.Kept > int64(c.limit) || c.cut.Kept < int64(c.limit-3) {
			t.Errorf("%s: cut %+v, want size %d and the whole stream's hash", name, c.cut, len(input))
		}
	}
	if !utf8.ValidString(r.Stdout) || r.StdoutEncoding != "" || !bytes.HasPrefix(input, []byte(r.Stdout)) || int64(len(r.Stdout)) != r.StdoutCut.Kept {
		t.Errorf("stdout kept %q (encoding %q) is not the start of the stream", r.Stdout[:40], r.StdoutEncoding)
	}
	if r.Input[0] != '"' || r.InputEncoding != "" {
		t.Errorf("a cut input must be logged as a string: %.40s… encoding %q", r.Input, r.InputEncoding)
	}
	if r.StderrCut != nil || r.Stderr != "short\n" {
		t.Errorf("stderr %q cut %+v", r.Stderr, r.StderrCut)
	}
	if got := lastLogRecord(t, log); got.StdoutCut == nil || *got.StdoutCut != *r.StdoutCut || got.InputCut == nil {
		t.Errorf("logged cut %+v, returned %+v", got.StdoutCut, r.StdoutCut)
	}
}

// TestRunShortStreamsNotHashed: streams within the bound are kept whole, with no cut.
func TestRunShortStreamsNotHashed(t *testing.T) {
	_, r := Run(context.Background(), Options{
		Command: []string{"cat"}, Stdin: strings.NewReader(`{"a":1}`), Stdout: &bytes.Buffer{},
		Log: filepath.Join(t.TempDir(), "log.jsonl"),
	})
	if r.InputCut != nil || r.StdoutCut != nil || r.StderrCut != nil || string(r.Input) != `{"a":1}` {
		t.Errorf("record %+v", r)
	}
}

// brokenPipe fails every write, as a stdout whose reader went away does.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

// TestRunBrokenPipePassedOn: when the caller stops reading, the hook meets the broken pipe as it
// would on its own (SIGPIPE) and the run is still logged.
func TestRunBrokenPipePassedOn(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	code, r := Run(context.Background(), Options{
		Command: []string{"sh", "-c", "while :; do echo x; done"}, Stdout: brokenPipe{}, Log: log,
	})
	out := r.Stdout
	if r.StdoutEncoding == encodingBase64 { // short lines cost more escaped than in base64
		b, _ := base64.StdEncoding.DecodeString(out)
		out = string(b)
	}
	if code != 128+int(syscall.SIGPIPE) || r.Signal != syscall.SIGPIPE.String() || !strings.HasPrefix(out, "x\n") {
		t.Errorf("status %d, signal %q, stdout %.20q", code, r.Signal, out)
	}
	if got := lastLogRecord(t, log); got.Signal != r.Signal {
		t.Errorf("logged %+v", got)
	}
}

// TestRunLogFailureLeavesStderr: a log that cannot be written leaves the hook's stderr (on
// exit 2 the block reason) byte for byte; the warning goes to the warnings file.
func TestRunLogFailureLeavesStderr(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	warnings := filepath.Join(dir, "state", "record-warnings.log")
	var errb bytes.Buffer
	code, _ := Run(context.Background(), Options{
		Command: []string{"sh", "-c", "printf 'blocked: no rm' >&2; exit 2"},
		Stderr:  &errb, Log: filepath.Join(file, "log.jsonl"), Warnings: warnings,
	})
	if code != 2 || errb.String() != "blocked: no rm" {
		t.Errorf("status %d, stderr %q", code, errb.String())
	}
	b, err := os.ReadFile(warnings)
	if err != nil || !strings.Contains(string(b), "could not write hook log") || strings.Count(string(b), "\n") != 1 {
		t.Errorf("warnings %q (%v)", b, err)
	}
	// No warnings file named: the failure still changes nothing.
	errb.Reset()
	if code, _ := Run(context.Background(), Options{Command: []string{"true"}, Stderr: &errb, Log: filepath.Join(file, "x")}); code != 0 || errb.Len() != 0 {
		t.Errorf("status %d, stderr %q", code, errb.String())
	}
}

func TestWarnPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"AGC_RECORD_WARNINGS": "/w.log", "HOME": "/h"}, "/w.log"},
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"}, "/s/agc-sarif/record-warnings.log"},
		{map[string]string{"XDG_STATE_HOME": "rel", "HOME": "/h"}, "/h/.local/state/agc-sarif/record-warnings.log"},
		{map[string]string{}, ""},
	}
	for _, tc := range tests {
		if got := WarnPath(env(tc.env)); got != tc.want {
			t.Errorf("WarnPath(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
	if WarnPath(nil) != "" {
		t.Error("WarnPath(nil) names a file")
	}
}

func TestCutRune(t *testing.T) {
	for in, want := range map[string]string{"abc": "abc", "ab\xc3": "ab", "a\xe2\x82": "a", "a€": "a€", "": "", "\xff": "\xff"} {
		if got := string(cutRune([]byte(in))); got != want {
			t.Errorf("cutRune(%q) = %q, want %q", in, got, want)
		}
	}
}

// lastLogRecord reads the last record of the log at path.
func lastLogRecord(t *testing.T, path string) hooklog.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	var r hooklog.Record
	if err := json.Unmarshal(lines[len(lines)-1], &r); err != nil {
		t.Fatalf("%s:%d: %v", path, len(lines), err)
	}
	return r
}
