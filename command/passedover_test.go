package command

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPassedOverListed: stderr names every file a folder walk passed over, up to 20, then counts
// the rest; and the accounting adds up (records read = gave findings + skipped), with the
// findings of events already read said to be kept once.
func TestPassedOverListed(t *testing.T) {
	for _, n := range []int{3, 25} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			copyInto(t, "../testdata/claude/pre-deny", dir, "run")
			for _, f := range []string{"scenario.json", "settings.json", "want.json", "hook-log.want.json"} {
				os.Remove(filepath.Join(dir, "run", f))
			}
			for i := 0; i < n; i++ {
				if err := os.WriteFile(filepath.Join(dir, "run", fmt.Sprintf("notes-%02d.txt", i)), []byte("nothing to read\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Dir: dir, Getenv: func(string) string { return "" }}
			Main(context.Background(), []string{"agc-sarif", "collect", "--root", dir, "-o", "-", "--fail-on", "none", "run"}, env)
			out := stderr.String()
			if !strings.Contains(out, fmt.Sprintf("passed over (not recognised): %d", n)) {
				t.Errorf("no count of %d passed over:\n%s", n, out)
			}
			listed := strings.Count(out, "  passed over: run/notes-")
			if want := min(n, 20); listed != want {
				t.Errorf("%d files named as passed over, want %d:\n%s", listed, want, out)
			}
			if more := n - 20; more > 0 && !strings.Contains(out, fmt.Sprintf("… and %d more passed over", more)) {
				t.Errorf("the %d more are not counted:\n%s", more, out)
			}
			var records, used, skipped int
			if _, err := fmt.Sscanf(out[strings.Index(out, "records read: "):], "records read: %d, gave findings: %d, skipped: %d", &records, &used, &skipped); err != nil {
				t.Fatalf("no accounting line: %v\n%s", err, out)
			}
			if records != used+skipped {
				t.Errorf("records read %d != gave findings %d + skipped %d", records, used, skipped)
			}
			if !strings.Contains(out, "of events already read from another record (kept once); the results stand for 1 event") {
				t.Errorf("the events read twice are not said to be kept once:\n%s", out)
			}
		})
	}
}
