package friction

import (
	"bytes"
	"encoding/json"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Rung is one rung of the ladder a call met.
type Rung uint8

// The rungs, as bits of Call.Rungs.
const (
	Block      Rung = 1 << iota // a hook refused the call
	Steer                       // a hook let it through with a note
	Repaired                    // a hook rewrote it
	Prompted                    // it would have asked a person (a PermissionRequest hook ran)
	Denied                      // permissions refused it (not a hook)
	FailedOpen                  // a hook crashed or timed out, and the call ran unguarded
)

// Call is one tool call of a session, as every record of it together tells it.
type Call struct {
	ID, Session, Tool string
	Input             []byte
	Cwd               string
	Message           string          // the model turn's message id ("" when unknown)
	Turn              int             // 1-based model turn in its session
	Source            findings.Source // the record that first named the call
	Rungs             Rung
	Refused           bool // a hook blocked it before it ran, or permissions denied it
	// Rule is the "<gate>/<rule>" of the heaviest gate decision on the call (block, then repaired,
	// then steer); Hook the hook that failed open on it; Runtime the runtime its findings name.
	Rule, Hook, Runtime string
	// Suggestions is the runtime's permission_suggestions for the call's prompt (JSON), if any.
	Suggestions []byte

	order       int // position in its primary source
	primary     bool
	ruleWeight  int      // the weight of the verdict Rule came from
	hookRefused bool     // the runtime told the model a hook refused it
	listed      bool     // stream-json's permission_denials names it
	errText     string   // its tool_result's error text
	idIsKey     bool     // ID is its order key, for want of an id
	names       []string // its names in Timeline.calls
	keys        []string // its order keys
}

// Has reports whether the call met rung r.
func (c *Call) Has(r Rung) bool { return c.Rungs&r != 0 }

// Timeline gathers the tool calls of the records read, keyed by session and tool_use_id, so that
// a call seen in a transcript, in stream-json and in the hook log is one call, and two sessions
// whose runtime numbers calls alike (replays do) keep theirs apart. A runtime whose hook input
// names no call (Gemini CLI, Copilot CLI) has its calls keyed by their order (CallEvent.Key) as
// well: its hook runs, read from the recorder's log or the runtime's own, name no id, and are
// joined to the call its files of calls (which name one) read by that key. It is safe for
// concurrent use (collect reads files in parallel); the order of calls comes from the records,
// not the arrival.
type Timeline struct {
	mu      sync.Mutex
	calls   map[string]*Call          // session + "\x00" + tool_use_id (or "\x01" + order key) → call
	byID    map[string][]*Call        // tool_use_id → its calls, for records that name no session
	byKey   map[string]*Call          // order key → call
	prompts []inputs.CallEvent        // PermissionRequest records: they name no tool_use_id
	perFile map[string]map[string]int // session → file → calls read from it
}

// NewTimeline returns an empty timeline.
func NewTimeline() *Timeline {
	return &Timeline{calls: map[string]*Call{}, byID: map[string][]*Call{}, byKey: map[string]*Call{},
		perFile: map[string]map[string]int{}}
}

// Add takes one event of inputs.Options.Calls.
func (t *Timeline) Add(ev inputs.CallEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ev.Kind == inputs.CallPrompt && ev.ID == "" && ev.Key == "" {
		t.prompts = append(t.prompts, ev)
		return
	}
	if ev.ID == "" && ev.Key == "" {
		return
	}
	c := t.callOf(ev)
	t.fill(c, ev)
	switch ev.Kind {
	case inputs.CallUse, inputs.CallHook:
		if c.Message == "" {
			c.Message = ev.Message
		}
	case inputs.CallResult:
		if ev.IsError {
			c.errText = ev.Text
			c.hookRefused = c.hookRefused || ev.Refused || isHookRefusal(ev.Text)
		}
	case inputs.CallDenied:
		c.listed = true
	case inputs.CallPrompt:
		c.Rungs |= Prompted
	}
}

// callOf finds or makes the call an event is of: by its order key, then by its tool_use_id, so
// that a file of calls (which names both) joins the hook runs of another file (the key only) and
// the other files of calls (the id; a file that records the arguments a hook rewrote numbers the
// call apart). The call is then known by every key and id it was named by.
func (t *Timeline) callOf(ev inputs.CallEvent) *Call {
	var c *Call
	if ev.Key != "" {
		c = t.byKey[ev.Key]
	}
	if ev.ID != "" {
		if d := t.lookup(ev.Session, ev.ID); c == nil {
			c = d
		} else if d != nil && d != c {
			t.merge(c, d) // the key of one file's call, the id of another's: one call
		}
	}
	switch {
	case c == nil && ev.ID != "":
		c = &Call{ID: ev.ID, Source: ev.Source}
		t.name(c, ev.Session+"\x00"+ev.ID)
		t.byID[ev.ID] = append(t.byID[ev.ID], c)
	case c == nil:
		c = &Call{ID: ev.Key, idIsKey: true, Source: ev.Source}
		t.name(c, "\x01"+ev.Key)
	case ev.ID != "" && t.lookup(ev.Session, ev.ID) == nil:
		t.name(c, ev.Session+"\x00"+ev.ID) // an id for a call known by its key so far
		t.byID[ev.ID] = append(t.byID[ev.ID], c)
		if c.idIsKey {
			c.ID, c.idIsKey = ev.ID, false
		}
	}
	if ev.Key != "" && t.byKey[ev.Key] == nil {
		t.byKey[ev.Key] = c
		c.keys = append(c.keys, ev.Key)
	}
	return c
}

// name makes k (in calls) one more name of c; Calls lists a call once whatever its names.
func (t *Timeline) name(c *Call, k string) {
	t.calls[k] = c
	c.names = append(c.names, k)
}

// merge folds call d into c, which takes d's names: a call a file of calls named by its id and a
// number of its own (Gemini's session file numbers a rewritten call by the arguments it ran with)
// that another file names by both the id and the hook runs' number.
func (t *Timeline) merge(c, d *Call) {
	for _, k := range d.names {
		t.name(c, k)
	}
	for _, k := range d.keys {
		t.byKey[k] = c
		c.keys = append(c.keys, k)
	}
	if !d.idIsKey {
		list := t.byID[d.ID][:0]
		for _, x := range t.byID[d.ID] {
			if x != d && x != c {
				list = append(list, x)
			}
		}
		t.byID[d.ID] = append(list, c)
	}
	if c.idIsKey {
		c.ID, c.idIsKey = d.ID, d.idIsKey
	}
	if c.Session == "" {
		c.Session = d.Session
	}
	if c.Tool == "" {
		c.Tool = d.Tool
	}
	if c.Input == nil {
		c.Input = d.Input
	}
	if c.Cwd == "" {
		c.Cwd = d.Cwd
	}
	if c.Message == "" {
		c.Message = d.Message
	}
	if c.Source.Line == 0 {
		c.Source = d.Source
	}
	if c.Suggestions == nil {
		c.Suggestions = d.Suggestions
	}
	if c.errText == "" {
		c.errText = d.errText
	}
	c.Rungs |= d.Rungs
	c.hookRefused = c.hookRefused || d.hookRefused
	c.listed = c.listed || d.listed
}

// lookup finds the call of a session with a tool_use_id; where one side names no session, the
// call of that id that names none either, or the only one.
func (t *Timeline) lookup(session, id string) *Call {
	if c := t.calls[session+"\x00"+id]; c != nil {
		return c
	}
	list := t.byID[id]
	for _, c := range list {
		if c.Session == "" && session != "" {
			t.name(c, session+"\x00"+id)
			return c
		}
	}
	if session == "" && len(list) == 1 {
		return list[0]
	}
	return nil
}

// fill completes what the call's earlier records left out.
func (t *Timeline) fill(c *Call, ev inputs.CallEvent) {
	if c.Session == "" {
		c.Session = ev.Session
	}
	if c.Tool == "" {
		c.Tool = ev.Tool
	}
	if c.Input == nil {
		c.Input = ev.Input
	}
	if c.Cwd == "" {
		c.Cwd = ev.Cwd
	}
	if ev.Kind == inputs.CallUse || ev.Kind == inputs.CallHook {
		files := t.perFile[ev.Session]
		if files == nil {
			files = map[string]int{}
			t.perFile[ev.Session] = files
		}
		files[ev.Source.File]++
		if ev.Kind == inputs.CallUse || c.Source.File == ev.Source.File {
			if c.Source.Line == 0 || ev.Source.File != c.Source.File || ev.Source.Line < c.Source.Line {
				c.Source = ev.Source
			}
		}
	}
}

// isHookRefusal reports whether a tool_result's error text is the runtime saying a hook refused
// the call ("PreToolUse:Bash hook error: …").
func isHookRefusal(text string) bool {
	head, _, ok := strings.Cut(text, " hook error: ")
	return ok && !strings.ContainsAny(head, " \n") && strings.Contains(head, ":")
}

// permissionTexts are how Claude Code tells the model that permissions, not a hook, refused a call.
var permissionTexts = []string{"requires approval", "needs approval", "haven't granted it yet",
	"permission to use", "was denied by the user", "has been denied"}

// isPermissionRefusal reports whether a tool_result's error text is a permission refusal.
func isPermissionRefusal(text string) bool {
	if isHookRefusal(text) {
		return false
	}
	low := strings.ToLower(text)
	for _, p := range permissionTexts {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// Calls joins the findings to their calls, matches permission prompts to calls, and returns the
// calls in session order with their rungs. Findings that name no call read here are counted in
// the second result.
func (t *Timeline) Calls(fs []findings.Finding) ([]*Call, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	unmatched := 0
	for i := range fs {
		if !t.applyFinding(&fs[i]) {
			unmatched++
		}
	}
	t.matchPrompts()
	out := make([]*Call, 0, len(t.calls))
	seen := make(map[*Call]bool, len(t.calls))
	for _, c := range t.calls {
		if seen[c] {
			continue // the same call under a second name (a session learnt later)
		}
		seen[c] = true
		if c.listed || isPermissionRefusal(c.errText) {
			if !c.hookRefused && !c.Has(Block) {
				c.Rungs |= Denied
			}
		}
		c.Refused = c.Has(Denied) || c.hookRefused
		out = append(out, c)
	}
	t.order(out)
	return out, unmatched
}

// applyFinding adds a finding's rung to its call; it reports false when no call read here is the
// finding's.
func (t *Timeline) applyFinding(f *findings.Finding) bool {
	if f.Call == nil || f.Call.ToolUseID == "" && f.Call.Key == "" {
		return f.Kind == findings.Contract && f.RuleID != "agc/hook-failed-open"
	}
	var c *Call
	if f.Call.Key != "" {
		c = t.byKey[f.Call.Key]
	}
	if c == nil && f.Call.ToolUseID != "" {
		c = t.lookup(f.Call.SessionID, f.Call.ToolUseID)
	}
	if c == nil && f.Call.ToolUseID != "" && f.Call.SessionID != "" {
		c = t.lookup("", f.Call.ToolUseID)
	}
	if c == nil {
		return false
	}
	if c.Tool == "" {
		c.Tool = f.Call.Tool
	}
	if c.Runtime == "" {
		c.Runtime = f.Call.Runtime
	}
	if f.RuleID == "agc/hook-failed-open" {
		c.Rungs |= FailedOpen
		if c.Hook == "" {
			c.Hook = f.Call.Hook
		}
		return true
	}
	if w := verdictWeight[f.Verdict]; w > c.ruleWeight {
		c.Rule, c.ruleWeight = f.RuleID, w
	}
	before := f.Call.Event == "" || f.Call.Event == "PreToolUse" || f.Call.Event == "PermissionRequest"
	switch f.Verdict {
	case gates.Block:
		c.Rungs |= Block
		c.hookRefused = c.hookRefused || before
	case gates.Steer:
		c.Rungs |= Steer
	case gates.Repaired:
		c.Rungs |= Repaired
	}
	return true
}

// verdictWeight orders the verdicts a call's Rule is taken from.
var verdictWeight = map[gates.Verdict]int{gates.Steer: 1, gates.Repaired: 2, gates.Block: 3}

// matchPrompts gives each PermissionRequest record to the call it was for: same session, tool
// and input, the nearest call read before it in the same file when there is one. A prompt no
// call matches stands as a call of its own.
func (t *Timeline) matchPrompts() {
	for i, p := range t.prompts {
		key := canonicalAt(p.Input, p.Cwd)
		var best *Call
		for _, c := range t.calls {
			if c.Tool != p.Tool || c.Session != p.Session || c.Has(Prompted) || canonicalAt(c.Input, c.Cwd) != key {
				continue
			}
			if best == nil || nearer(c, best, p.Source) {
				best = c
			}
		}
		if best == nil {
			id := "prompt:" + p.Source.File + ":" + strconv.Itoa(p.Source.Line) + ":" + strconv.Itoa(i)
			best = &Call{ID: id, Session: p.Session, Tool: p.Tool, Input: p.Input, Cwd: p.Cwd, Source: p.Source}
			t.name(best, p.Session+"\x00"+id)
			files := t.perFile[p.Session]
			if files == nil {
				files = map[string]int{}
				t.perFile[p.Session] = files
			}
			files[p.Source.File]++
		}
		best.Rungs |= Prompted
		if best.Suggestions == nil {
			best.Suggestions = p.Suggestions
		}
	}
}

// nearer reports whether call a is a better match than b for a prompt read at src: read from
// the same file just before it, else the earlier call.
func nearer(a, b *Call, src findings.Source) bool {
	before := func(c *Call) bool { return c.Source.File == src.File && c.Source.Line <= src.Line }
	if before(a) != before(b) {
		return before(a)
	}
	if before(a) {
		return a.Source.Line > b.Source.Line
	}
	return less(a.Source, b.Source)
}

// order sorts calls by session, then by their place in the session's primary source (the file
// that holds most of its calls), and numbers the model turns.
func (t *Timeline) order(calls []*Call) {
	primary := map[string]string{}
	for s, files := range t.perFile {
		best := ""
		for f, n := range files {
			if best == "" || n > files[best] || n == files[best] && f < best {
				best = f
			}
		}
		primary[s] = best
	}
	for _, c := range calls {
		c.primary = c.Source.File == primary[c.Session]
	}
	sort.Slice(calls, func(i, j int) bool {
		a, b := calls[i], calls[j]
		if a.Session != b.Session {
			return a.Session < b.Session
		}
		if a.primary != b.primary {
			return a.primary
		}
		if !less(a.Source, b.Source) && !less(b.Source, a.Source) {
			return a.ID < b.ID
		}
		return less(a.Source, b.Source)
	})
	turn, last, session := 0, "", ""
	for i, c := range calls {
		if c.Session != session {
			turn, last, session = 0, "", c.Session
		}
		if c.Message == "" || c.Message != last {
			turn++
		}
		last = c.Message
		c.Turn, c.order = turn, i
	}
}

// less orders record sources by file, then line.
func less(a, b findings.Source) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Line < b.Line
}

// pathFields are the tool-input fields that name a file: a runtime resolves a relative one
// against the call's working folder, and its hook input names it absolute.
var pathFields = []string{"file_path", "path", "notebook_path"}

// canonicalAt is the tool input as the runtime runs it: canonical, with the file it names
// resolved against cwd, so that the model's call (docs/a.md) and the hook input of the same call
// (/repo/docs/a.md) compare equal.
func canonicalAt(b []byte, cwd string) string {
	var m map[string]any
	if cwd == "" || json.Unmarshal(b, &m) != nil {
		return canonical(b)
	}
	for _, k := range pathFields {
		if p, ok := m[k].(string); ok && p != "" && !path.IsAbs(p) {
			m[k] = path.Join(cwd, p)
		}
	}
	out, _ := json.Marshal(m)
	return string(out)
}

// canonical is a JSON value re-encoded with sorted keys, so that equal inputs compare equal.
func canonical(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(bytes.TrimSpace(b))
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// Report joins the findings to the calls and analyses them (Calls, then Analyze).
func (t *Timeline) Report(fs []findings.Finding, opts Options) Report {
	calls, unmatched := t.Calls(fs)
	return Analyze(calls, unmatched, opts)
}
