package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCollectOutsideRepository: run in a folder that is no git repository, without --root or
// GITHUB_WORKSPACE, collect says so once and places every result on a file that is there (the
// records it read), not on a README.md that is not.
func TestCollectOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output(); err == nil {
		t.Skipf("the temporary folder is inside a git repository (%s)", strings.TrimSpace(string(out)))
	}
	copyInto(t, "../testdata/claude/guard-mix", dir, "run")
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Dir: dir, Getenv: func(string) string { return "" }}
	Main(context.Background(), []string{"agc-sarif", "collect", "-o", "-", "--fail-on", "none", "run"}, env)
	if n := strings.Count(stderr.String(), "no repository root"); n != 1 {
		t.Errorf("stderr says %d times that there is no repository root, want once:\n%s", n, stderr.String())
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Physical struct {
						Artifact struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, stderr.String())
	}
	if len(log.Runs[0].Results) == 0 {
		t.Fatalf("no results:\n%s", stderr.String())
	}
	for _, r := range log.Runs[0].Results {
		uri := r.Locations[0].Physical.Artifact.URI
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(uri))); err != nil {
			t.Errorf("%s is placed on %s, which is not there", r.RuleID, uri)
		}
	}
}

// TestCollectOutsideRepositoryNoFile: outside a repository, with the records on stdin and no file
// in the folder, no result is placed on a file that is not there: the SARIF leaves them out and
// says why, and stderr still lists what was found.
func TestCollectOutsideRepositoryNoFile(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output(); err == nil {
		t.Skipf("the temporary folder is inside a git repository (%s)", strings.TrimSpace(string(out)))
	}
	rec, err := os.ReadFile("../testdata/claude/pre-deny/stream.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: bytes.NewReader(rec), Stdout: &stdout, Stderr: &stderr, Dir: dir, Getenv: func(string) string { return "" }}
	Main(context.Background(), []string{"agc-sarif", "collect", "-o", "-", "--fail-on", "none", "-"}, env)
	var log struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, stderr.String())
	}
	if n := len(log.Runs[0].Results); n != 0 {
		t.Errorf("%d results placed although the folder has no file:\n%s", n, stdout.String())
	}
	for _, want := range []string{"git-safety", "1 finding left out: they name no file in the repository", "no fallback file"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "no fallback file") {
		t.Errorf("the SARIF's notifications do not say why the finding was left out")
	}
	if strings.Contains(stdout.String()+stderr.String(), "README.md") {
		t.Errorf("an output names README.md, which is not there")
	}
}
