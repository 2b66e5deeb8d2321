package record

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRecordOverhead runs /bin/true directly and through Run; the difference per op is
// what recording adds to every hook call.
func BenchmarkRecordOverhead(b *testing.B) {
	input := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}`
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("/bin/true")
			cmd.Stdin = strings.NewReader(input)
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recorded", func(b *testing.B) {
		log := filepath.Join(b.TempDir(), "log.jsonl")
		for b.Loop() {
			code, _ := Run(context.Background(), Options{
				Command: []string{"/bin/true"}, Stdin: strings.NewReader(input),
				Stdout: io.Discard, Stderr: io.Discard, Log: log,
			})
			if code != 0 {
				b.Fatalf("status %d", code)
			}
		}
	})
}
