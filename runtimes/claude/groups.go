package claude

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Several Claude Code records tell of one hook invocation (hook_success, hook_additional_context,
// the refused call's tool_result): they are gathered in a hookGroup per tool call, event and hook
// name, and turned into hook events when the group is complete.

// hookAdder turns one hook event into findings in set, or says why it gave none.
type hookAdder func(ev inputs.HookEvent, opts inputs.Options, set *findings.Set) (bool, string)

// maxOpenGroups bounds the groups waiting for their tool call's result; maxGroupParts bounds the
// answers and contexts one group gathers before it is emitted as it stands.
const (
	maxOpenGroups = 1024
	maxGroupParts = 256
)

// Skip reasons of the Claude Code readers (the shared ones are in package claude).
const (
	skipHookStarted = "hook started (its response follows)"
	skipTooLong     = "record too long"
	skipCutShort    = "record cut short"
)

// groupKey identifies one hook invocation across records.
type groupKey struct{ id, event, name string }

// hookPart is one hook command's own answer inside a group (several hooks may answer one event).
type hookPart struct {
	a       gates.HookAnswer
	line    int
	time    string
	records int
}

// hookGroup gathers the records of the hooks of one event at one tool call.
type hookGroup struct {
	key           groupKey
	event, tool   string
	session, cwd  string
	line          int
	time          string
	parts         []*hookPart
	contexts      []string
	ctxRecords    int
	ctxLine       int
	ref           *refusal
	refRecords    int
	refLine       int
	refTime       string
	otherRecords  int // records that add nothing to the answer (system messages, stops)
	waitForResult bool
}

// hookState is what both Claude Code readers keep while reading one file.
type hookState struct {
	file    string
	opts    inputs.Options
	set     *findings.Set
	add     hookAdder
	calls   *callTable
	groups  map[groupKey]*hookGroup
	open    []*hookGroup   // in order of creation
	loose   int            // open groups that do not wait for a tool_result
	openIDs map[string]int // open groups per tool call id
	session string
	cwd     string
	time    string

	// stream-json only: the call each started hook was assigned to, by hook_id, and the last start.
	started   map[string]string
	lastStart startedHook

	// judgment: the file was named as a reviewing agent's output (Input.Judgment), so its final
	// message is read under the judgment binding even without an agc block; finals counts the
	// final messages (stream-json result messages) read.
	judgment bool
	finals   int
}

// startedHook is the last system/hook_started message; batch is false once another message came.
type startedHook struct {
	name, call string
	batch      bool
}

func newHookState(file string, opts inputs.Options, set *findings.Set, add hookAdder) *hookState {
	if add == nil {
		add = inputs.AddHookEvent
	}
	return &hookState{file: file, opts: opts, set: set, add: add, calls: newCallTable(), groups: map[groupKey]*hookGroup{}, openIDs: map[string]int{}}
}

func (s *hookState) src(line int) findings.Source { return findings.Source{File: s.file, Line: line} }

// problem reports a record that could not be read.
func (s *hookState) problem(rec inputs.Record) {
	reason := skipCutShort
	if rec.Data == nil {
		reason = skipTooLong
	}
	s.set.Problemf(s.src(rec.Line), reason, "%s", rec.Problem)
}

// elidedHookRecord reports a hook record (or a final message) longer than the window whose
// strings had to be cut: its answer is not read from a part of it.
func (s *hookState) elidedHookRecord(line int) {
	s.set.Problemf(s.src(line), skipTooLong, "hook record of more than %d MiB with a value of more than %d KiB: not read whole; skipped",
		inputs.ElideWindow>>20, inputs.ElideKeep>>10)
}

// group returns the open group for the hook record, creating it.
func (s *hookState) group(id, event, name string, line int, time string) *hookGroup {
	event, tool := splitHookName(name, event)
	if !toolEvents[event] {
		id = "" // lifecycle hooks: their toolUseID is a fresh uuid that no other record shares
	}
	k := groupKey{id: id, event: event, name: name}
	if g := s.groups[k]; g != nil {
		if len(g.parts)+len(g.contexts) < maxGroupParts {
			return g
		}
		s.flush(g)
	}
	g := &hookGroup{key: k, event: event, tool: tool, session: s.session, cwd: s.cwd, line: line, time: time}
	if c := s.calls.get(id); c != nil && g.tool == "" {
		g.tool = c.Name
	}
	s.groups[k] = g
	s.open = append(s.open, g)
	s.loose++
	s.openIDs[id]++
	if len(s.open) > maxOpenGroups {
		old := map[*hookGroup]bool{}
		for _, o := range s.open[:len(s.open)/2] {
			old[o] = true
		}
		s.flushWhere(func(h *hookGroup) bool { return old[h] })
	}
	return g
}

// wait marks a group as waiting for its call's tool_result.
func (s *hookState) wait(g *hookGroup) {
	if !g.waitForResult {
		g.waitForResult = true
		s.loose--
	}
}

// flushCall emits the open groups of one tool call that match.
func (s *hookState) flushCall(id string, match func(*hookGroup) bool) {
	if s.openIDs[id] == 0 {
		return
	}
	s.flushWhere(func(g *hookGroup) bool { return g.key.id == id && match(g) })
}

// flushWhere emits the open groups that match, in order.
func (s *hookState) flushWhere(match func(*hookGroup) bool) {
	var keep []*hookGroup
	var done []*hookGroup
	for _, g := range s.open {
		if match(g) {
			done = append(done, g)
		} else {
			keep = append(keep, g)
		}
	}
	if len(done) == 0 {
		return
	}
	s.open = keep
	for _, g := range done {
		delete(s.groups, g.key)
		if !g.waitForResult {
			s.loose--
		}
		if s.openIDs[g.key.id]--; s.openIDs[g.key.id] <= 0 {
			delete(s.openIDs, g.key.id)
		}
		s.emit(g)
	}
}

// flush emits one group now.
func (s *hookState) flush(g *hookGroup) { s.flushWhere(func(h *hookGroup) bool { return h == g }) }

// flushAll emits every open group (end of input).
func (s *hookState) flushAll() { s.flushWhere(func(*hookGroup) bool { return true }) }

// emit turns a complete group into hook events and counts its records.
func (s *hookState) emit(g *hookGroup) {
	for _, p := range g.answers() {
		ev := inputs.HookEvent{Answer: p.a, Source: s.src(p.line), Time: p.time}
		ev.Answer.Event, ev.Answer.Tool = g.event, g.tool
		ev.Call = findings.Call{Runtime: agent.ClaudeCode, Event: g.event, Tool: g.tool, ToolUseID: g.key.id,
			SessionID: g.session, Hook: p.a.Hook, Cwd: g.cwd}
		if c := s.calls.get(g.key.id); c != nil {
			ev.Call.Command, ev.Call.FilePath, ev.Call.Input = c.Command, c.FilePath, c.Input
			ev.Answer.ToolInput = c.Input
		}
		ok, reason := s.add(ev, s.opts, s.set)
		if reason == "" {
			reason = inputs.SkipNoDecision
		}
		for i := 0; i < p.records; i++ {
			if ok {
				s.set.Use()
			} else {
				s.set.Skip(reason)
			}
		}
	}
}

// answers splits a group into one answer per hook command, placing the records that belong to no
// command in particular — additionalContext not found in any stdout, the refusal — with the
// answer that explains them, or in an answer of their own.
func (g *hookGroup) answers() []*hookPart {
	parts := append([]*hookPart(nil), g.parts...)
	// Contexts already carried by a known stdout belong to that answer.
	var resid []string
	for _, c := range g.contexts {
		found := false
		for _, p := range parts {
			if p.a.HasStdout && readStdout(p.a.Stdout).Context == c {
				found = true
				break
			}
		}
		if !found {
			resid = append(resid, c)
		}
	}
	// Records that name no command go with the one answer that has no JSON stdout of its own
	// (a blocking error, a refusal); a failed hook keeps its failure to itself.
	var home *hookPart
	var bare []*hookPart
	for _, p := range parts {
		if p.a.Failed == "" && !(p.a.HasStdout && strings.HasPrefix(strings.TrimSpace(p.a.Stdout), "{")) {
			bare = append(bare, p)
		}
	}
	if len(bare) == 1 {
		home = bare[0]
	}
	newHome := func(line int, time string) *hookPart {
		if home == nil {
			home = &hookPart{line: line, time: time}
			parts = append(parts, home)
		}
		return home
	}
	if len(resid) > 0 {
		h := newHome(g.ctxLine, g.time)
		h.a.AdditionalContext = append(h.a.AdditionalContext, resid...)
	}
	if g.ctxRecords > 0 {
		if len(resid) > 0 || len(parts) == 0 {
			newHome(g.ctxLine, g.time).records += g.ctxRecords
		} else {
			parts[0].records += g.ctxRecords
		}
	}
	if g.ref != nil {
		var explain []*hookPart
		for _, p := range parts {
			if explainsRefusal(p.a, g.ref) {
				explain = append(explain, p)
			}
		}
		if len(explain) == 0 {
			explain = []*hookPart{newHome(g.refLine, g.refTime)}
		}
		for _, p := range explain {
			p.a.Refused, p.a.RefusalText = true, g.ref.Text
			if p.a.Hook == "" {
				p.a.Hook = g.ref.Command
			}
			if p.line == 0 || g.refLine < p.line {
				p.line = g.refLine
			}
			if p.time == "" {
				p.time = g.refTime
			}
		}
		explain[0].records += g.refRecords
	}
	if g.otherRecords > 0 {
		if len(parts) == 0 {
			newHome(g.line, g.time)
		}
		parts[0].records += g.otherRecords
	}
	return parts
}

// explainsRefusal reports whether a hook's own answer is the one that made the runtime refuse.
func explainsRefusal(a gates.HookAnswer, r *refusal) bool {
	switch {
	case r.Command != "" && a.Hook != "":
		return a.Hook == r.Command
	case a.HasExit && a.ExitCode == 2:
		return true
	case a.HasStdout:
		return readStdout(a.Stdout).Denies
	}
	return false
}
