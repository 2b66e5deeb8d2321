package difffilter

import (
	"context"
	"strings"
	"testing"
)

// TestInProcessAgreesWithGit reads the same change with the git binary and in-process (as the
// action's image, which has no git, does) and wants the same files, added lines and hunks.
func TestInProcessAgreesWithGit(t *testing.T) {
	dir, base := testRepo(t)
	// a second change on a branch, so the merge base is not base itself
	git(t, dir, "checkout", "-q", "-b", "feature")
	write(t, dir, "src/new.go", numbered("n", 4)+"n line 5\n")
	git(t, dir, "commit", "-q", "-am", "feature")
	cli, err := Load(context.Background(), dir, base)
	if err != nil {
		t.Fatal(err)
	}
	in, err := loadInProcess(context.Background(), dir, base)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(in.Files(), "|"), strings.Join(cli.Files(), "|"); got != want {
		t.Fatalf("in-process files %q, git's %q", got, want)
	}
	for _, p := range cli.Files() {
		for line := 1; line <= 40; line++ {
			for _, m := range []Mode{Added, DiffContext, File} {
				if g, w := in.Keep(p, line, 0, m), cli.Keep(p, line, 0, m); g != w {
					t.Errorf("%s:%d %s: in-process keeps %v, git %v", p, line, m, g, w)
				}
			}
		}
	}
	if !in.Keep("src/new.go", 5, 0, Added) {
		t.Error("the feature's added line 5 of src/new.go is not an added line in-process")
	}
}

// TestInProcessErrors names the base that cannot be resolved and the folder that is no repository.
func TestInProcessErrors(t *testing.T) {
	dir, _ := testRepo(t)
	if _, err := loadInProcess(context.Background(), dir, "no-such-rev"); err == nil || !strings.Contains(err.Error(), "base no-such-rev") {
		t.Errorf("unknown base: %v", err)
	}
	if _, err := loadInProcess(context.Background(), t.TempDir(), "main"); err == nil || strings.HasSuffix(err.Error(), ": ") {
		t.Errorf("no repository: %v", err)
	}
}
