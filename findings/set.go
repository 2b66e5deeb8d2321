package findings

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"cmp"
	"crypto/sha256"
	"fmt"
	"slices"
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

// MaxProblemsPerReason is how many problems of one skip reason a set lists; the rest are counted
// (Unlisted) and summed up by ListUnlisted, so that a file of a million bad lines costs no more
// than a file of a few.
const MaxProblemsPerReason = 100

// MaxSources is how many input files a finding names as having reported its event.
const MaxSources = 8

// Set collects what the readers of one or more inputs produced: findings, records skipped with
// their reasons, and problems. Every record a reader reads must end in Add (at least once) via
// Used, or in Skipped, so that Records == Used + skipped records. A Set is not safe for concurrent
// use; give each reader its own and Merge them in input order.
//
// One event reported by several records (hook log and transcript, an agent-written file) is kept
// once: the record with the heaviest verdict wins, whichever was read first, and the finding
// names in Sources the files that reported it. Events are remembered by a hash of their key, so
// the memory of a set grows with its findings, not with the size of their records. A set made by
// NewAggregateSet also merges repeats of one rule at one place as they come (Aggregate), so that
// it grows with the distinct results only.
type Set struct {
	Findings []Finding
	Problems []Problem
	// Records counts records read; Used those that produced findings; Skips the rest by reason.
	Records int
	Used    int
	Skips   map[string]int
	// Duplicates counts findings dropped because another record gave the same event.
	Duplicates int
	// Unlisted counts, per reason, problems past MaxProblemsPerReason: counted in Skips, not kept.
	Unlisted map[string]int
	// LeftOut counts groups an aggregating set dropped to stay within its Bound, LeftOutEvents
	// their events; LeftOutMust keeps one dropped Bound.Must finding of each kind, verdict and
	// severity.
	LeftOut, LeftOutEvents int
	LeftOutMust            []Finding

	events  map[eventID]eventRef // events of findings added, by EventKey+RuleID+Target
	bare    map[eventID][]bareRef
	files   []string // input files named by eventRef.file
	fileIdx map[string]uint32
	listed  map[string]int // problems kept per reason
	reasons []listedAt     // the reason of each problem Problemf listed, for Continue
	agg     *aggregation   // nil: every finding is kept apart
}

// eventID is the hash of an event's identity: the first 96 bits of its SHA-256. Not a fast
// hash: agents write the keys, and a collision with another event's key must not be forgeable.
// 12 bytes rather than 32 keep a million events in about 30 MB.
type eventID [12]byte

func idOf(parts ...string) eventID {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	var id eventID
	copy(id[:], h.Sum(nil))
	return id
}

// eventRef says where the finding of an event is held and how heavy it is.
type eventRef struct {
	slot int32  // index in Findings
	line int32  // line of the record kept
	fw   uint32 // index in files of the record kept << 6 | weight (0–63)
}

func newRef(slot int32, line int, file uint32, weight int8) eventRef {
	return eventRef{slot: slot, line: int32(line), fw: file<<6 | uint32(weight)&63}
}

func (r eventRef) file() uint32      { return r.fw >> 6 }
func (r eventRef) weight() int8      { return int8(r.fw & 63) }
func (r *eventRef) setFile(f uint32) { r.fw = f<<6 | r.fw&63 }

// bareRef is an unstructured finding remembered under EventKey+Verdict: its rule is named after
// the hook command, which some record formats do not keep, so one event may arrive under two names.
type bareRef struct {
	id   eventID // the finding's own event id
	hook eventID // hash of the hook command; zero when unknown
}

// NewSet returns an empty set that keeps every finding apart.
func NewSet() *Set {
	return &Set{Skips: map[string]int{}, Unlisted: map[string]int{}, events: map[eventID]eventRef{},
		bare: map[eventID][]bareRef{}, fileIdx: map[string]uint32{}, listed: map[string]int{}}
}

// weightOf orders findings of one event: the heavier verdict wins, then the heavier level, then
// the record that tells more of the hook (evidenceOf).
func weightOf(f *Finding) int8 {
	return int8((max(f.Verdict.Weight(), 0)*4+f.Level.Weight())*4 + evidenceOf(f)) // 0–63: fits eventRef.fw
}

