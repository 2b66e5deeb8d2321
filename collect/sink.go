package collect

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/redact"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// The one pass and the one redaction boundary (docs/architecture-read.md): every reader hands
// what it finds to the run's sink (inputs.Sink), files and parts of files at once. The sink
// anchors and redacts each finding and puts it into the reader's set, places each edit call for
// --base, and passes the tool calls and findings, redacted, to the Consumer that reads the same
// pass (the friction ladder). It holds the run's only Redactor: readers redact nothing of their
// own, and the few texts a reader cuts for a message it cuts after the sink's Redact, so that no
// cut splits a secret. What the run writes besides findings (problems, file names, notes) is
// redacted by the sink's output step (output) before any of it is shown.

// Consumer reads the same pass of the inputs as collect: every tool-call event and every finding,
// redacted, as they are read (before anchoring and merging). It is called from several
// goroutines at once.
type Consumer interface {
	Call(inputs.CallEvent)
	Finding(findings.Finding)
}

// sink is the run's inputs.Sink (see above).
type sink struct {
	cfg      Config
	red      *redact.Redactor
	anc      *anchor.Anchorer
	calls    *callMemo
	fallback func() *findings.Location
	consumer Consumer    // nil: nothing else reads the pass
	pending  *pending    // what the consumer is handed, per file, until the file is merged
	edits    *editGather // nil: edit calls are not asked for
	wait     *waiting    // nil: every finding is anchored as it is read
	ledger   *ledger     // the call model the summary counts from
	// trusted are the names of the files the user named as a reviewer's output (--judgment):
	// their findings are Trusted.
	trusted map[string]bool
}

// newSink makes the run's sink: anchoring to a file of the checkout at res.Root (with the change's
// diff when there is one), redaction of every field, and with the diff the edits and the events
// that wait for them (waiting.go).
func newSink(cfg Config, res *Result, files []file) (*sink, error) {
	red := NewRedactor(cfg.Redact)
	calls := &callMemo{red: red, seed: maphash.MakeSeed()}
	anc, err := anchor.New(anchor.Options{
		Root:        res.Root,
		RootGuessed: res.RootGuessed,
		ProjectDirs: projectDirs(cfg),
		Workflow:    cfg.Getenv("GITHUB_WORKFLOW_REF"),
		InputDir:    cfg.Dir,
		Diff:        res.Diff,
		Session:     cfg.SessionAnchor,
		Input:       calls.input, // redacted when anchoring reads it, not for every finding
		Inputs:      inputPaths(files, red),
	})
	if err != nil {
		return nil, fmt.Errorf("repository root %s: %w", res.Root, err)
	}
	s := &sink{cfg: cfg, red: red, anc: anc, calls: calls, consumer: cfg.Consumer, pending: &pending{byFile: map[string][]func(){}}, ledger: newLedger(),
		fallback: sync.OnceValue(func() *findings.Location { return anc.Anchor(findings.Finding{}).Location }),
		trusted:  map[string]bool{}}
	for _, f := range files {
		if f.Judgment {
			s.trusted[f.Name] = true
		}
	}
	if res.Diff != nil && cfg.SessionAnchor != anchor.SessionConfig {
		s.edits = newEditGather(anc, files)
		s.wait = &waiting{max: waitingBound(cfg)}
	}
	return s, nil
}

// inputPaths are the paths of the files to read (the first 64), but for names that hold a secret.
func inputPaths(files []file, red *redact.Redactor) []string {
	out := make([]string, 0, min(len(files), 64))
	for i := 0; i < len(files) && len(out) < 64; i++ { // the first that lies in the root is the one used
		if red.String(files[i].Path) == files[i].Path { // a name that holds a secret is no place to show
			out = append(out, files[i].Path)
		}
	}
	return out
}

