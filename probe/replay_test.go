package probe

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// replayWith replays testdata/hook-log.jsonl (a real run of testdata/gate.py, recorded by
// agc-record) against gate.py with edit applied, and returns the origins of the changed calls.
func replayWith(t *testing.T, edit func(string) string) ([]string, *Report) {
	t.Helper()
	src, err := os.ReadFile("testdata/gate.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gate.py"), []byte(edit(string(src))), 0o755); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile("testdata/hook-log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	calls, skipped, err := ReadLog("hook-log.jsonl", bytes.NewReader(log))
	if err != nil || len(skipped) > 0 || len(calls) != 4 {
		t.Fatalf("ReadLog: %d calls, skipped %v, %v", len(calls), skipped, err)
	}
	rep, err := Probe(context.Background(), Options{Argv: []string{"python3", "gate.py"}, Runtimes: []string{"none: replay only"},
		Replay: calls, Runs: 1, Budget: time.Minute, Timeout: 30 * time.Second, Dir: dir, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, f := range rep.Findings {
		if f.Rule == RuleChanged {
			changed = append(changed, f.Case.Origin+": "+f.Message)
		}
	}
	return changed, rep
}

// TestReplayNamesOnlyChangedCalls: replaying a recorded log against the guard that answered it
// changes nothing; against a guard whose curl rule now blocks, only the curl call is named, with
// its verdict and decision before → after.
func TestReplayNamesOnlyChangedCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3")
	}
	same, rep := replayWith(t, func(s string) string { return s })
	if len(same) > 0 {
		t.Errorf("the same guard changed answers: %v", same)
	}
	if rep.Replayed != 4 || rep.Changed != 0 {
		t.Errorf("replayed %d, changed %d; want 4, 0", rep.Replayed, rep.Changed)
	}
	changed, _ := replayWith(t, func(s string) string {
		return strings.Replace(s, `agc("steer", "no-curl-pipe"`, `agc("steer", "no-curl-download"`, 1)
	})
	if len(changed) != 0 {
		t.Errorf("a renamed rule is not a changed answer: %v", changed)
	}
	changed, _ = replayWith(t, func(s string) string {
		return strings.Replace(s, `if cmd.startswith("curl"):`, `if cmd.startswith("curl"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": ev, "permissionDecision": "deny", "permissionDecisionReason": agc("block", "no-curl", "No downloads.", "Bash.command")}}))
    sys.exit(0)`, 1)
	})
	if len(changed) != 1 || !strings.HasPrefix(changed[0], "hook-log.jsonl:2: ") ||
		!strings.Contains(changed[0], "verdict steer → block") || !strings.Contains(changed[0], "decision context → block") {
		t.Errorf("changed calls %q, want only hook-log.jsonl:2 with verdict steer → block and decision context → block", changed)
	}
	if !slices.ContainsFunc(rep.Findings, func(f Finding) bool { return f.Rule == RuleCrash && f.Case.Origin == "hook-log.jsonl:4" }) {
		t.Errorf("the recorded crash (make deploy) is not reported again as probe/crash: %v", rep.Findings)
	}
}
