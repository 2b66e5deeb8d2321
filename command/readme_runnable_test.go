package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runnableRe finds the README's runnable examples: a ```sh block right after
// `<!-- runnable exit=N -->`.
var runnableRe = regexp.MustCompile("(?s)<!-- runnable exit=(\\d+) -->\n```sh\n(.*?)\n```\n")

// TestReadmeRunnable runs every shell example of the README marked runnable, as written, on a
// fresh copy of the repository (its files as git lists them, nothing built): the block's commands
// run one by one in bash, the first must exit with the marker's status and every later one 0.
func TestReadmeRunnable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command in a fresh copy of the repository")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git to list the repository's files")
	}
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := runnableRe.FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 2 {
		t.Fatalf("README.md has %d runnable examples, want at least 2 (the main job and the preview)", len(blocks))
	}
	repo := freshCopy(t)
	for _, b := range blocks {
		want, _ := strconv.Atoi(b[1])
		for i, line := range strings.Split(b[2], "\n") {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			cmd := exec.Command("bash", "-c", line)
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "GITHUB_STEP_SUMMARY=", "GITHUB_OUTPUT=")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if w := map[bool]int{true: want, false: 0}[i == 0]; code != w {
				t.Errorf("README example %q exited %d, want %d:\n%s", line, code, w, out.String())
			}
		}
	}
}

// freshCopy copies the repository's files (tracked, and new ones git does not ignore) into a
// temporary folder.
func freshCopy(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dst := t.TempDir()
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		src := filepath.Join("..", p)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a symlink
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, p)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}