// again is the sink of the second pass (waiting.go): the same anchoring and redaction, every edit
// known, nothing waiting, and no consumer (it had the first pass).
func (s *sink) again() *sink {
	return &sink{cfg: s.cfg, red: s.red, anc: s.anc, calls: s.calls, fallback: s.fallback, ledger: s.ledger, trusted: s.trusted}
}

// Finding takes one finding a reader read into set (inputs.Sink).
func (s *sink) Finding(set *findings.Set, f findings.Finding) bool {
	f.Trusted = s.trusted[f.Source.File]
	if s.consumer != nil {
		g := s.forConsumer(f)
		s.pending.add(f.Source.File, func() { s.consumer.Finding(g) })
	}
	if f.Kind == findings.Unstructured && !s.cfg.IncludeUnstructured {
		return false // read for the consumer only
	}
	s.noteCall(f)
	if s.wait != nil && s.wait.full.Load() {
		return true // past the bound: the second pass places it
	}
	if set.Known(&f) {
		set.Add(f) // a lighter record of an event the set holds: counted, nothing placed
		return true
	}
	set.Add(s.place(f))
	return true
}

// Call passes one tool-call event, redacted, to the consumer (inputs.Sink).
func (s *sink) Call(ev inputs.CallEvent) {
	if s.consumer == nil {
		return
	}
	file := ev.Source.File
	r := s.red.String
	ev.Source.File, ev.Time, ev.Session, ev.Cwd = r(ev.Source.File), r(ev.Time), r(ev.Session), r(ev.Cwd)
	ev.Message, ev.ID, ev.Key, ev.Tool, ev.Text = r(ev.Message), r(ev.ID), r(ev.Key), r(ev.Tool), r(ev.Text)
	if ev.Input != nil {
		ev.Input = s.calls.input(ev.Input)
	}
	if ev.Suggestions != nil {
		ev.Suggestions = s.calls.input(ev.Suggestions)
	}
	s.pending.add(file, func() { s.consumer.Call(ev) })
}

// merged hands the consumer what was read from the file name, once the file is merged: the
// consumer is handed the pass in the order of the files, as one read of them in turn would hand
// it, however many are read at once.
func (s *sink) merged(name string) {
	if s.pending != nil {
		s.pending.flush(name)
	}
}

// pending is what a consumer is handed, per input file, in the order it was read.
type pending struct {
	mu     sync.Mutex
	byFile map[string][]func()
}

func (p *pending) add(file string, hand func()) {
	p.mu.Lock()
	p.byFile[file] = append(p.byFile[file], hand)
	p.mu.Unlock()
}

func (p *pending) flush(file string) {
	p.mu.Lock()
	hands := p.byFile[file]
	delete(p.byFile, file)
	p.mu.Unlock()
	for _, h := range hands {
		h()
	}
}

// Edit places one edit call for --base (inputs.Sink); edits stay inside: only the places
// anchoring chooses with them are shown, redacted with their findings.
func (s *sink) Edit(e inputs.EditCall) {
	if s.edits != nil {
		s.edits.receive(e)
	}
}

// Redact is the run's redaction of one text (inputs.Sink): readers cut what it returns.
func (s *sink) Redact(t string) string { return s.red.String(t) }

// Show is how people read a path (inputs.Sink): anchor.Show, the one function every output's
// paths go through.
func (s *sink) Show(p, cwd string) string { return s.anc.Show(p, cwd) }

// ShowHook is how people read a hook's command (inputs.Sink).
func (s *sink) ShowHook(c findings.Call) string { return s.anc.HookCommand(c) }

// forConsumer is f as the consumer sees it: every field redacted, not anchored.
func (s *sink) forConsumer(f findings.Finding) findings.Finding {
	call := f.Call
	f.Call = nil
	g := s.red.Finding(f)
	if call != nil {
		c := *s.calls.redacted(call, true) // as place will ask for it: one memo entry per call
		c.Input = s.calls.input(c.Input)
		g.Call = &c
	}
	return g
}

