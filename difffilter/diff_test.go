package difffilter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and no user or system configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", prefix, i)
	}
	return b.String()
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testRepo builds a repository with a base commit and a head commit that changes line 10 of
// src/a.go, adds lines 21-22 at its end, adds src/new.go, deletes gone.go, renames old.txt to
// moved/renamed.txt with line 3 changed, and adds "sp ace/é.go"; it returns the repo and base.
func testRepo(t *testing.T) (string, string) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "src/a.go", numbered("a", 20))
	write(t, dir, "same.go", numbered("s", 10))
	write(t, dir, "gone.go", numbered("g", 3))
	write(t, dir, "old.txt", numbered("o", 30))
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	base := git(t, dir, "rev-parse", "HEAD")
	a := strings.Replace(numbered("a", 20), "a line 10\n", "a line 10 changed\n", 1) + "a line 21\na line 22\n"
	write(t, dir, "src/a.go", a)
	write(t, dir, "src/new.go", numbered("n", 4))
	write(t, dir, "sp ace/é.go", numbered("u", 2))
	if err := os.Remove(filepath.Join(dir, "gone.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "old.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "moved/renamed.txt", strings.Replace(numbered("o", 30), "o line 3\n", "o line three\n", 1))
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "head")
	return dir, base
}

func TestKeep(t *testing.T) {
	dir, base := testRepo(t)
	d, err := Load(context.Background(), dir, base)
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []string{"moved/renamed.txt", "sp ace/é.go", "src/a.go", "src/new.go"}
	if got := d.Files(); strings.Join(got, "|") != strings.Join(wantFiles, "|") {
		t.Errorf("files = %q, want %q", got, wantFiles)
	}
	tests := []struct {
		path       string
		start, end int
		want       string // modes that keep it, in the order added, diff_context, file, nofilter
	}{
		{"src/a.go", 10, 0, "added diff_context file nofilter"},
		{"src/a.go", 9, 0, "diff_context file nofilter"},
		{"src/a.go", 7, 0, "diff_context file nofilter"},
		{"src/a.go", 6, 0, "file nofilter"},
		{"src/a.go", 1, 0, "file nofilter"},
		{"src/a.go", 5, 7, "diff_context file nofilter"},
		{"src/a.go", 1, 30, "added diff_context file nofilter"},
		{"src/a.go", 21, 22, "added diff_context file nofilter"},
		{"src/a.go", 18, 0, "diff_context file nofilter"},
		{"./src/a.go", 22, 0, "added diff_context file nofilter"},
		{`src\a.go`, 22, 0, "added diff_context file nofilter"},
		{"src/a.go", 10, 3, "added diff_context file nofilter"}, // end before start: start alone
		{"src/new.go", 4, 0, "added diff_context file nofilter"},
		{"src/new.go", 5, 0, "file nofilter"},
		{"same.go", 1, 0, "nofilter"},
		{"gone.go", 1, 0, "nofilter"},
		{"moved/renamed.txt", 3, 0, "added diff_context file nofilter"},
		{"moved/renamed.txt", 6, 0, "diff_context file nofilter"},
		{"moved/renamed.txt", 20, 0, "file nofilter"},
		{"old.txt", 3, 0, "nofilter"},
		{"sp ace/é.go", 2, 0, "added diff_context file nofilter"},
		{"src/a.go", 0, 0, "file nofilter"},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range []Mode{Added, DiffContext, File, NoFilter} {
			if d.Keep(tt.path, tt.start, tt.end, m) {
				got = append(got, string(m))
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("Keep(%q, %d, %d) in modes %q, want %q", tt.path, tt.start, tt.end, g, tt.want)
		}
	}
}

func TestLoadRejectsOptionLikeBase(t *testing.T) {
	for _, base := range []string{"", "--output=/tmp/x", "-p", "a\nb"} {
		if _, err := Load(context.Background(), t.TempDir(), base); err == nil {
			t.Errorf("Load(%q) succeeded", base)
		}
	}
}

func TestLoadNoMergeBase(t *testing.T) {
	dir, _ := testRepo(t)
	if _, err := Load(context.Background(), dir, "no-such-rev"); err == nil {
		t.Error("Load with an unknown base succeeded")
	}
	// An orphan branch has no merge base with main: git diff BASE is used instead.
	main := git(t, dir, "rev-parse", "HEAD")
	git(t, dir, "checkout", "-q", "--orphan", "other")
	git(t, dir, "rm", "-q", "-r", "--cached", ".")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "orphan")
	write(t, dir, "src/a.go", numbered("a", 20)+"work tree\n")
	d, err := Load(context.Background(), dir, main)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Keep("src/a.go", 21, 0, Added) {
		t.Errorf("work tree line not seen as added; files %q", d.Files())
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, diff string
		path       string
		line       int
		mode       Mode
		want       bool
		wantErr    bool
	}{
		{name: "no newline marker", diff: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+b\n",
			path: "x", line: 2, mode: Added, want: true},
		{name: "hunk without counts", diff: "--- a/x\n+++ b/x\n@@ -3 +3 @@\n-c\n+C\n", path: "x", line: 3, mode: Added, want: true},
		{name: "pure deletion has no new lines", diff: "--- a/x\n+++ b/x\n@@ -3,2 +2,0 @@\n-c\n-d\n", path: "x", line: 2, mode: DiffContext, want: false},
		{name: "header-like line inside a hunk", diff: "--- a/x\n+++ b/x\n@@ -1,0 +1,2 @@\n+++ b/y\n+z\n", path: "x", line: 2, mode: Added, want: true},
		{name: "quoted path", diff: "diff --git \"a/t\\303\\251.go\" \"b/t\\303\\251.go\"\n--- \"a/t\\303\\251.go\"\n+++ \"b/t\\303\\251.go\"\n@@ -0,0 +1 @@\n+x\n",
			path: "té.go", line: 1, mode: Added, want: true},
		{name: "binary file is in the diff", diff: "diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n",
			path: "img.png", line: 1, mode: File, want: true},
		{name: "malformed hunk", diff: "--- a/x\n+++ b/x\n@@ -a +b @@\n", wantErr: true},
		{name: "crlf", diff: "--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n", path: "x", line: 1, mode: Added, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse(strings.NewReader(tt.diff))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if got := d.Keep(tt.path, tt.line, tt.line, tt.mode); got != tt.want {
				t.Errorf("Keep = %v, want %v (files %q)", got, tt.want, d.Files())
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Added, "default": Added, "added": Added, "diff_context": DiffContext, "file": File, "nofilter": NoFilter} {
		if got, err := ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseMode("all"); err == nil {
		t.Error("ParseMode(all) succeeded")
	}
}

// TestAgreesWithReviewdog writes a SARIF file by hand with results on added, context and
// unchanged lines, has reviewdog (../../shared/tools/sarif-consume) filter it by the same diff in
// each mode, and checks that Keep keeps exactly what reviewdog keeps.
func TestAgreesWithReviewdog(t *testing.T) {
	consume, err := filepath.Abs("../../shared/tools/sarif-consume")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(consume); err != nil || testing.Short() {
		t.Skip("sarif-consume not available")
	}
	dir, base := testRepo(t)
	type res struct {
		id         string
		path       string
		start, end int
	}
	results := []res{
		{"a10", "src/a.go", 10, 0}, {"a9", "src/a.go", 9, 0}, {"a7", "src/a.go", 7, 0},
		{"a6", "src/a.go", 6, 0}, {"a1", "src/a.go", 1, 0}, {"a5-7", "src/a.go", 5, 7},
		{"a1-30", "src/a.go", 1, 30}, {"a6-10", "src/a.go", 6, 10}, {"a22", "src/a.go", 22, 0},
		{"n1", "src/new.go", 1, 0}, {"same1", "same.go", 1, 0}, {"r3", "moved/renamed.txt", 3, 0},
		{"r20", "moved/renamed.txt", 20, 0}, {"u1", "sp ace/é.go", 1, 0},
	}
	var sres []map[string]any
	for _, r := range results {
		region := map[string]any{"startLine": r.start}
		if r.end > 0 {
			region["endLine"] = r.end
		}
		sres = append(sres, map[string]any{
			"ruleId": "t/r", "level": "error", "message": map[string]any{"text": r.id},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": strings.ReplaceAll(r.path, " ", "%20")},
				"region":           region}}},
		})
	}
	doc := map[string]any{"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs": []any{map[string]any{"tool": map[string]any{"driver": map[string]any{"name": "t",
			"rules": []any{map[string]any{"id": "t/r"}}}}, "results": sres}}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	sarifFile := filepath.Join(t.TempDir(), "r.sarif")
	if err := os.WriteFile(sarifFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load(context.Background(), dir, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Mode{Added, DiffContext, File, NoFilter} {
		cmd := exec.Command(consume, sarifFile, "-diff=git diff "+base, "-filter-mode="+string(m))
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("sarif-consume in mode %s: %v\n%s", m, err, stderr.String())
		}
		var kept []string
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			var diag struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal(sc.Bytes(), &diag); err != nil {
				t.Fatalf("reviewdog output %q: %v", sc.Text(), err)
			}
			kept = append(kept, diag.Message)
		}
		var ours []string
		for _, r := range results {
			if d.Keep(r.path, r.start, r.end, m) {
				ours = append(ours, r.id)
			}
		}
		sort.Strings(kept)
		sort.Strings(ours)
		if strings.Join(kept, " ") != strings.Join(ours, " ") {
			t.Errorf("mode %s: reviewdog kept %q, Keep kept %q", m, kept, ours)
		}
		if m == Added {
			want := []string{"a1-30", "a10", "a22", "a6-10", "n1", "r3", "u1"}
			if strings.Join(kept, " ") != strings.Join(want, " ") {
				t.Errorf("added mode: reviewdog kept %q, want exactly the added-line results %q", kept, want)
			}
		}
	}
}

func TestFirstAdded(t *testing.T) {
	dir, base := testRepo(t)
	d, err := Load(context.Background(), dir, base)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path       string
		start, end int
		want       int // 0: none
	}{
		{"src/a.go", 1, 30, 10},
		{"src/a.go", 11, 30, 21},
		{"src/a.go", 22, 0, 22},
		{"src/a.go", 11, 20, 0},
		{"src/a.go", 10, 3, 10}, // end before start: start alone
		{"./src/new.go", 2, 4, 2},
		{"moved/renamed.txt", 1, 30, 3},
		{"same.go", 1, 10, 0},
		{"gone.go", 1, 3, 0},
	}
	for _, tt := range tests {
		got, ok := d.FirstAdded(tt.path, tt.start, tt.end)
		if ok != (tt.want != 0) || got != tt.want {
			t.Errorf("FirstAdded(%q, %d, %d) = %d, %v; want %d", tt.path, tt.start, tt.end, got, ok, tt.want)
		}
	}
	var none *Diff
	if _, ok := none.FirstAdded("src/a.go", 1, 30); ok {
		t.Error("a nil diff found an added line")
	}
}