// evidenceOf ranks what a finding's record tells of the hook, 0–3: its name, its command rather
// than a settings name, its exit status. Of two records of one event that tie otherwise, the one
// that tells more keeps its words (a crash read "command unknown" from one file while another
// names the command).
//
// A judgment's records tell nothing of a hook: the one read from a file the user named as the
// reviewer's output (Finding.Named) tells most, so that it names where the judgment was recorded.
func evidenceOf(f *Finding) int {
	if f.Named {
		return 3
	}
	c := f.Call
	if c == nil {
		return 0
	}
	n := 0
	if c.Hook != "" {
		n++
		if !c.HookIsName {
			n++
		}
	}
	if c.ExitKnown {
		n++
	}
	return n
}

// Add adds a finding. A finding of an event already in the set (same event key, rule and target)
// is a duplicate: the heavier of the two is kept. Add reports whether f added a finding (false for
// a duplicate, even when f took the place of a lighter one). A finding without an EventKey is
// always new.
func (s *Set) Add(f Finding) bool {
	if f.Count == 0 {
		f.Count = 1
	}
	if f.EventKey == "" {
		s.place(f, -1)
		return true
	}
	id := idOf(f.EventKey, f.RuleID, f.Target)
	w := weightOf(&f)
	if ref, ok := s.events[id]; ok {
		s.Duplicates++
		if w <= ref.weight() {
			s.agree(ref.slot, f.Source.File)
			return false
		}
		s.replace(id, ref, f, w)
		return false
	}
	if f.Kind == Unstructured {
		if old, better, ok := s.sameBare(&f); ok {
			s.Duplicates++
			ref := s.events[old]
			if !better {
				s.alias(ref.slot, f.RuleID)
				s.agree(ref.slot, f.Source.File)
				return false
			}
			if ref.slot >= 0 {
				f.Aliases = withAlias(s.Findings[ref.slot].Aliases, s.Findings[ref.slot].RuleID, f.RuleID)
			}
			s.replace(old, ref, f, w)
			s.events[id] = s.events[old]
			return false
		}
		s.rememberBare(&f, id)
	}
	slot := s.place(f, -1)
	s.events[id] = newRef(slot, f.Source.Line, s.fileIndex(f.Source.File), w)
	return true
}

// Known reports whether s holds the event of f already, from a record at least as heavy: then
// Add(f) only counts the duplicate and names f's file among the event's sources, and a caller that
// places findings before it adds them (collect anchors) can skip placing f.
func (s *Set) Known(f *Finding) bool {
	if f.EventKey == "" {
		return false
	}
	ref, ok := s.events[idOf(f.EventKey, f.RuleID, f.Target)]
	return ok && weightOf(f) <= ref.weight()
}

// sameBare finds an unstructured finding the set already holds for the event of f under another
// rule name, because one record knew the hook command and the other did not. better says f
// names the hook and the one held does not. Two different known hooks on one call stay two
// decisions.
func (s *Set) sameBare(f *Finding) (old eventID, better, ok bool) {
	hook, k := hookID(f), idOf(f.EventKey, string(f.Verdict))
	i, ok := s.bareMatch(k, hook)
	if !ok {
		return eventID{}, false, false
	}
	b := &s.bare[k][i]
	if b.hook == (eventID{}) && hook != (eventID{}) {
		b.hook = hook // the event is now known under the hook's name
		return b.id, true, true
	}
	return b.id, false, true
}

func (s *Set) rememberBare(f *Finding, id eventID) {
	k := idOf(f.EventKey, string(f.Verdict))
	s.bare[k] = append(s.bare[k], bareRef{id: id, hook: hookID(f)})
}

// hookID is the hash of the hook command of f; zero when its record does not name the command
// (a settings name is not matched against a command: one record gave that, the other this).
func hookID(f *Finding) eventID {
	if f.Call == nil || f.Call.Hook == "" || f.Call.HookIsName {
		return eventID{}
	}
	return idOf(f.Call.Hook)
}