// place anchors f and redacts every field as it is read; with the diff, an event that may go
// beside its session's edit waits (waiting.go). The paths and the call are redacted before
// anchoring as well: anchoring cleans paths ("https://" becomes "https:/") into forms the
// redactor no longer knows and quotes them in its note, and a path that holds a secret cannot
// be shown, so it cannot be where the finding points either. Such a finding is placed by the
// rest of the anchoring chain, or at line 1 of the fallback file, and says why.
func (s *sink) place(f findings.Finding) findings.Finding {
	hidden := false
	if f.Location != nil {
		if p := s.red.String(f.Location.Path); p != f.Location.Path {
			loc := *f.Location
			loc.Path, hidden = p, true
			f.Location = &loc
		}
	}
	if f.Call != nil {
		c := s.calls.redacted(f.Call, true) // its input is redacted if anchoring reads it
		hidden = hidden || c.FilePath != f.Call.FilePath
		f.Call = c
	}
	f.Source.File = s.red.String(f.Source.File)
	if s.wait == nil {
		return s.redactAnchored(s.anc.Anchor(f), hidden)
	}
	a, ok := s.anc.AnchorWhileReading(f)
	if !ok {
		return s.wait.hold(a, hidden)
	}
	return s.redactAnchored(a, hidden)
}

// placeLater anchors and redacts a finding that waited (waiting.settle).
func (s *sink) placeLater(f findings.Finding, hidden bool) findings.Finding {
	return s.redactAnchored(s.anc.Anchor(f), hidden)
}

// fallbackLocation is where the SARIF places a finding without a usable location of its own:
// line 1 of the anchorer's fallback file, or nowhere (the SARIF leaves the finding out and says
// so) when the root has no such file or its name holds a secret.
func (s *sink) fallbackLocation() findings.Location {
	if fb := s.fallback(); fb != nil && s.red.String(fb.Path) == fb.Path {
		return findings.Location{Path: fb.Path, StartLine: 1}
	}
	return findings.Location{}
}

// redactAnchored is the end of place: a is anchored, and hidden says a path it named held a
// secret.
func (s *sink) redactAnchored(a findings.Finding, hidden bool) findings.Finding {
	// red.Finding redacts the call once more: done here through the memo, once per call rather
	// than once per finding. Its input (json:"-", read by anchoring only, which is done) is
	// dropped: it is never shown, and nothing redacted it unless anchoring read it.
	call := a.Call
	a.Call = nil
	g := s.red.Finding(a)
	if call != nil {
		g.Call = s.shown(s.calls.redacted(call, false))
	}
	if a.Location != nil && g.Location.Path != a.Location.Path {
		// The place anchoring chose (a fallback file) has a secret in its own name.
		g.Location, hidden = nil, true
		if fb := s.fallback(); fb != nil && s.red.String(fb.Path) == fb.Path {
			g.Location = &findings.Location{Path: fb.Path, StartLine: 1}
		}
	}
	if len(a.Related) > 0 {
		// A related place whose path holds a secret names no file once hidden: it is left out.
		g.Related = g.Related[:0:0]
		for i, l := range a.Related {
			if s.red.String(l.Path) == l.Path {
				g.Related = append(g.Related, a.Related[i])
			}
		}
	}
	if hidden {
		g.Anchored = strings.TrimSpace("A path the finding names holds a secret, so it is not shown and not used as the location. " + g.Anchored)
	}
	return g
}

// shown is c with its file and hook as people read them (Show, ShowHook), once anchoring, which
// reads them as the records wrote them, is done.
func (s *sink) shown(c *findings.Call) *findings.Call {
	file, hook := s.Show(c.FilePath, c.Cwd), c.Hook
	if hook != "" { // a record that names no hook keeps none: it tells less of it (findings.Set)
		hook = s.ShowHook(*c)
	}
	if file == c.FilePath && hook == c.Hook {
		return c
	}
	d := *c
	d.FilePath, d.Hook = file, hook
	return &d
}

