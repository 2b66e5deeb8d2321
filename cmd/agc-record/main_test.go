package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// TestRun: the small recorder passes the hook's answer through and writes the same log line as
// agc-sarif record.
func TestRun(t *testing.T) {
	log := filepath.Join(t.TempDir(), "hook-log.jsonl")
	var out, errb bytes.Buffer
	code := run([]string{"--log", log, "--", "sh", "-c", "cat; echo oops >&2; exit 2"},
		strings.NewReader(`{"hook_event_name":"PreToolUse"}`), &out, &errb, func(string) string { return "" })
	if code != 2 || out.String() != `{"hook_event_name":"PreToolUse"}` || errb.String() != "oops\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var rec hooklog.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("log line %q: %v", data, err)
	}
	if rec.ExitCode != 2 || rec.Stderr != "oops\n" || string(rec.Input) != `{"hook_event_name":"PreToolUse"}` {
		t.Errorf("record = %+v", rec)
	}
	if code := run(nil, strings.NewReader(""), &out, &errb, os.Getenv); code != 2 {
		t.Errorf("no hook command: exit %d, want 2", code)
	}
}
