package inputs

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// TestRecorderTransparent reads the records the real Claude Code wrote with its guard wrapped by
// agc-record, by agc-sarif record, and by env + timeout + agc-record + python3
// (testdata/claude/record-*; made by regen.sh with both binaries on PATH). The hook log, the
// transcript and stream-json read together give exactly one finding per hook event, named after
// the guard: no rule is named after the recorder or a wrapper.
func TestRecorderTransparent(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "claude", "record-*"))
	if len(dirs) < 3 {
		t.Fatalf("want the record-* replays in testdata/claude, found %v", dirs)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			events := countLines(t, filepath.Join(dir, "hook-log.jsonl"))
			if events == 0 {
				t.Fatal("the hook log holds no record")
			}
			all := findings.NewSet()
			for _, file := range []string{"hook-log.jsonl", "session.jsonl", "stream.jsonl"} {
				set, _ := readClaude(t, filepath.Join(dir, file), Options{Registry: testRegistry, IncludeUnstructured: true})
				if len(set.Findings) != events {
					t.Errorf("%s alone: %d findings, want %d (one per event): %v", file, len(set.Findings), events, ruleIDs(set))
				}
				all.Merge(set)
			}
			if len(all.Findings) != events {
				t.Errorf("read together: %d findings, want %d (one per event): %v", len(all.Findings), events, ruleIDs(all))
			}
			keys := map[string]bool{}
			for _, f := range all.Findings {
				if f.RuleID != "hook/gate" {
					t.Errorf("rule %s, want hook/gate (the guard, not its recorder or wrappers)", f.RuleID)
				}
				if f.EventKey == "" || keys[f.EventKey] {
					t.Errorf("finding %s: event key %q empty or seen twice", f.RuleID, f.EventKey)
				}
				keys[f.EventKey] = true
			}
		})
	}
}

// countLines counts the non-empty lines of a file.
func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			n++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}