// output redacts what the run shows besides the findings placed as they were read: the files
// that reported each event (gathered while merging), problems, skip reasons, the names of inputs
// and the notes. They reach stderr, the summary and the SARIF.
func (s *sink) output(fs []findings.Finding, res *Result) {
	for i := range fs {
		fs[i].Sources = s.red.Strings(fs[i].Sources)
	}
	s.red.Set(res.Set)
	res.Missing = s.red.Strings(res.Missing)
	res.Files.Unreadable, res.Files.PassedOver = s.red.Strings(res.Files.Unreadable), s.red.Strings(res.Files.PassedOver)
	res.Notes = s.red.Strings(res.Notes)
	res.Unrecognised, res.Warnings, res.Notices = s.red.Strings(res.Unrecognised), s.red.Strings(res.Warnings), s.red.Strings(res.Notices)
}

// notifications redacts what the notifications quote: messages and input file names.
func (s *sink) notifications(ns []sarif.Notification) []sarif.Notification {
	for i := range ns {
		ns[i].Message, ns[i].File = s.red.String(ns[i].Message), s.red.String(ns[i].File)
	}
	return ns
}

// callMemo redacts tool calls once each: the findings of one record (each gate's, each breach)
// share their call, and the records of one call (PreToolUse, PostToolUse) carry the same tool
// input — up to 64 KiB of an edit's text, which redaction decodes, scans and encodes again.
// It is safe for concurrent use and holds a few calls and inputs.
type callMemo struct {
	red    *redact.Redactor
	seed   maphash.Seed
	mu     sync.Mutex
	done   map[*findings.Call]*findings.Call
	inputs map[uint64]redactedInput
}

// redactedInput is a tool input and its redaction.
type redactedInput struct{ raw, redacted []byte }

// callMemoSize bounds the calls and the inputs a callMemo holds (each worker's last few records).
const callMemoSize = 16

// redacted is red.Call(*c) but for its input, computed once per call. With keepInput, the input
// is kept as it is, for anchoring, which redacts it if it reads it (anchor.Options.Input through
// m.input, once per content); without, the call has no input: nothing after anchoring reads it.
func (m *callMemo) redacted(c *findings.Call, keepInput bool) *findings.Call {
	m.mu.Lock()
	r, ok := m.done[c]
	m.mu.Unlock()
	if ok {
		if !keepInput && r.Input != nil {
			bare := *r
			bare.Input = nil
			return &bare
		}
		return r
	}
	bare := *c
	bare.Input = nil
	r = m.red.Call(bare)
	if keepInput {
		r.Input = c.Input
	}
	m.mu.Lock()
	if m.done == nil || len(m.done) >= callMemoSize {
		m.done = make(map[*findings.Call]*findings.Call, callMemoSize)
	}
	m.done[c] = r
	m.mu.Unlock()
	return r
}

// input is red.JSON(in), computed once per content.
func (m *callMemo) input(in []byte) []byte {
	if len(in) == 0 {
		return m.red.JSON(in)
	}
	h := maphash.Bytes(m.seed, in)
	m.mu.Lock()
	e, ok := m.inputs[h]
	m.mu.Unlock()
	if ok && bytes.Equal(e.raw, in) {
		return e.redacted
	}
	out := m.red.JSON(in)
	m.mu.Lock()
	if m.inputs == nil || len(m.inputs) >= callMemoSize {
		m.inputs = make(map[uint64]redactedInput, callMemoSize)
	}
	m.inputs[h] = redactedInput{raw: in, redacted: out}
	m.mu.Unlock()
	return out
}

// NewRedactor is the one redaction step of everything that leaves the program: the run's sink
// makes its redactor here, and so do the outputs that read no inputs through a sink (check's
// report of a hook answer, a review posted from a SARIF file). on false leaves texts as they are.
func NewRedactor(on bool) *redact.Redactor {
	return redact.New(redact.Options{Disabled: !on})
}
