package findings

import (
	"fmt"
	"sort"
)

// Problem is an input that could not be read as it should: a message naming file and line.
type Problem struct {
	Source  Source `json:"source"`
	Message string `json:"message"`
}

// String renders the problem as "file:line: message".
func (p Problem) String() string {
	if p.Source.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.Source.File, p.Source.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Source.File, p.Message)
}

// Set collects what the readers of one or more inputs produced: findings, records skipped with
// their reasons, and problems. Every record a reader reads must end in Add (at least once) via
// Used, or in Skipped, so that Records == Used + skipped records. A Set is not safe for concurrent
// use; give each reader its own and Merge them in input order.
type Set struct {
	Findings []Finding
	Problems []Problem
	// Records counts records read; Used those that produced findings; Skips the rest by reason.
	Records int
	Used    int
	Skips   map[string]int
	// Duplicates counts findings dropped because an earlier record gave the same event.
	Duplicates int

	seen map[string]bool // EventKey+RuleID+Target of findings already added
	// bare indexes unstructured findings by EventKey+Verdict: their rule is named after the hook
	// command, which some record formats do not keep, so one event may arrive under two names.
	bare map[string][]int
}

// NewSet returns an empty set.
func NewSet() *Set {
	return &Set{Skips: map[string]int{}, seen: map[string]bool{}, bare: map[string][]int{}}
}

// Add appends a finding unless one with the same event key, rule and target is already in the
// set; it reports whether the finding was new (a repeat is counted in Duplicates). A finding
// without an EventKey is always new.
func (s *Set) Add(f Finding) bool {
	if f.Count == 0 {
		f.Count = 1
	}
	if f.EventKey != "" {
		k := f.EventKey + "\x00" + f.RuleID + "\x00" + f.Target
		if s.seen[k] {
			s.Duplicates++
			return false
		}
		s.seen[k] = true
		if f.Kind == Unstructured && s.sameBareEvent(f) {
			s.Duplicates++
			return false
		}
	}
	s.Findings = append(s.Findings, f)
	return true
}

// sameBareEvent reports whether an unstructured finding is an event the set already holds
// under another rule name because one record knew the hook command and the other did not. The
// finding that names the hook wins. Two different known hooks on one call stay two decisions.
func (s *Set) sameBareEvent(f Finding) bool {
	k := f.EventKey + "\x00" + string(f.Verdict)
	for _, i := range s.bare[k] {
		old := &s.Findings[i]
		oldHook, newHook := hookOf(*old), hookOf(f)
		switch {
		case oldHook != "" && newHook != "" && oldHook != newHook:
			continue
		case oldHook == "" && newHook != "":
			// Keep the place in order, take the better-named finding's identity.
			old.RuleID, old.Gate, old.Rule, old.Message, old.Call = f.RuleID, f.Gate, f.Rule, f.Message, f.Call
			s.seen[f.EventKey+"\x00"+f.RuleID+"\x00"+f.Target] = true
		}
		return true
	}
	s.bare[k] = append(s.bare[k], len(s.Findings))
	return false
}

func hookOf(f Finding) string {
	if f.Call == nil {
		return ""
	}
	return f.Call.Hook
}

// Use counts one record that produced findings.
func (s *Set) Use() { s.Records++; s.Used++ }

// Skip counts one record that produced no finding, with the reason (e.g. "pass verdict",
// "not a hook record", "invalid JSON").
func (s *Set) Skip(reason string) { s.Records++; s.Skips[reason]++ }

// Problemf records a problem at src and counts the record as skipped for reason.
func (s *Set) Problemf(src Source, reason, format string, args ...any) {
	s.Problems = append(s.Problems, Problem{Source: src, Message: fmt.Sprintf(format, args...)})
	s.Skip(reason)
}

// Skipped is the number of records skipped, over all reasons.
func (s *Set) Skipped() int {
	n := 0
	for _, c := range s.Skips {
		n += c
	}
	return n
}

// Merge adds everything in o to s, keeping o's order after s's. Findings of an event that s
// already holds are dropped and counted in Duplicates.
func (s *Set) Merge(o *Set) {
	for _, f := range o.Findings {
		s.Add(f)
	}
	s.Duplicates += o.Duplicates
	s.Problems = append(s.Problems, o.Problems...)
	s.Records += o.Records
	s.Used += o.Used
	for r, c := range o.Skips {
		s.Skips[r] += c
	}
}

// SkipReasons returns the skip reasons sorted by count, then name.
func (s *Set) SkipReasons() []string {
	rs := make([]string, 0, len(s.Skips))
	for r := range s.Skips {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if s.Skips[rs[i]] != s.Skips[rs[j]] {
			return s.Skips[rs[i]] > s.Skips[rs[j]]
		}
		return rs[i] < rs[j]
	})
	return rs
}
