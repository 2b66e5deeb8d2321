package anchor

import (
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
)

// TestPlacesOnlyOnCommittedFiles: in a git repository a result is placed only on a file tracked
// at the commit or added by the change's diff. An untracked reviewer's output in the workspace
// is passed over for the next step of the chain, and the message says why.
func TestPlacesOnlyOnCommittedFiles(t *testing.T) {
	root, _ := testRepo(t)
	writeFile(t, root, "review.md", "line 1\nline 2\nline 3\nline 4\nline 5\n")
	writeFile(t, root, "untracked.go", "package x\n")

	// Read from the untracked review.md: not placed on it.
	judg := findings.Finding{RuleID: "review/r", Kind: findings.JudgmentGate, Message: "m",
		Source: findings.Source{File: root + "/review.md", Line: 5}}
	got := newAnchorer(t, Options{Root: root}).Anchor(judg)
	if got.Location == nil || got.Location.Path == "review.md" {
		t.Errorf("placed on the untracked review.md: %+v", got.Location)
	}
	if got.Placed != findings.PlacedFallback {
		t.Errorf("placed by %q, want the fallback", got.Placed)
	}

	// Its own location names an untracked file: the next step, saying why.
	own := findings.Finding{RuleID: "review/r", Kind: findings.JudgmentGate, Message: "m",
		Location: &findings.Location{Path: "untracked.go", StartLine: 1}}
	got = newAnchorer(t, Options{Root: root}).Anchor(own)
	if got.Location == nil || got.Location.Path == "untracked.go" {
		t.Errorf("placed on untracked.go: %+v", got.Location)
	}
	if !strings.Contains(got.Anchored, "its own location, untracked.go, is not tracked in the commit") {
		t.Errorf("Anchored %q does not say the file is not tracked", got.Anchored)
	}

	// A tracked file is a place, as before.
	own.Location = &findings.Location{Path: "src/a.go", StartLine: 1}
	if got = newAnchorer(t, Options{Root: root}).Anchor(own); got.Location.Path != "src/a.go" || got.Anchored != "" {
		t.Errorf("tracked src/a.go: %+v %q", got.Location, got.Anchored)
	}

	// A file the change adds is in the commit, though no index lists it.
	d, err := difffilter.Parse(strings.NewReader("diff --git a/review.md b/review.md\nnew file mode 100644\n--- /dev/null\n+++ b/review.md\n" +
		"@@ -0,0 +1,5 @@\n+line 1\n+line 2\n+line 3\n+line 4\n+line 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	got = newAnchorer(t, Options{Root: root, Diff: d}).Anchor(judg)
	if got.Location == nil || got.Location.Path != "review.md" || got.Location.StartLine != 5 {
		t.Errorf("the added review.md is not the place: %+v %q", got.Location, got.Anchored)
	}
}