// alias notes that one record of the event held at slot named it rule.
func (s *Set) alias(slot int32, rule string) {
	if slot < 0 {
		return // left out
	}
	f := &s.Findings[slot]
	f.Aliases = withAlias(f.Aliases, rule, f.RuleID)
}

// withAlias is aliases with rule added, unless it is the finding's own rule id or listed.
func withAlias(aliases []string, rule, own string) []string {
	if rule == own || slices.Contains(aliases, rule) || len(aliases) >= MaxSources {
		return aliases
	}
	return append(slices.Clip(aliases), rule)
}

// replace puts f, the heavier finding of the event id, in place of the one held at ref.
func (s *Set) replace(id eventID, ref eventRef, f Finding, w int8) {
	oldFile := s.files[ref.file()]
	var slot int32
	switch {
	case ref.slot < 0: // its group was left out: the heavier record starts one again
		s.unplace(ref)
		slot = s.place(f, -1)
	case s.agg == nil:
		f.Sources = s.Findings[ref.slot].Sources
		s.Findings[ref.slot] = f
		slot = ref.slot
	default:
		first := s.agg.groups[ref.slot].first
		var prev []string // the files that reported the event before: still its sources
		if int(ref.slot) < len(s.Findings) {
			prev = slices.Clone(s.Findings[ref.slot].Sources)
		}
		s.unplace(ref)
		slot = s.place(f, first)
		defer func() {
			for _, p := range prev {
				s.agree(slot, p)
			}
		}()
	}
	s.events[id] = newRef(slot, f.Source.Line, s.fileIndex(f.Source.File), w)
	s.agree(slot, oldFile)
	s.agree(slot, f.Source.File)
}

// agree notes that file reported the event held at slot too, when it is not the file of the
// finding itself. Sources then lists every file that reported the finding's events.
func (s *Set) agree(slot int32, file string) {
	if slot < 0 {
		return // left out
	}
	f := &s.Findings[slot]
	if len(f.Sources) == 0 {
		if file == f.Source.File {
			return
		}
		addSource(f, f.Source.File)
	}
	addSource(f, file)
}

// addSource names file in f.Sources unless it is named there or MaxSources are.
func addSource(f *Finding, file string) {
	if !slices.Contains(f.Sources, file) && len(f.Sources) < MaxSources {
		f.Sources = append(f.Sources, file)
	}
}

// fileIndex names an input file by a number.
func (s *Set) fileIndex(name string) uint32 {
	if i, ok := s.fileIdx[name]; ok {
		return i
	}
	i := uint32(len(s.files))
	s.files = append(s.files, name)
	s.fileIdx[name] = i
	return i
}

// place stores f as a finding of its own, or, in an aggregating set, merges it into its group;
// it returns the slot in Findings. first orders a group a moved event creates (-1: now).
func (s *Set) place(f Finding, first int) int32 {
	if s.agg == nil {
		s.Findings = append(s.Findings, f)
		return int32(len(s.Findings) - 1)
	}
	return s.agg.place(s, f, first)
}

// unplace takes the event held at ref out of its finding (aggregating sets only).
func (s *Set) unplace(ref eventRef) {
	if ref.slot < 0 {
		s.LeftOutEvents-- // the event was counted with its group left out; it is counted again now
		return
	}
	s.agg.unplace(s, ref.slot, Source{File: s.files[ref.file()], Line: int(ref.line)})
}

// Use counts one record that produced findings.
func (s *Set) Use() { s.Records++; s.Used++ }

// Skip counts one record that produced no finding, with the reason (e.g. "pass verdict",
// "not a hook record", "invalid JSON").
func (s *Set) Skip(reason string) { s.Records++; s.Skips[reason]++ }

// Problemf records a problem at src and counts the record as skipped for reason. Past
// MaxProblemsPerReason problems of one reason, the problem is counted in Unlisted, not kept.
func (s *Set) Problemf(src Source, reason, format string, args ...any) {
	s.Skip(reason)
	if s.listed[reason] >= MaxProblemsPerReason {
		s.Unlisted[reason]++
		return
	}
	s.listed[reason]++
	s.reasons = append(s.reasons, listedAt{len(s.Problems), reason})
	s.Problems = append(s.Problems, Problem{Source: src, Message: fmt.Sprintf(format, args...)})
}