// InHunk keeps a range only when all of it is on the new side of one hunk (GitHub refuses a
// review comment whose start_line and line are in different hunks or outside the diff).
func TestInHunk(t *testing.T) {
	diff := "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n" +
		"@@ -1,3 +1,4 @@\n a\n+b\n c\n d\n" +
		"@@ -20,2 +21,3 @@\n x\n+y\n z\n"
	d, err := Parse(strings.NewReader(diff))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path       string
		start, end int
		want       bool
	}{
		{"f.py", 2, 0, true},    // the added line
		{"f.py", 1, 4, true},    // the whole first hunk, context included
		{"./f.py", 4, 4, true},  // a context line, path as a finding may give it
		{"f.py", 4, 21, false},  // spans two hunks
		{"f.py", 5, 5, false},   // between the hunks
		{"f.py", 21, 23, true},  // the second hunk
		{"f.py", 23, 24, false}, // runs past the hunk
		{"f.py", 0, 0, false},
		{"g.py", 1, 1, false},
	}
	for _, tt := range tests {
		if got := d.InHunk(tt.path, tt.start, tt.end); got != tt.want {
			t.Errorf("InHunk(%s, %d, %d) = %v, want %v", tt.path, tt.start, tt.end, got, tt.want)
		}
	}
	var none *Diff
	if none.InHunk("f.py", 1, 1) {
		t.Error("a nil diff has hunks")
	}
}
