package findings

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/gates"
)

func at(path string, line int) *Location { return &Location{Path: path, StartLine: line} }

func blockAt(rule, path string, line int, msg, tm string, srcLine int) Finding {
	return Finding{RuleID: "guard/" + rule, Gate: "guard", Rule: rule, Target: "Bash.command",
		Kind: RuntimeGate, Verdict: gates.Block, Level: Error, Message: msg, Location: at(path, line),
		Source: Source{File: "hooks.jsonl", Line: srcLine}, Time: tm}
}

func TestAggregate(t *testing.T) {
	a1 := blockAt("a", "x.go", 3, "rm -rf /", "2026-01-01T10:00:02Z", 1)
	a2 := blockAt("a", "x.go", 3, "rm -rf ~", "2026-01-01T10:00:01+00:00", 2)
	a3 := blockAt("a", "x.go", 3, "rm -rf .", "2026-01-01T12:00:00+01:00", 3) // 11:00Z
	b := blockAt("b", "x.go", 3, "other rule", "", 4)
	aLine4 := blockAt("a", "x.go", 4, "other line", "", 5)
	aWarn := a1
	aWarn.Level = Warning
	aTarget := a1
	aTarget.Target = "Edit.file_path"
	noLoc := a1
	noLoc.Location = nil

	tests := []struct {
		name      string
		in        []Finding
		wantRules []string // RuleID@line per output finding
		wantCount []int
		check     func(t *testing.T, out []Finding)
	}{
		{name: "empty", in: nil, wantRules: nil, wantCount: nil},
		{name: "single unchanged", in: []Finding{a1}, wantRules: []string{"guard/a@3"}, wantCount: []int{1},
			check: func(t *testing.T, out []Finding) {
				if out[0].Examples != nil || out[0].FirstTime != "" {
					t.Errorf("a lone finding got examples or times: %+v", out[0])
				}
			}},
		{name: "three merge, order kept", in: []Finding{b, a1, a2, aLine4, a3},
			wantRules: []string{"guard/b@3", "guard/a@3", "guard/a@4"}, wantCount: []int{1, 3, 1},
			check: func(t *testing.T, out []Finding) {
				m := out[1]
				if m.Message != "rm -rf /" || m.Source.Line != 1 {
					t.Errorf("merged finding should keep the first event: %q line %d", m.Message, m.Source.Line)
				}
				if m.FirstTime != "2026-01-01T10:00:01+00:00" || m.LastTime != "2026-01-01T12:00:00+01:00" {
					t.Errorf("times = %q .. %q", m.FirstTime, m.LastTime)
				}
				if len(m.Examples) != 3 || m.Examples[2].Message != "rm -rf ." || m.Examples[1].Source.Line != 2 {
					t.Errorf("examples = %+v", m.Examples)
				}
			}},
		{name: "level, target and location split groups", in: []Finding{a1, aWarn, aTarget, noLoc, noLoc},
			wantRules: []string{"guard/a@3", "guard/a@3", "guard/a@3", "guard/a@0"}, wantCount: []int{1, 1, 1, 2}},
		{name: "counts of merged inputs add up", in: func() []Finding {
			x, y := a1, a2
			x.Count, y.Count = 4, 6
			return []Finding{x, y}
		}(), wantRules: []string{"guard/a@3"}, wantCount: []int{10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Aggregate(tt.in, 5)
			if len(out) != len(tt.wantRules) {
				t.Fatalf("got %d findings, want %d", len(out), len(tt.wantRules))
			}
			for i, f := range out {
				line := 0
				if f.Location != nil {
					line = f.Location.StartLine
				}
				if got := fmt.Sprintf("%s@%d", f.RuleID, line); got != tt.wantRules[i] {
					t.Errorf("finding %d = %s, want %s", i, got, tt.wantRules[i])
				}
				if f.Count != tt.wantCount[i] {
					t.Errorf("finding %d count = %d, want %d", i, f.Count, tt.wantCount[i])
				}
			}
			if tt.check != nil {
				tt.check(t, out)
			}
		})
	}
}

func TestAggregateExamplesPreferNewMessages(t *testing.T) {
	var in []Finding
	for i := 0; i < 8; i++ {
		in = append(in, blockAt("a", "x.go", 3, "same", "", i+1))
	}
	in = append(in, blockAt("a", "x.go", 3, "different", "", 9))
	in = append(in, blockAt("a", "x.go", 3, "same", "", 10))
	out := Aggregate(in, 3)
	if len(out) != 1 || out[0].Count != 10 {
		t.Fatalf("got %d findings, count %d", len(out), out[0].Count)
	}
	ex := out[0].Examples
	if len(ex) != 3 {
		t.Fatalf("want 3 examples, got %d", len(ex))
	}
	seen := map[string]bool{}
	for _, e := range ex {
		seen[e.Message] = true
	}
	if !seen["different"] || !seen["same"] || ex[0].Source.Line != 1 {
		t.Errorf("examples = %+v", ex)
	}
}

func TestAggregateTenThousand(t *testing.T) {
	const n = 10000
	in := make([]Finding, n)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range in {
		in[i] = blockAt("a", "x.go", 3, fmt.Sprintf("event %d", i), base.Add(time.Duration(n-i)*time.Second).Format(time.RFC3339), i+1)
	}
	start := time.Now()
	out := Aggregate(in, 5)
	el := time.Since(start)
	if len(out) != 1 {
		t.Fatalf("got %d findings, want 1", len(out))
	}
	f := out[0]
	if f.Count != n || len(f.Examples) != 5 {
		t.Errorf("count %d, %d examples", f.Count, len(f.Examples))
	}
	if f.FirstTime != base.Add(time.Second).Format(time.RFC3339) || f.LastTime != base.Add(n*time.Second).Format(time.RFC3339) {
		t.Errorf("times %s .. %s", f.FirstTime, f.LastTime)
	}
	if el > 2*time.Second {
		t.Errorf("aggregating %d findings took %v", n, el)
	}
}

// TestAggregateOver checks that writing over the input gives what Aggregate gives, which leaves
// its input as it was.
func TestAggregateOver(t *testing.T) {
	var in []Finding
	for i := range 300 {
		in = append(in, blockAt(fmt.Sprint("r", i%7), "x.go", i%5, fmt.Sprint("m", i%3), "2026-01-01T00:00:00Z", i+1))
	}
	in[10].Level = Warning // a group of its own between the others
	before := slices.Clone(in)
	want := Aggregate(in, 5)
	if !reflect.DeepEqual(in, before) {
		t.Fatal("Aggregate changed its input")
	}
	got := AggregateOver(in, 5)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AggregateOver = %d findings, Aggregate %d; they differ", len(got), len(want))
	}
	for _, f := range in[len(got):] {
		if f.RuleID != "" {
			t.Fatalf("a finding merged away is kept past the result: %+v", f)
		}
	}
}

func BenchmarkAggregate(b *testing.B) {
	in := make([]Finding, 10000)
	for i := range in {
		in[i] = blockAt(fmt.Sprint("r", i%50), "x.go", i%7, "m", "2026-01-01T00:00:00Z", i)
	}
	for b.Loop() {
		Aggregate(in, 5)
	}
}
