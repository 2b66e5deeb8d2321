package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	out, stats := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "stats.json")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-kind", "hook-log", "-size", "1MiB", "-seed", "2", "-o", out, "-stats", stats}, 0, "hook-log seed=2"},
		{[]string{"-kind", "yaml"}, 2, `unknown corpus kind "yaml"`},
		{[]string{"-shape", "round"}, 2, `unknown corpus shape "round"`},
		{[]string{"-kind", "transcript", "-shape", "short-sparse", "-size", "256KiB", "-o", filepath.Join(dir, "s.jsonl")}, 0, "transcript seed=1"},
		{[]string{"-size", "huge"}, 2, `bad size "huge"`},
		{[]string{"-o", filepath.Join(dir, "no", "such", "dir", "x")}, 2, "could not create"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.msg)
		}
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Size() < 1<<20 {
		t.Fatalf("corpus: %v, %v", fi, err)
	}
	var st struct{ Bytes int64 }
	b, err := os.ReadFile(stats)
	if err != nil || json.Unmarshal(b, &st) != nil || st.Bytes != fi.Size() {
		t.Errorf("stats %s (%v) do not match the file size %d", b, err, fi.Size())
	}
}
