package main

import (
	"github.com/agc-sarif/agc-sarif/internal/version"

	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
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

// TestVersion: --version prints one line naming the version set at build time, else the module
// version, with the commit when the build recorded one, and runs no hook.
func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errb, os.Getenv); code != 0 || !strings.HasPrefix(out.String(), "agc-record ") || strings.Count(out.String(), "\n") != 1 || errb.Len() != 0 {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	info := func(v string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Version: v}, Settings: settings}, true
		}
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "4c892c8a1b2c3d4e5f60718293a4b5c6d7e8f901"}
	mod := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	tests := []struct {
		set  string
		info func() (*debug.BuildInfo, bool)
		want string
	}{
		{"v1.2.3", info("v0.9.0"), "v1.2.3"},
		{"", info("v0.9.0"), "v0.9.0"},
		{"", info("(devel)", rev, mod), "devel (commit 4c892c8a1b2c, modified)"},
		{"v1.2.3", info("(devel)", rev), "v1.2.3 (commit 4c892c8a1b2c)"},
		{"", func() (*debug.BuildInfo, bool) { return nil, false }, "devel"},
	}
	for _, tc := range tests {
		if got := version.Of(tc.set, tc.info); got != tc.want {
			t.Errorf("version.Of(%q) = %q, want %q", tc.set, got, tc.want)
		}
	}
	// After "--" the flag belongs to the hook.
	log := filepath.Join(t.TempDir(), "hook-log.jsonl")
	out.Reset()
	if code := run([]string{"--log", log, "--", "printf", "%s", "--version"}, strings.NewReader(""), &out, &errb, os.Getenv); code != 0 || out.String() != "--version" {
		t.Errorf("hook --version: exit %d, stdout %q", code, out.String())
	}
}
