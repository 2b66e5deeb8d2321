package anchor

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// SessionMode says where an event that touched no file is anchored when the change's diff is
// known.
type SessionMode string

// The session anchor modes.
const (
	SessionEdit   SessionMode = "edit"   // beside the session's nearest edit that stands in the diff
	SessionConfig SessionMode = "config" // at the hook's line in its settings, as without a diff
)

// ParseSessionMode checks a --session-anchor value; "" means SessionEdit.
func ParseSessionMode(s string) (SessionMode, error) {
	switch m := SessionMode(strings.ToLower(strings.TrimSpace(s))); m {
	case "":
		return SessionEdit, nil
	case SessionEdit, SessionConfig:
		return m, nil
	}
	return "", fmt.Errorf("unknown session anchor %q (want edit or config)", s)
}

// MaxEdits bounds the edit positions kept over all sessions; later edits are counted, not kept.
const MaxEdits = 1 << 17

// editBinding is the runtime binding whose edit tools include name, nil when none does: its
// ToolCall reads where the edit's file and new text are in the input.
func editBinding(name string) gates.Binding {
	for _, b := range runtimes.Bindings() {
		if slices.Contains(b.EditTools(), name) {
			return b
		}
	}
	return nil
}

// Edit is one edit call of a session as a reader handed it over: what is needed to find where
// it now stands. The Anchorer keeps only that place, never the text.
type Edit struct {
	Session string          // the session's id
	Tool    string          // the edit tool; "" reads the input as Claude Code's
	Source  findings.Source // the record it was read from
	Time    string          // RFC 3339 time of the record, when it had one
	Cwd     string          // the agent's working folder, when the record gives it
	Input   []byte          // the tool input (file_path, new_string, content, edits[])
}

// editPos is where one edit of a session stands in the change.
type editPos struct {
	rel     string    // repo-relative file
	line    int       // first line of the edit that the diff added
	src     string    // input file it was read from
	srcLine int       // line of its record in that file
	at      time.Time // zero when the record had no time
}

// sessionEdits holds the edit positions of every session, in the order they were read.
type sessionEdits struct {
	mu      sync.Mutex
	by      map[string][]editPos
	n       int // positions kept
	dropped int // positions past MaxEdits
}

// AddEdit records where an edit call stands in the change: the first line the diff added inside
// the lines its new text now covers. It reports whether the edit stands in the diff (without a
// diff, or in mode config, nothing is recorded).
func (a *Anchorer) AddEdit(e Edit) bool {
	p, ok := a.PlaceEdit(e)
	if ok {
		a.KeepEdit(p)
	}
	return ok
}

// EditsDropped is how many edit positions were not kept because MaxEdits were.
func (a *Anchorer) EditsDropped() int {
	a.edits.mu.Lock()
	defer a.edits.mu.Unlock()
	return a.edits.dropped
}

func (s *sessionEdits) add(session string, p editPos) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n >= MaxEdits {
		s.dropped++
		return
	}
	if s.by == nil {
		s.by = map[string][]editPos{}
	}
	s.by[session] = append(s.by[session], p)
	s.n++
}

// of returns the positions of a session (shared: not to be changed).
func (s *sessionEdits) of(session string) []editPos {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.by[session]
}

// parseTime reads an RFC 3339 time; the zero time when there is none.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t
}

// When an edit was made, as seen from the event.
const (
	editBefore  = "before"
	editAfter   = "after"
	editUnknown = ""
)

// nearestEdit finds the edit of f's session to anchor f beside: the last edit before the event,
// else the first after it. Edits read from the same input file as the event are ordered by their
// line there; otherwise by time. When neither tells, the session's last edit read is taken.
func (a *Anchorer) nearestEdit(f *findings.Finding) (editPos, string, bool) {
	if a.diff == nil || a.mode != SessionEdit || f.Call == nil || f.Call.SessionID == "" {
		return editPos{}, "", false
	}
	all := a.edits.of(f.Call.SessionID)
	if len(all) == 0 {
		return editPos{}, "", false
	}
	var same []editPos
	for _, e := range all {
		if f.Source.File != "" && e.src == f.Source.File {
			same = append(same, e)
		}
	}
	if len(same) > 0 {
		return nearest(same, func(e editPos) int64 { return int64(e.srcLine) }, int64(f.Source.Line))
	}
	at := parseTime(f.Time)
	var timed []editPos
	for _, e := range all {
		if !e.at.IsZero() {
			timed = append(timed, e)
		}
	}
	if !at.IsZero() && len(timed) > 0 {
		return nearest(timed, func(e editPos) int64 { return e.at.UnixNano() }, at.UnixNano())
	}
	return all[len(all)-1], editUnknown, true
}

// nearest picks, from positions in reading order, the latest whose key is not after the event's
// (ev), else the earliest after it; ties go to the one read last. An edit of the same moment
// counts as before: a record holds an edit and a later call only when they were made together.
func nearest(ps []editPos, key func(editPos) int64, ev int64) (editPos, string, bool) {
	best := -1
	for i, p := range ps {
		if k := key(p); k <= ev && (best < 0 || k >= key(ps[best])) {
			best = i
		}
	}
	if best >= 0 {
		return ps[best], editBefore, true
	}
	for i, p := range ps {
		if best < 0 || key(p) < key(ps[best]) {
			best = i
		}
	}
	return ps[best], editAfter, true
}

// beside anchors f at the first added line of the session's edit e and keeps home, the place
// the rest of the chain gives (the hook's settings line), as its related location, so that its
// identity does not move with the anchor; one sentence says so.
func (a *Anchorer) beside(f findings.Finding, e editPos, when string, why []string, home findings.Finding) findings.Finding {
	var rest []string
	for _, w := range why {
		if w == "the call touched no file" {
			w = "the call itself touched no file"
		}
		rest = append(rest, w)
	}
	msg := fmt.Sprintf("Anchored beside the agent's edit of %s made just %s this call", e.rel, when)
	if when == editUnknown {
		msg = fmt.Sprintf("Anchored beside the agent's last edit of %s in this session", e.rel)
	}
	if len(rest) > 0 {
		msg += "; " + strings.Join(rest, "; ")
	}
	if home.Location != nil {
		at := fmt.Sprintf("%s:%d", home.Location.Path, home.Location.StartLine)
		switch rel, line, exact, ok := a.hookLine(f); {
		case ok && exact && rel == home.Location.Path && line == home.Location.StartLine:
			msg += "; its hook is configured at " + at
		case ok && rel == home.Location.Path && line == home.Location.StartLine:
			msg += "; its hook is configured under the \"hooks\" key at " + at
		default:
			msg += "; without the change's diff it would stand at " + at
		}
	}
	f.Placed = findings.PlacedEdit
	f = a.place(f, e.rel, e.line, msg+".")
	if home.Location != nil {
		f.Related = append(f.Related[:len(f.Related):len(f.Related)], *home.Location)
	}
	return f
}
