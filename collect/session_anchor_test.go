package collect

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/difffilter"
)

// replayDir is the real Claude Code session of testdata/claude/session-anchor: the agent edits
// src/app.py twice and writes src/util.py, and five Bash calls are blocked, repaired, steered or
// let through by a guard whose answer breaks the contract.
const replayDir = "../testdata/claude/session-anchor"

// gitIn runs git in dir with a fixed identity and no user configuration.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// copyInto copies the files of folder from into to.
func copyInto(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(to, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// replayRepo commits the project as it was before the session (files/ and its settings) as the
// base, and the files the agent changed (change/) as the change; it returns the root and base.
func replayRepo(t *testing.T) (string, string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	copyInto(t, filepath.Join(replayDir, "files"), root)
	settings, err := os.ReadFile(filepath.Join(replayDir, "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), settings, 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "base")
	base := gitIn(t, root, "rev-parse", "HEAD")
	copyInto(t, filepath.Join(replayDir, "change"), root)
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "the agent's change")
	return root, base
}

// sarifResult is what the test reads of one SARIF result.
type sarifResult struct {
	RuleID  string `json:"ruleId"`
	Message struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations        []sarifLocation   `json:"locations"`
	RelatedLocations []sarifLocation   `json:"relatedLocations"`
	Fingerprints     map[string]string `json:"partialFingerprints"`
	Properties       map[string]any    `json:"properties"`
}

type sarifLocation struct {
	Physical struct {
		Artifact struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine int `json:"startLine"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

func (l sarifLocation) at() string {
	b, _ := json.Marshal(l.Physical.Region.StartLine)
	return l.Physical.Artifact.URI + ":" + string(b)
}

// runReplay collects the named replay files in root and returns the SARIF and its results by
// their line-independent key.
func runReplay(t *testing.T, root, base string, mode anchor.SessionMode, files []string) ([]byte, map[string]sarifResult) {
	t.Helper()
	var paths []string
	for _, f := range files {
		p, err := filepath.Abs(filepath.Join(replayDir, f))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	res, err := Run(context.Background(), Config{Paths: paths, Root: root, Dir: root, Redact: true, Base: base, SessionAnchor: mode, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unreadable() || len(res.Set.Problems) > 0 {
		t.Fatalf("inputs not read: %v %v %v", res.Missing, res.Files.Unreadable, res.Set.Problems)
	}
	var log struct {
		Runs []struct {
			Results []sarifResult `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(res.SARIF, &log); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]sarifResult{}
	for _, r := range log.Runs[0].Results {
		k := r.Fingerprints["agcFindingKey/v1"]
		if _, dup := byKey[k]; dup || k == "" {
			t.Fatalf("key %q of %s is not unique", k, r.RuleID)
		}
		byKey[k] = r
	}
	return res.SARIF, byKey
}

func sortedKeys(m map[string]sarifResult) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestSessionAnchorReplay checks session anchoring (docs/sarif.md) on the real session: with the base, every result of an
// event that touched no file lies on a line the change added, beside the edit its message names,
// with the hook's line as its related location; an event on a file keeps its place; without a
// base (or with --session-anchor config) placement is as before; the keys are the same in all.
func TestSessionAnchorReplay(t *testing.T) {
	root, base := replayRepo(t)
	diff, err := difffilter.Load(context.Background(), root, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, files := range [][]string{
		{"session.jsonl"}, {"hook-log.jsonl"}, {"stream.jsonl"}, {"hook-log.jsonl", "session.jsonl", "stream.jsonl"},
	} {
		t.Run(strings.Join(files, "+"), func(t *testing.T) {
			_, plain := runReplay(t, root, "", anchor.SessionEdit, files)
			_, config := runReplay(t, root, base, anchor.SessionConfig, files)
			_, beside := runReplay(t, root, base, anchor.SessionEdit, files)
			if a, b, c := sortedKeys(plain), sortedKeys(config), sortedKeys(beside); strings.Join(a, " ") != strings.Join(c, " ") || strings.Join(a, " ") != strings.Join(b, " ") {
				t.Fatalf("keys differ:\nwithout base %v\nconfig       %v\nedit         %v", a, b, c)
			}
			checkBeside(t, diff, plain, config, beside)
		})
	}
}

// checkBeside compares each result with the base to the same result without it.
func checkBeside(t *testing.T, diff *difffilter.Diff, plain, config, beside map[string]sarifResult) {
	t.Helper()
	moved, before, after := 0, 0, 0
	for k, p := range plain {
		b := beside[k]
		if c := config[k]; c.Locations[0].at() != p.Locations[0].at() || c.Message.Text != p.Message.Text {
			t.Errorf("%s: with --session-anchor config at %s, without a base at %s", p.RuleID, c.Locations[0].at(), p.Locations[0].at())
		}
		if p.Properties["tool"] != "Bash" {
			if b.Locations[0].at() != p.Locations[0].at() || len(b.RelatedLocations) != 0 {
				t.Errorf("%s: an event on a file moved from %s to %s", p.RuleID, p.Locations[0].at(), b.Locations[0].at())
			}
			continue
		}
		moved++
		loc := b.Locations[0].Physical
		if !diff.Keep(loc.Artifact.URI, loc.Region.StartLine, 0, difffilter.Added) {
			t.Errorf("%s: at %s, not a line the change added", b.RuleID, b.Locations[0].at())
		}
		if !strings.HasPrefix(p.Locations[0].at(), ".claude/settings.json:") {
			t.Errorf("%s: without a base at %s, want the hook's line", p.RuleID, p.Locations[0].at())
		}
		if len(b.RelatedLocations) != 1 || b.RelatedLocations[0].at() != p.Locations[0].at() {
			t.Errorf("%s: related locations %+v, want the hook's line %s", b.RuleID, b.RelatedLocations, p.Locations[0].at())
		}
		edit := "Anchored beside the agent's edit of " + loc.Artifact.URI + " made just "
		if !strings.Contains(b.Message.Text, edit) || !strings.Contains(b.Message.Text, "the call itself touched no file") ||
			!strings.Contains(b.Message.Text, "[.claude/settings.json:") {
			t.Errorf("%s: message %q does not name the edit and link the hook's line", b.RuleID, b.Message.Text)
		}
		switch {
		case strings.Contains(b.Message.Text, "just before this call"):
			before++
		case strings.Contains(b.Message.Text, "just after this call"):
			after++
		}
	}
	// rm -rf comes before any edit; the repair, steer, .env read, its contract breach and the
	// force-push come after one.
	if moved < 6 || after < 1 || before < 5 || len(plain) != moved+1 {
		t.Errorf("%d results: %d moved (%d beside an earlier edit, %d beside a later one); want 6 moved, 5 and 1", len(plain), moved, before, after)
	}
}

// toolOf is a script of ../shared/tools, or "" when it is absent.
func toolOf(name string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", "shared", "tools", name))
	if err != nil {
		return ""
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestSessionAnchorConsumers has GitHub's own upload client, the Multitool validator and
// reviewdog read the SARIF with the base: it is accepted, and reviewdog, filtering by the diff as
// a pull request does, keeps every result of the session.
func TestSessionAnchorConsumers(t *testing.T) {
	validate, codeql, consume := toolOf("sarif-validate"), toolOf("sarif-codeql"), toolOf("sarif-consume")
	if validate == "" || codeql == "" || consume == "" {
		t.Skip("../shared/tools (sarif-validate, sarif-codeql, sarif-consume) is absent")
	}
	root, base := replayRepo(t)
	files := []string{"hook-log.jsonl", "session.jsonl", "stream.jsonl"}
	data, results := runReplay(t, root, base, anchor.SessionEdit, files)
	file := filepath.Join(t.TempDir(), "agc.sarif")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{{validate, file}, {codeql, file, root}} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", filepath.Base(c[0]), err, out)
		}
	}
	cmd := exec.Command(consume, file, "-diff=git diff "+base)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sarif-consume: %v\n%s", err, out)
	}
	kept := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var d struct {
			Code struct {
				Value string `json:"value"`
			} `json:"code"`
			Location struct {
				Path  string `json:"path"`
				Range struct {
					Start struct {
						Line int `json:"line"`
					} `json:"start"`
				} `json:"range"`
			} `json:"location"`
		}
		if json.Unmarshal([]byte(line), &d) == nil {
			b, _ := json.Marshal(d.Location.Range.Start.Line)
			kept[d.Code.Value+" "+d.Location.Path+":"+string(b)] = true
		}
	}
	for _, r := range results {
		if k := r.RuleID + " " + r.Locations[0].at(); !kept[k] {
			t.Errorf("reviewdog -diff dropped %s (kept %v)", k, kept)
		}
	}
}
