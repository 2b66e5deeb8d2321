package collect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// agcLine is one AGC response with one finding of rule under verdict.
func agcLine(verdict, rule string) string {
	return fmt.Sprintf(`{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":%q,"findings":[{"rule":%q,"message":"m"}]}`, verdict, rule)
}

// runBounded collects the lines, split over files of per lines each, keeping max groups.
func runBounded(t *testing.T, lines []string, per, max int, failOn ...Outcome) *Result {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := 0; i < len(lines); i += per {
		p := filepath.Join(dir, fmt.Sprintf("r%03d.jsonl", i/per))
		if err := os.WriteFile(p, []byte(strings.Join(lines[i:min(i+per, len(lines))], "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	res, err := Run(context.Background(), Config{Paths: paths, Root: dir, Dir: dir, Redact: true, FailOn: failOn, MaxGroups: max, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// rules are the rule ids of fs (after the gate prefix), in order.
func rules(res *Result) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, f.RuleID[strings.LastIndex(f.RuleID, "/")+1:]+fmt.Sprintf("×%d", f.Count))
	}
	return out
}

// TestBoundKeepsHeaviest: past MaxGroups distinct results, the heaviest are kept (the failing
// block first, then the repairs, then the most repeated steer) and the rest are counted, in the
// stderr lines, the SARIF notifications and the set.
func TestBoundKeepsHeaviest(t *testing.T) {
	var lines []string
	for range 5 {
		lines = append(lines, agcLine("steer", "s0"))
	}
	for range 4 {
		lines = append(lines, agcLine("steer", "s1"))
	}
	for i := 2; i < 30; i++ {
		lines = append(lines, agcLine("steer", fmt.Sprintf("s%d", i)))
	}
	lines = append(lines, agcLine("repaired", "r0"), agcLine("repaired", "r1"), agcLine("block", "b0"))
	for _, per := range []int{len(lines), 7} { // one file, and several merged
		res := runBounded(t, lines, per, 4, FailBlock)
		if got, want := rules(res), []string{"b0×1", "r0×1", "r1×1", "s0×5"}; !slices.Equal(got, want) {
			t.Errorf("per %d: kept %v, want %v", per, got, want)
		}
		if res.Set.LeftOut != 29 || res.Set.LeftOutEvents != 32 {
			t.Errorf("per %d: left out %d results, %d events; want 29, 32", per, res.Set.LeftOut, res.Set.LeftOutEvents)
		}
		if res.Set.Records != len(lines) {
			t.Errorf("per %d: %d records counted, want %d", per, res.Set.Records, len(lines))
		}
		if !slices.Equal(res.Failed, []Outcome{FailBlock}) {
			t.Errorf("per %d: failed %v, want block", per, res.Failed)
		}
		want := "29 results (32 events) not kept while reading"
		if len(res.LeftOut) == 0 || !strings.Contains(res.LeftOut[0], want) {
			t.Errorf("per %d: left-out lines %q, want %q", per, res.LeftOut, want)
		}
		if !strings.Contains(string(res.SARIF), want) {
			t.Errorf("per %d: SARIF notifications do not say %q", per, want)
		}
	}
}

// TestBoundRemembersFailing: a failing finding dropped because heavier failing ones fill the
// bound still fails the step, under its own outcome.
func TestBoundRemembersFailing(t *testing.T) {
	lines := []string{agcLine("steer", "s0"), agcLine("block", "b0"), agcLine("block", "b0"), agcLine("block", "b1")}
	res := runBounded(t, lines, len(lines), 1, FailBlock, FailSteer)
	if got, want := rules(res), []string{"b0×2"}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	if !slices.Equal(res.Failed, []Outcome{FailBlock, FailSteer}) {
		t.Errorf("failed %v, want block and steer", res.Failed)
	}
	if res.Set.LeftOut != 2 || res.Set.LeftOutEvents != 2 {
		t.Errorf("left out %d results, %d events; want 2, 2", res.Set.LeftOut, res.Set.LeftOutEvents)
	}
}

// TestBoundKeepsTrusted: agent-written blocks past MaxGroups never push out the reviewer's own
// finding (a steer, from a file named with --judgment): it is kept, first, and marked trusted;
// the agent-written findings are not.
func TestBoundKeepsTrusted(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for i := range 200 {
		lines = append(lines, agcLine("block", fmt.Sprintf("b%d", i)))
	}
	os.WriteFile(filepath.Join(dir, "flood.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "review.md"), []byte("Looks mostly fine.\n\n```agc\n"+
		`{"agc":"0.1","gate":{"id":"reviewer","kind":"judgment"},"verdict":"steer","findings":[{"rule":"naming","message":"trusted"}]}`+"\n```\n"), 0o644)
	res, err := Run(context.Background(), Config{Paths: []string{"flood.jsonl"}, Judgments: []string{"review.md"}, Root: dir, Dir: dir,
		Redact: true, MaxGroups: 10, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) == 0 || res.Findings[0].RuleID != "reviewer/naming" || !res.Findings[0].Trusted {
		t.Fatalf("the reviewer's finding is not kept first and trusted: %v", rules(res))
	}
	for _, f := range res.Findings[1:] {
		if f.Trusted {
			t.Errorf("agent-written %s is trusted", f.RuleID)
		}
	}
}
