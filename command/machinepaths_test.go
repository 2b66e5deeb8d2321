package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// machinePath matches an absolute path of a machine in text people read: the test's own
// temporary folder and checkout, and the folders the real runs were made in (/tmp/…, /home/…,
// the runner's /github/workspace). A Bash command an agent ran is quoted as it ran, so the
// check reads every output but the commands quoted in it (commandQuote).
var machinePath = regexp.MustCompile(`(^|[\s"'(\[\x60=:,])(/tmp/|/home/|/root/|/Users/|/github/|/private/var/|/var/folders/)[^\s"')\]\x60]*`)

// realRuns are the folders of real runtime runs (the replays) the test suite reads through the
// CLI: each entry of each is collected on its own.
var realRuns = []string{"testdata/claude", "testdata/codex", "testdata/gemini", "testdata/copilot", "testdata/qwen", "testdata/friction"}

// TestNoMachinePaths: no output of collect (SARIF, stdout, stderr, the preview's summary and
// annotations) nor of friction (md and json), over every real run of testdata, names the test
// machine's temporary folder or another absolute machine path: files are shown repo-relative,
// or as <outside>/name; inputs as they were named (here, relative to the working folder); hooks
// by their configured command.
func TestNoMachinePaths(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	var cases []string
	for _, dir := range realRuns {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, dir)
		for _, e := range entries {
			if e.IsDir() && e.Name() != "hooks" && e.Name() != "files" {
				cases = append(cases, dir+"/"+e.Name())
			}
		}
	}
	sort.Strings(cases)
	for _, c := range cases {
		t.Run(strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(c, tmp+"/"), "testdata/"), "/", "_"), func(t *testing.T) {
			outs := runOutputs(t, root, tmp, c)
			cmds := sarifCommands(t, outs["x.sarif"])
			for name, text := range outs {
				for _, bad := range []string{tmp, root} {
					if strings.Contains(text, bad) {
						t.Errorf("%s names %s: %s", name, bad, aroundPath(text, bad))
					}
				}
				for _, m := range machinePath.FindAllString(withoutCommands(text, cmds), 3) {
					t.Errorf("%s names a machine path: %q", name, m)
				}
			}
		})
	}
}

// runOutputs collects case c (a folder under root) through the CLI, with the preview, and runs
// friction on it; it returns every output by name.
func runOutputs(t *testing.T, root, tmp, c string) map[string]string {
	t.Helper()
	out := filepath.Join(tmp, "out", strings.ReplaceAll(strings.TrimPrefix(c, tmp), "/", "_"))
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	run := func(name string, args ...string) {
		var stdout, stderr bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Dir: root,
			Getenv: func(string) string { return "" }}
		Main(context.Background(), append([]string{"agc-sarif"}, args...), env)
		outs[name+" stdout"], outs[name+" stderr"] = stdout.String(), stderr.String()
	}
	run("collect", "collect", "--root", root, "-o", filepath.Join(out, "x.sarif"), "--preview", filepath.Join(out, "pv"), c)
	run("friction md", "friction", "--root", root, "--report", "md", c)
	run("friction json", "friction", "--root", root, "--report", "json", c)
	for _, f := range []string{"x.sarif", "pv/summary.md", "pv/annotations.txt", "pv/agc-results.sarif"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		outs[f] = string(b)
	}
	// The preview's own line names the folder it wrote, which the test chose.
	outs["collect stderr"] = strings.ReplaceAll(outs["collect stderr"], filepath.Join(out, "pv"), "PREVIEW")
	return outs
}

// sarifCommands are the Bash commands the results of a SARIF log quote (properties.command), and
// the sides of their repairs: an agent's command is shown as it ran, paths and all (a gate that
// repairs "/abs/scripts/check.sh" to "bash scripts/check.sh" is about that very path).
func sarifCommands(t *testing.T, log string) []string {
	t.Helper()
	var doc struct {
		Runs []struct {
			Results []struct {
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(log), &doc); err != nil {
		t.Fatalf("SARIF does not parse: %v", err)
	}
	var out []string
	for _, r := range doc.Runs {
		for _, res := range r.Results {
			if c, ok := res.Properties["command"].(string); ok && c != "" {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// withoutCommands is text without the commands quoted in it: each of cmds, and what follows
// "command: " or "Repair: " on a line.
func withoutCommands(text string, cmds []string) string {
	for _, c := range cmds {
		text = strings.ReplaceAll(text, c, "COMMAND")
	}
	return commandQuote.ReplaceAllString(text, "COMMAND")
}

// commandQuote matches the rest of a line after "command: " or "Repair: " (a repair's sides are
// commands or file texts).
var commandQuote = regexp.MustCompile(`(command: |Repair: )[^\n\r%]*`)

// aroundPath is up to 80 bytes of text either side of the first bad.
func aroundPath(text, bad string) string {
	i := strings.Index(text, bad)
	lo, hi := max(0, i-80), min(len(text), i+len(bad)+80)
	return text[lo:hi]
}
