package findings

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

func TestSetAddDedupesEvents(t *testing.T) {
	s := NewSet()
	f := Finding{RuleID: "g/r", Target: "Bash.command", EventKey: "claude-code/s/t1/PreToolUse", Message: "m"}
	if !s.Add(f) || s.Add(f) {
		t.Fatal("the same event, rule and target must be added once")
	}
	g := f
	g.Target = "Bash.cwd"
	if !s.Add(g) {
		t.Fatal("another target of the same event is another finding")
	}
	noKey := Finding{RuleID: "g/r"}
	if !s.Add(noKey) || !s.Add(noKey) {
		t.Fatal("findings without an event key are always new")
	}
	if len(s.Findings) != 4 || s.Duplicates != 1 {
		t.Fatalf("findings = %d, duplicates = %d; want 4 and 1", len(s.Findings), s.Duplicates)
	}
}

func TestSetAddUnstructuredUnderTwoNames(t *testing.T) {
	key := "claude-code/s/t1/PreToolUse"
	unnamed := Finding{RuleID: "hook/pretooluse-bash", Kind: Unstructured, Verdict: gates.Block, EventKey: key,
		Message: "denied", Call: &Call{Event: "PreToolUse"}}
	named := Finding{RuleID: "hook/guard.sh", Kind: Unstructured, Verdict: gates.Block, EventKey: key,
		Message: "guard.sh denied", Call: &Call{Event: "PreToolUse", Hook: "scripts/guard.sh"}}
	other := Finding{RuleID: "hook/other.sh", Kind: Unstructured, Verdict: gates.Block, EventKey: key,
		Message: "other.sh denied", Call: &Call{Event: "PreToolUse", Hook: "scripts/other.sh"}}

	// The unnamed record first: the named one replaces its identity in place.
	s := NewSet()
	s.Add(unnamed)
	if s.Add(named) {
		t.Fatal("the named record of the same event must not add a second finding")
	}
	if len(s.Findings) != 1 || s.Findings[0].RuleID != "hook/guard.sh" {
		t.Fatalf("findings = %+v, want one named hook/guard.sh", s.Findings)
	}
	// Another known hook on the same call is another decision.
	if !s.Add(other) {
		t.Fatal("a second, different hook on the same call must be kept")
	}
	// The named record first: the unnamed one is a duplicate.
	s = NewSet()
	s.Add(named)
	if s.Add(unnamed) || len(s.Findings) != 1 || s.Findings[0].RuleID != "hook/guard.sh" {
		t.Fatalf("findings = %+v", s.Findings)
	}
	// Merging sets in input order keeps the same rule.
	a, b := NewSet(), NewSet()
	a.Add(unnamed)
	b.Add(named)
	a.Merge(b)
	if len(a.Findings) != 1 || a.Findings[0].RuleID != "hook/guard.sh" || a.Duplicates != 1 {
		t.Fatalf("merged findings = %+v, duplicates %d", a.Findings, a.Duplicates)
	}
}

func TestSetCounts(t *testing.T) {
	s := NewSet()
	s.Use()
	s.Skip("pass verdict")
	s.Problemf(Source{File: "a.jsonl", Line: 3}, "invalid JSON", "bad %s", "thing")
	if s.Records != 3 || s.Used != 1 || s.Skipped() != 2 {
		t.Fatalf("records %d used %d skipped %d", s.Records, s.Used, s.Skipped())
	}
	if got := s.Problems[0].String(); got != "a.jsonl:3: bad thing" {
		t.Fatalf("problem = %q", got)
	}
	if r := s.SkipReasons(); len(r) != 2 {
		t.Fatalf("reasons = %v", r)
	}
}
