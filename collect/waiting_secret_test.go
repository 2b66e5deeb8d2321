package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// TestWaitingEventsAreRedacted: a token in the command of events that wait for their session's
// edits reaches no output, whether they wait in one read or the inputs are read twice.
func TestWaitingEventsAreRedacted(t *testing.T) {
	root, base := replayRepo(t)
	tok := secrettest.Join("gh", "p_", secrettest.Fake(402, 36, secrettest.Alnum))
	dir := t.TempDir()
	var paths []string
	for _, f := range []string{"hook-log.jsonl", "session.jsonl", "stream.jsonl"} {
		b, err := os.ReadFile(filepath.Join(replayDir, f))
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.ReplaceAll(b, []byte("rm -rf build/"), []byte("rm -rf build/"+tok))
		p := filepath.Join(dir, f)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, max := range []int{0, 1} {
		var stderr bytes.Buffer
		res, err := Run(context.Background(), Config{Paths: paths, Root: root, Dir: root, Redact: true, Base: base, Jobs: 2, maxWaiting: max, Stderr: &stderr})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := json.Marshal(res.Findings)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(fs), "Anchored beside the agent's edit") {
			t.Errorf("maxWaiting %d: no finding waited for an edit", max)
		}
		for _, f := range res.Findings {
			if f.Call != nil && len(f.Call.Input) > 0 {
				t.Errorf("maxWaiting %d: %s keeps its call's input", max, f.RuleID)
			}
		}
		for what, out := range map[string]string{"findings": string(fs), "SARIF": string(res.SARIF), "stderr": stderr.String()} {
			if strings.Contains(out, tok) {
				t.Errorf("maxWaiting %d: the token reached the %s", max, what)
			}
		}
	}
}
