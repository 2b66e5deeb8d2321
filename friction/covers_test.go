package friction

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// TestCovers: one allowlist entry covers another when it allows every call the other does, by
// Claude Code's matching of its rules.
func TestCovers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Edit(*.md)", "Edit(docs/*.md)", true},
		{"Edit(docs/*.md)", "Edit(*.md)", false},
		{"Edit(*.md)", "Edit(*.md)", true},
		{"Edit(*.md)", "Edit(src/*.go)", false},
		{"Edit(*.md)", "Read(docs/*.md)", false},
		{"Read(src/**)", "Read(src/app/**)", true},
		{"Read(src/app/**)", "Read(src/**)", false},
		{"Bash(gh pr:*)", "Bash(gh pr view:*)", true},
		{"Bash(gh pr *)", "Bash(gh pr view:*)", true},
		{"Bash(gh pr view:*)", "Bash(gh pr:*)", false},
		{"Bash(gh:*)", "Bash(ghost:*)", false},
		{"Bash(rm:*)", "Bash(rm -rf build)", true},
		{"Bash(rm -rf build)", "Bash(rm:*)", false},
		{"WebFetch", "WebFetch", true},
	} {
		if got := Covers(c.a, c.b); got != c.want {
			t.Errorf("Covers(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestCoveredPatternsMerge: calls that would be allowed by Edit(*.md) and Edit(docs/*.md) are
// one pattern, Edit(*.md), whose allowlist entry is that rule.
func TestCoveredPatternsMerge(t *testing.T) {
	rep := Analyze([]*Call{
		{ID: "a", Session: "s", Tool: "Write", Input: []byte(`{"file_path":"NOTES.md","content":"x"}`), Rungs: Prompted | Denied, Source: findings.Source{File: "t", Line: 1}},
		{ID: "b", Session: "s", Tool: "Write", Input: []byte(`{"file_path":"docs/CHANGES.md","content":"x"}`), Rungs: Prompted | Denied, Source: findings.Source{File: "t", Line: 2}},
	}, 0, Options{Paths: relPaths{}})
	if len(rep.Patterns) != 1 {
		t.Fatalf("%d patterns, want 1: %+v", len(rep.Patterns), rep.Patterns)
	}
	if p := rep.Patterns[0]; p.Pattern != "Edit(*.md)" || p.Count != 2 || p.Rungs.Denied != 2 {
		t.Errorf("pattern %s, %d calls, %d denied; want Edit(*.md), 2, 2", p.Pattern, p.Count, p.Rungs.Denied)
	}
}

// relPaths takes relative paths as repo-relative and refuses absolute ones.
type relPaths struct{}

func (relPaths) Path(p, _ string) (string, bool) { return p, p != "" && p[0] != '/' }

// TestPromptAbsoluteFile: a permission prompt whose hook input names the file absolutely is the
// same call as the model's tool call that names it relatively: counted once.
func TestPromptAbsoluteFile(t *testing.T) {
	tl := NewTimeline()
	tl.Add(inputs.CallEvent{Kind: inputs.CallUse, Source: findings.Source{File: "t", Line: 1}, Session: "s", ID: "A",
		Tool: "Write", Input: []byte(`{"file_path":"docs/NOTES.md","content":"x"}`), Cwd: "/work/repo"})
	tl.Add(inputs.CallEvent{Kind: inputs.CallPrompt, Source: findings.Source{File: "h", Line: 3}, Session: "s",
		Tool: "Write", Input: []byte(`{"content":"x","file_path":"/work/repo/docs/NOTES.md"}`), Cwd: "/work/repo"})
	calls, _ := tl.Calls(nil)
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	if !calls[0].Has(Prompted) {
		t.Errorf("the call is not marked prompted")
	}
}
