package findings

import (
	"fmt"
	"reflect"
	"slices"
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

// steerBlock returns two findings of one event as two files report it: an agent-written file
// says steer, the hook log says block.
func steerBlock() (steer, block Finding) {
	key := "claude-code/s/t1/PreToolUse"
	steer = Finding{RuleID: "g/r", Verdict: gates.Steer, Level: Note, EventKey: key, Message: "steer",
		Source: Source{File: "agent.jsonl", Line: 1}, Location: &Location{Path: "a.go", StartLine: 1}}
	block = steer
	block.Verdict, block.Level, block.Message, block.Source = gates.Block, Error, "block", Source{File: "hook-log.jsonl", Line: 7}
	return steer, block
}

func TestSetHeaviestVerdictWins(t *testing.T) {
	steer, block := steerBlock()
	for _, agg := range []bool{false, true} {
		for _, order := range [][]Finding{{steer, block}, {block, steer}} {
			s := NewSet()
			if agg {
				s = NewAggregateSet(5)
			}
			for _, f := range order {
				s.Add(f)
			}
			s.Compact()
			if len(s.Findings) != 1 || s.Findings[0].Verdict != gates.Block || s.Duplicates != 1 {
				t.Fatalf("aggregate %v, %s first: findings %+v, duplicates %d; want one block", agg, order[0].Verdict, s.Findings, s.Duplicates)
			}
			if got := s.Findings[0].Sources; !reflect.DeepEqual(got, []string{"agent.jsonl", "hook-log.jsonl"}) {
				t.Errorf("aggregate %v, %s first: sources %v, want both files", agg, order[0].Verdict, got)
			}
			if s.Findings[0].Count != 1 {
				t.Errorf("count %d, want 1: one event", s.Findings[0].Count)
			}
		}
	}
}

// TestSetMergeHeaviestVerdictWins merges per-file sets the way collect does: the file read first
// must not downgrade the event, and its group, emptied, must go.
func TestSetMergeHeaviestVerdictWins(t *testing.T) {
	steer, block := steerBlock()
	other := steer
	other.EventKey, other.Source.Line = "claude-code/s/t2/PreToolUse", 2 // a steer of its own
	for _, first := range []string{"steer", "block"} {
		a, b := NewAggregateSet(5), NewAggregateSet(5)
		if first == "steer" {
			a.Add(steer)
			a.Add(other)
			b.Add(block)
		} else {
			a.Add(block)
			b.Add(steer)
			b.Add(other)
		}
		all := NewAggregateSet(5)
		all.Merge(a)
		all.Merge(b)
		all.Compact()
		var verdicts []string
		count := 0
		for _, f := range all.Findings {
			verdicts = append(verdicts, string(f.Verdict))
			count += f.Count
		}
		slices.Sort(verdicts)
		if count != 2 || !slices.Equal(verdicts, []string{"block", "steer"}) || all.Duplicates != 1 {
			t.Fatalf("%s first: findings %v (count %d, duplicates %d), want one block and one steer", first, verdicts, count, all.Duplicates)
		}
		for _, f := range all.Findings {
			if f.Verdict == gates.Block && !reflect.DeepEqual(f.Sources, []string{"agent.jsonl", "hook-log.jsonl"}) {
				t.Errorf("%s first: block sources %v", first, f.Sources)
			}
			if f.Verdict == gates.Steer && (f.Count != 1 || len(f.Sources) != 0) {
				t.Errorf("%s first: the steer of t2 %+v", first, f)
			}
		}
	}
}

func TestSetProblemsBounded(t *testing.T) {
	s := NewSet()
	for i := 0; i < 3*MaxProblemsPerReason; i++ {
		s.Problemf(Source{File: "x.jsonl", Line: i + 1}, "invalid JSON", "bad line")
	}
	s.ListUnlisted("x.jsonl")
	if s.Records != 3*MaxProblemsPerReason || s.Skips["invalid JSON"] != 3*MaxProblemsPerReason {
		t.Fatalf("records %d skips %v: every record must still be counted", s.Records, s.Skips)
	}
	if len(s.Problems) != MaxProblemsPerReason+1 {
		t.Fatalf("%d problems, want %d listed and one sum", len(s.Problems), MaxProblemsPerReason)
	}
	if got := s.Problems[len(s.Problems)-1].String(); got != "x.jsonl: 200 more records skipped (invalid JSON) and not listed" {
		t.Errorf("sum = %q", got)
	}
}

// TestAggregateSetMatchesAggregate checks that merging as findings are added gives what
// Aggregate gives over all of them at the end, whatever the split into per-file sets.
func TestAggregateSetMatchesAggregate(t *testing.T) {
	var fs []Finding
	for i := 0; i < 200; i++ {
		f := Finding{RuleID: []string{"g/a", "g/b", "g/c"}[i%3], Verdict: gates.Steer, Level: Note,
			Message: []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7"}[i%7], Source: Source{File: "f" + string(rune('0'+i/50)), Line: i},
			Location: &Location{Path: "a.go", StartLine: i % 4}, Time: "2026-11-30T10:00:00Z"}
		fs = append(fs, f)
	}
	want := Aggregate(fs, 5)
	all := NewAggregateSet(5)
	for part := 0; part < 4; part++ {
		s := NewAggregateSet(5)
		for _, f := range fs[part*50 : (part+1)*50] {
			s.Add(f)
		}
		all.Merge(s)
	}
	all.Compact()
	if len(all.Findings) != len(want) {
		t.Fatalf("%d groups, want %d", len(all.Findings), len(want))
	}
	for i := range want {
		if all.Findings[i].RuleID != want[i].RuleID || all.Findings[i].Count != want[i].Count || len(all.Findings[i].Examples) != len(want[i].Examples) {
			t.Errorf("group %d = %s ×%d, want %s ×%d", i, all.Findings[i].RuleID, all.Findings[i].Count, want[i].RuleID, want[i].Count)
		}
	}
}

// TestAggregateSetMergeUnderTwoNames merges per-file aggregating sets where one file knew the
// hook command and the other did not: one finding, under the hook's name, whatever the order, and
// a third file repeating the event is a duplicate of it.
func TestAggregateSetMergeUnderTwoNames(t *testing.T) {
	key := "claude-code/s/t1/PreToolUse"
	unnamed := Finding{RuleID: "hook/pretooluse-bash", Kind: Unstructured, Verdict: gates.Block, Level: Error, EventKey: key,
		Message: "denied", Call: &Call{Event: "PreToolUse"}, Source: Source{File: "session.jsonl", Line: 3}}
	named := Finding{RuleID: "hook/guard.sh", Kind: Unstructured, Verdict: gates.Block, Level: Error, EventKey: key,
		Message: "guard.sh denied", Call: &Call{Event: "PreToolUse", Hook: "scripts/guard.sh"}, Source: Source{File: "hook-log.jsonl", Line: 1}}
	for _, order := range [][]Finding{{unnamed, named, unnamed}, {named, unnamed, named}} {
		all := NewAggregateSet(5)
		for i, f := range order {
			s := NewAggregateSet(5)
			f.Source.File = fmt.Sprintf("%d-%s", i, f.Source.File)
			s.Add(f)
			all.Merge(s)
		}
		all.Compact()
		if len(all.Findings) != 1 || all.Findings[0].RuleID != "hook/guard.sh" || all.Findings[0].Count != 1 || all.Duplicates != 2 {
			t.Fatalf("%s first: %+v, duplicates %d; want one hook/guard.sh", order[0].RuleID, all.Findings, all.Duplicates)
		}
		if len(all.Findings[0].Sources) != 3 {
			t.Errorf("%s first: sources %v, want the three files", order[0].RuleID, all.Findings[0].Sources)
		}
	}
}

// TestSetOneHookOneRule: a hook that one record names by its settings name (Gemini CLI's
// telemetry) and another by its command (the recorder's log) is one result, under the rule the
// command gives, with the settings name's rule kept as an alias; in either order, added or merged.
func TestSetOneHookOneRule(t *testing.T) {
	key := "gemini-cli/s/BeforeTool/run_shell_command/abc#1"
	byName := Finding{RuleID: "hook/freeze", Kind: Unstructured, Verdict: gates.Block, Level: Error, EventKey: key,
		Message: `Hook "freeze" blocked`, Source: Source{File: "telemetry.log"},
		Call: &Call{Event: "BeforeTool", Hook: "freeze", HookIsName: true, ExitKnown: true}}
	byCommand := Finding{RuleID: "hook/freeze_guard", Kind: Unstructured, Verdict: gates.Block, Level: Error, EventKey: key,
		Message: `Hook "python3 freeze_guard.py" blocked`, Source: Source{File: "hook-log.jsonl"},
		Call: &Call{Event: "BeforeTool", Hook: "python3 freeze_guard.py", ExitKnown: true}}
	check := func(name string, s *Set) {
		t.Helper()
		if len(s.Findings) != 1 {
			t.Fatalf("%s: %d findings, want 1: %+v", name, len(s.Findings), s.Findings)
		}
		f := s.Findings[0]
		if f.RuleID != "hook/freeze_guard" || f.Message != byCommand.Message || !slices.Equal(f.Aliases, []string{"hook/freeze"}) {
			t.Errorf("%s: rule %s, message %q, aliases %v; want hook/freeze_guard with the command's words, alias hook/freeze",
				name, f.RuleID, f.Message, f.Aliases)
		}
	}
	for _, agg := range []bool{false, true} {
		mk := NewSet
		if agg {
			mk = func() *Set { return NewAggregateSet(3) }
		}
		for _, order := range [][2]Finding{{byName, byCommand}, {byCommand, byName}} {
			s := mk()
			s.Add(order[0])
			s.Add(order[1])
			if agg {
				s.Compact()
			}
			check(fmt.Sprintf("aggregate %v, added %s first", agg, order[0].RuleID), s)
			a, b := mk(), mk()
			a.Add(order[0])
			b.Add(order[1])
			a.Merge(b)
			if agg {
				a.Compact()
			}
			check(fmt.Sprintf("aggregate %v, merged %s first", agg, order[0].RuleID), a)
		}
	}
}

// TestSetTieKeepsTheBestWords: of two records of one event with the same verdict and level, the
// one that names the hook's command and its exit status keeps its message, in either order.
func TestSetTieKeepsTheBestWords(t *testing.T) {
	key := "copilot-cli/s/preToolUse/bash/abc#1"
	unknown := Finding{RuleID: "agc/copilot-hook-failed-closed", Kind: Contract, Level: Warning, EventKey: key,
		Message: `preToolUse hook (command unknown) failed`, Source: Source{File: "events.jsonl"},
		Call: &Call{Event: "preToolUse"}}
	named := unknown
	named.Message, named.Source = `preToolUse hook "guard.py" failed (exit status 1)`, Source{File: "hook-log.jsonl"}
	named.Call = &Call{Event: "preToolUse", Hook: "guard.py", ExitKnown: true}
	for _, order := range [][2]Finding{{unknown, named}, {named, unknown}} {
		s := NewSet()
		s.Add(order[0])
		s.Add(order[1])
		if len(s.Findings) != 1 || s.Findings[0].Message != named.Message {
			t.Errorf("%s first: findings %+v, want one with the recorder's words", order[0].Source.File, s.Findings)
		}
	}
}
