package collect_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRepeatsMergeAfterLevels: two events of one rule at one place whose gate gave them
// different severities (error, warning) are read as two groups, since the level is part of a
// group's key; when --fail-on does not fail them both are shown as warnings, so they are one
// result of two events.
func TestRepeatsMergeAfterLevels(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	resp := func(sev, msg string) string {
		return `{"agc":"0.1","gate":{"id":"lint","kind":"runtime"},"verdict":"steer","findings":[{"rule":"style","severity":"` + sev +
			`","message":"` + msg + `","location":{"path":"README.md","line":2}}]}` + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "lint.jsonl"), []byte(resp("error", "first")+resp("warning", "second")), 0o644); err != nil {
		t.Fatal(err)
	}
	o := collectIn(t, dir, time.Minute, "--fail-on", "none", "lint.jsonl")
	o.expect(t, 0)
	rs := sarifResults(t, o)
	if len(rs) != 1 {
		t.Fatalf("%d results, want one of two events:\n%s", len(rs), o.sarif)
	}
	if rs[0]["level"] != "warning" {
		t.Errorf("level %v, want warning", rs[0]["level"])
	}
	if props, _ := rs[0]["properties"].(map[string]any); props["count"] != 2.0 {
		t.Errorf("properties.count = %v, want 2", props["count"])
	}
}
