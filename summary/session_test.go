package summary

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// TestSessionCollapsedPast20 gives 25 calls out of order: the Session section lists them by time,
// the first 20 open and the other 5 inside one <details>, and a block whose effect no record
// told says so rather than guess.
func TestSessionCollapsedPast20(t *testing.T) {
	var fs []findings.Finding
	for i := 25; i >= 1; i-- {
		sess := "s1"
		if i%2 == 0 {
			sess = "s2"
		}
		fs = append(fs, findings.Finding{RuleID: "g/r", Gate: "g", Rule: "r", Kind: findings.RuntimeGate, Verdict: gates.Block,
			Level: findings.Error, Message: "no", Count: 1, Time: fmt.Sprintf("2026-12-01T10:00:%02d.5Z", i),
			Call:     &findings.Call{Tool: "Bash", Command: fmt.Sprintf("cmd-%02d", i), SessionID: sess},
			Location: &findings.Location{Path: "a.go", StartLine: i}})
	}
	md := Render(Input{Findings: fs})
	i := strings.Index(md, "### Session (25 calls)")
	if i < 0 {
		t.Fatalf("no Session section:\n%s", md)
	}
	sec := md[i:]
	open, rest, ok := strings.Cut(sec, "<details><summary>5 more calls</summary>")
	if !ok {
		t.Fatalf("the calls past 20 are not collapsed:\n%s", sec)
	}
	if n := strings.Count(open, "| Bash | cmd-"); n != 20 {
		t.Errorf("%d calls open, want 20", n)
	}
	if n := strings.Count(rest[:strings.Index(rest, "</details>")], "| Bash | cmd-"); n != 5 {
		t.Errorf("%d calls collapsed, want 5", n)
	}
	last := -1
	for k := 1; k <= 25; k++ {
		at := strings.Index(sec, fmt.Sprintf("| %d | 10:00:%02d.500 | Bash | cmd-%02d |", k, k, k))
		if at < 0 || at < last {
			t.Fatalf("call %d not listed in order:\n%s", k, sec)
		}
		last = at
	}
	if !strings.Contains(sec, "| cmd-01 | **block** g/r | not recorded |") {
		t.Errorf("call 1's row does not say its effect is not recorded:\n%s", sec)
	}
}
