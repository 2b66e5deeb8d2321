package command

import (
	"bytes"
	"strings"
	"testing"
)

func TestInertWriter(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain line\n", "plain line\n"},
		{"::error file=a::x\n", "[inert] ::error file=a::x\n"},
		{"   ::add-mask::secret\n", "[inert]    ::add-mask::secret\n"},
		{"##[set-output name=a;]b\n", "[inert] ##[set-output name=a;]b\n"},
		{"a.jsonl:3: bad\r::warning::x\n", `a.jsonl:3: bad\x0d::warning::x` + "\n"},
		{"esc \x1b[31mred\n", `esc \x1b[31mred` + "\n"},
		{"tab\tkept\n", "tab\tkept\n"},
		{"no newline ::x", "no newline ::x"},
		{"::debug::no newline", "[inert] ::debug::no newline"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		w := newInertWriter(&b)
		// Write byte by byte: a command split across writes must still be caught.
		for i := 0; i < len(tt.in); i++ {
			w.Write([]byte{tt.in[i]})
		}
		w.Flush()
		if b.String() != tt.want {
			t.Errorf("%q → %q, want %q", tt.in, b.String(), tt.want)
		}
	}
}

// TestStderrInert: a file whose name holds a newline and a workflow command cannot start a
// command line on collect's stderr.
func TestStderrInert(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	code := Main(t.Context(), []string{"agc-sarif", "collect", "-o", "-", "x\n::error::injected"},
		Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: dir})
	if code != ExitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, line := range strings.Split(errb.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("stderr line would be a workflow command: %q", line)
		}
	}
	if !strings.Contains(errb.String(), "[inert] ::error::injected") {
		t.Errorf("stderr = %q, want the name shown inert", errb.String())
	}
}
