package anchor

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes/claude"
)

// FuzzScanEdits feeds hostile input files to the readers, which hand over the sessions' edits
// as they read (inputs.Options.Edits), read as hook log, transcript and stream-json: nothing may
// fail on what cannot be read, and every edit kept must stand on a line the change added, in the
// repository; an event of a session is then anchored inside the repository.
func FuzzScanEdits(f *testing.F) {
	for _, seed := range []string{
		`{"type":"assistant","sessionId":"s1","cwd":"/p","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"/p/src/b.py","content":"new file line one"}}]}}`,
		`{"time":"2026-01-01T10:00:00Z","input":{"session_id":"s1","tool_name":"Edit","tool_input":{"file_path":"src/a.py","new_string":"    return 42"}}}`,
		"[\n {\"type\":\"assistant\",\"session_id\":\"s1\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"MultiEdit\",\"input\":{\"file_path\":\"../../etc/passwd\",\"edits\":[{\"new_string\":\"root\"}]}}]}}\n]",
		"{\"cwd\":\"/p\"}\n\"Edit\"\x00\n",
	} {
		f.Add([]byte(seed))
	}
	root, d := sessionRepo(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := New(Options{Root: root, Diff: d, ProjectDirs: []string{"/p"}})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "in.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []inputs.Format{inputs.HookLog, claude.Transcript, claude.StreamJSON} {
			readEdits(context.Background(), a, format, "in.jsonl", p) //nolint:errcheck // malformed arrays may error
		}
		for s, ps := range a.edits.by {
			for _, e := range ps {
				if !d.Keep(e.rel, e.line, 0, difffilter.Added) {
					t.Errorf("session %q: edit kept at %s:%d, not an added line", s, e.rel, e.line)
				}
			}
			got := a.Anchor(findings.Finding{RuleID: "g/r", Kind: findings.RuntimeGate, Call: &findings.Call{SessionID: s, Tool: "Bash"}})
			if _, ok := a.Path(got.Location.Path, ""); !ok || !a.isFile(got.Location.Path) {
				t.Errorf("anchored outside the checkout: %+v", got.Location)
			}
		}
	})
}
