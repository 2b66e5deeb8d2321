package redact

import (
	"regexp"
	"testing"
)

// TestRulesCompileLazily checks that every embedded rule's regular expression compiles (rules are
// compiled on first use, and one that failed would silently never match).
func TestRulesCompileLazily(t *testing.T) {
	rs, err := defaultRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.rules) < 100 {
		t.Fatalf("%d rules, want the gitleaks set and ours", len(rs.rules))
	}
	for _, r := range rs.rules {
		if r.src == "" {
			continue
		}
		if _, err := regexp.Compile(r.src); err != nil {
			t.Errorf("rule %s: %v", r.id, err)
		}
		if got := r.re().String(); got != r.src {
			t.Errorf("rule %s compiled to %q, want %q", r.id, got, r.src)
		}
	}
	if regexp.MustCompile(neverMatches).MatchString("any text \x00 ü") {
		t.Error("neverMatches matches")
	}
}
