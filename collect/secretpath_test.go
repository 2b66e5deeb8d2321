package collect_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// TestSecretPathIsNoLocation: a reviewer's finding at a file whose name holds a token (the file
// exists) is not shown at that file, since its path cannot be written; the rest of the anchoring
// chain places it (here at the record that reported it), it says why, and the token is in no
// output.
func TestSecretPathIsNoLocation(t *testing.T) {
	dir := t.TempDir()
	tok := secrettest.Join("gh", "p_", secrettest.Fake(400, 36, secrettest.Alnum))
	os.MkdirAll(filepath.Join(dir, "notes"), 0o755)
	os.WriteFile(filepath.Join(dir, "notes", "key-"+tok+".txt"), []byte("a\nb\nc\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("project\n"), 0o644)
	resp := `{"agc":"0.1","gate":{"id":"review","kind":"judgment"},"verdict":"steer","findings":[{"rule":"naming","message":"rename it","location":{"path":"notes/key-` + tok + `.txt","line":2}}]}` + "\n"
	os.WriteFile(filepath.Join(dir, "review.jsonl"), []byte(resp), 0o644)
	o := collectIn(t, dir, time.Minute, "--fail-on", "none", "review.jsonl")
	o.expect(t, 0)
	if strings.Contains(string(o.sarif), tok) || strings.Contains(o.stderr, tok) {
		t.Fatal("the token reached an output")
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Message   struct{ Text string } `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(o.sarif, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("want one result: %v\n%s", err, o.sarif)
	}
	res := log.Runs[0].Results[0]
	if len(res.Locations) != 1 {
		t.Fatalf("want one location, got %d:\n%s", len(res.Locations), o.sarif)
	}
	loc := res.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "review.jsonl" || loc.Region.StartLine != 1 {
		t.Errorf("the result stands at %s:%d, want review.jsonl:1 (the record that reported it): a hidden path is not a location",
			loc.ArtifactLocation.URI, loc.Region.StartLine)
	}
	if !strings.Contains(string(o.sarif), "holds a secret, so it is not shown and not used as the location") {
		t.Errorf("the result does not say why it moved:\n%s", res.Message.Text)
	}
}

// TestSecretInSourceNamesIsRedacted: when two input files report one event, the finding names
// both (properties.sources); a token in one file's name is redacted there too, although the
// names are gathered while merging, after each finding was redacted.
func TestSecretInSourceNamesIsRedacted(t *testing.T) {
	dir := t.TempDir()
	tok := secrettest.Join("gh", "p_", secrettest.Fake(401, 36, secrettest.Alnum))
	log, err := os.ReadFile("../testdata/claude/pre-deny/hook-log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	steer := `{"agc":"0.1","gate":{"id":"git-safety","kind":"runtime"},"verdict":"steer","findings":[{"rule":"force-push","target":"Bash.command","message":"fine, just a note"}],` +
		`"subject":{"runtime":"claude-code","event":"PreToolUse","tool":"Bash","tool_use_id":"toolu_0000RRRRRRRRRRRRRRRRRR","session_id":"96261345-235a-4dd1-a62d-684369d8bf53"}}`
	if err := os.WriteFile(filepath.Join(dir, "a-"+tok+".jsonl"), []byte(steer+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hook-log.jsonl"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	o := collectIn(t, dir, time.Minute, "--fail-on", "none", ".")
	o.expect(t, 0)
	if strings.Contains(string(o.sarif), tok) || strings.Contains(o.stderr, tok) {
		t.Fatal("the token reached an output")
	}
	for _, r := range sarifResults(t, o) {
		if r["ruleId"] != "git-safety/force-push" {
			continue
		}
		props, _ := r["properties"].(map[string]any)
		if got, _ := props["sources"].(string); !strings.HasPrefix(got, "a-") || !strings.HasSuffix(got, ".jsonl, hook-log.jsonl") {
			t.Errorf("properties.sources = %q, want both files, the first one's name redacted", got)
		}
		return
	}
	t.Fatal("no git-safety/force-push result")
}
