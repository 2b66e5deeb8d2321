package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionFromRealRuns collects real Claude Code runs that no test was written from
// (testdata/claude/no-recorder: the recorder not installed, every hook exits 127;
// allow-beside-block: a block sent with allow, a PostToolUse exit-2 "repair", a timeout) and
// wants the job summary to count what the runtime did, by call, and the Session table to give
// one row per call that met a hook, each command once; the headline and the Session section are
// compared with session.want.md beside the run (-update rewrites it).
func TestSessionFromRealRuns(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dir, headline, unguarded string // the headline's counts of gates' claims, and its end
		calls                    []string
	}{
		{"testdata/claude/no-recorder",
			"## AGC gates: 0 blocks enforced, 0 repairs applied, 0 steers delivered, ", ", 5 calls unguarded",
			[]string{"rm -rf site/\\_build", "pip install --user mkdocs-material", "python3 scripts/gen_site.py", "RELEASE.md", "git push --force origin HEAD:gh-pages"}},
		{"testdata/claude/allow-beside-block",
			"## AGC gates: 2 of 3 blocks enforced, 0 of 1 repair applied, 1 steer delivered, ", ", 1 call unguarded",
			[]string{"rm -rf .cache/wheels", "git reset --hard", "cat logs/build.log", "todo.txt", "make test", "CHANGELOG.md"}},
	}
	for _, tc := range cases {
		t.Run(filepath.Base(tc.dir), func(t *testing.T) {
			prev := t.TempDir()
			var out, errb bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: root, Getenv: func(string) string { return "" }}
			args := []string{"agc-sarif", "collect", "--root", root, "-o", filepath.Join(prev, "agc.sarif"), "--fail-on", "none", "--preview", prev, tc.dir}
			if code := Main(context.Background(), args, env); code != ExitOK {
				t.Fatalf("collect: exit %d\n%s", code, errb.String())
			}
			md, err := os.ReadFile(filepath.Join(prev, "summary.md"))
			if err != nil {
				t.Fatal(err)
			}
			got := sessionPart(string(md))
			if head, _, _ := strings.Cut(got, "\n"); !strings.HasPrefix(head, tc.headline) || !strings.HasSuffix(head, tc.unguarded) {
				t.Errorf("headline:\n%s\nwant:\n%s… contract findings%s", head, tc.headline, tc.unguarded)
			}
			var rows []string
			for _, l := range strings.Split(got, "\n") {
				if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| # |") {
					rows = append(rows, l)
				}
			}
			if len(rows) != len(tc.calls) {
				t.Errorf("%d Session rows, want one per call (%d):\n%s", len(rows), len(tc.calls), got)
			}
			for i, c := range tc.calls {
				if n := strings.Count(got, c); n != 1 || i < len(rows) && !strings.Contains(rows[i], c) {
					t.Errorf("call %q: in %d rows, want row %d only", c, n, i+1)
				}
			}
			golden := filepath.Join(root, tc.dir, "session.want.md")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./command -run TestSessionFromRealRuns -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("summary's headline and Session differ from %s (-update rewrites it):\n%s", golden, got)
			}
		})
	}
}

// sessionPart is the summary's headline and its Session section.
func sessionPart(md string) string {
	head, _, _ := strings.Cut(md, "\n")
	i := strings.Index(md, "### Session (")
	if i < 0 {
		return head + "\n"
	}
	sec := md[i:]
	if j := strings.Index(sec[4:], "\n### "); j >= 0 {
		sec = sec[:j+5]
	}
	return head + "\n\n" + sec
}
