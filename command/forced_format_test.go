package command

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestForcedFormatReadsNothing: a --format that reads nothing from a file the user named is exit
// status 2, with the format's name and what the file looks like; the right format, or a file in
// it that merely holds no finding, is not.
func TestForcedFormatReadsNothing(t *testing.T) {
	for _, c := range []struct {
		format, file string
		code         int
		want         string
	}{
		{"stream-json", "hook-log.jsonl", ExitUsage, "hook-log.jsonl: --format stream-json read nothing from it (1 record skipped); it looks like hook-log"},
		{"hook-log", "stream.jsonl", ExitUsage, "stream.jsonl: --format hook-log read nothing from it (8 records skipped); it looks like stream-json"},
		{"agc", "settings.json", ExitUsage, `settings.json: --format agc read nothing from it (1 record skipped); it looks like no format agc-sarif reads: a JSON object with keys "hooks"`},
		{"stream-json", "stream.jsonl", ExitOK, ""},
		{"hook-log", "hook-log.jsonl", ExitOK, ""},
	} {
		var stdout, stderr bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Dir: "../testdata/claude/pre-deny", Getenv: func(string) string { return "" }}
		code := Main(context.Background(), []string{"agc-sarif", "collect", "--root", "..", "-o", "-", "--fail-on", "none", "--format", c.format, c.file}, env)
		if code != c.code {
			t.Errorf("--format %s %s: exit %d, want %d\n%s", c.format, c.file, code, c.code, stderr.String())
		}
		if c.want != "" && !strings.Contains(stderr.String(), c.want) {
			t.Errorf("--format %s %s: stderr does not say %q:\n%s", c.format, c.file, c.want, stderr.String())
		}
		if strings.Count(stderr.String(), "agc-sarif: ") > 1+strings.Count(stderr.String(), "agc-sarif: preview") {
			t.Errorf("--format %s %s: more than one message:\n%s", c.format, c.file, stderr.String())
		}
	}
}