// listedAt is the skip reason of the problem at index at of Problems.
type listedAt struct {
	at     int
	reason string
}

// Sibling returns an empty set made like s: aggregating with s's examples and bound, or keeping every finding apart. A reader that reads parts of one file at once reads
// each part into a sibling and hands them to Continue in file order.
func (s *Set) Sibling() *Set {
	if s.agg == nil {
		return NewSet()
	}
	n := NewAggregateSet(s.agg.max)
	n.agg.bound = s.agg.bound
	return n
}

// Continue merges o, a Sibling that read the part of a file after what s read of it, into s as
// Merge does; o's problems are kept under s's allowance per reason, so that s lists the same
// problems as if it had read both parts itself.
func (s *Set) Continue(o *Set) {
	ps, rs := o.Problems, o.reasons
	o.Problems, o.reasons = nil, nil
	for i, p := range ps {
		for len(rs) > 0 && rs[0].at < i {
			rs = rs[1:]
		}
		if len(rs) == 0 || rs[0].at != i {
			s.Problems = append(s.Problems, p) // not listed by Problemf: no allowance
			continue
		}
		r := rs[0].reason
		if s.listed[r] >= MaxProblemsPerReason {
			s.Unlisted[r]++
			continue
		}
		s.listed[r]++
		s.reasons = append(s.reasons, listedAt{len(s.Problems), r})
		s.Problems = append(s.Problems, p)
	}
	s.Merge(o)
}

// ListUnlisted adds one problem per reason that had problems left unlisted, naming file, and
// forgets the counts; readers of one file call it at the end.
func (s *Set) ListUnlisted(file string) {
	for _, r := range sortedReasons(s.Unlisted) {
		s.Problems = append(s.Problems, Problem{Source: Source{File: file},
			Message: fmt.Sprintf("%s skipped (%s) and not listed", plural.N(s.Unlisted[r], "more record", "more records"), r)})
	}
	clear(s.Unlisted)
	clear(s.listed)
	s.reasons = nil
}

func sortedReasons(m map[string]int) []string {
	rs := make([]string, 0, len(m))
	for r := range m {
		rs = append(rs, r)
	}
	sort.Strings(rs)
	return rs
}

// Skipped is the number of records skipped, over all reasons.
func (s *Set) Skipped() int {
	n := 0
	for _, c := range s.Skips {
		n += c
	}
	return n
}

// Merge adds everything in o to s, keeping o's order after s's; o is not used afterwards.
// Findings of an event that s already holds are duplicates: the heavier is kept.
func (s *Set) Merge(o *Set) {
	switch {
	case s.agg != nil && len(s.Findings) == 0 && len(s.events) == 0:
		s.adopt(o)
	case s.agg != nil:
		s.agg.holding = true // slots must not move while o's events are mapped to them
		s.mergeGroups(o)
		s.agg.holding = false
	default:
		for _, f := range o.Findings {
			s.Add(f)
		}
	}
	s.Duplicates += o.Duplicates
	s.LeftOut += o.LeftOut
	s.LeftOutEvents += o.LeftOutEvents
	for i := range o.LeftOutMust {
		s.keepMust(o.LeftOutMust[i])
	}
	if s.agg != nil && s.agg.full(s) {
		s.evict(s.agg.bound.Max)
	}
	s.Problems = append(s.Problems, o.Problems...)
	s.Records += o.Records
	s.Used += o.Used
	for r, c := range o.Skips {
		s.Skips[r] += c
	}
	for r, c := range o.Unlisted {
		s.Unlisted[r] += c
	}
}

// adopt takes o's findings and events into the empty aggregating set s.
func (s *Set) adopt(o *Set) {
	s.Findings, s.events, s.bare, s.files, s.fileIdx = o.Findings, o.events, o.bare, o.files, o.fileIdx
	s.agg.adopt(o.agg)
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

// sortSources orders each finding's Sources, so that merging in any order names them alike.
func sortSources(fs []Finding) {
	for i := range fs {
		if len(fs[i].Sources) > 1 {
			slices.SortFunc(fs[i].Sources, cmp.Compare[string])
		}
	}
}
