package inputs

import "github.com/agc-sarif/agc-sarif/findings"

// Sink is where the readers hand what they find, as they read it: the one consumer of a read
// (collect's), which anchors, redacts and passes it on. Readers do no redaction of their own:
// a reader that must cut a text for a message (a hook's stderr, a bad line's preview) cuts
// Redact's result, so that no cut can split a secret the redaction would otherwise recognise;
// everything else they hand over uncut. A Sink is called from several goroutines at once (files,
// and parts of one file, are read in parallel).
type Sink interface {
	// Finding takes one finding a reader read into set (the file's, or the part's). It reports
	// false when the run does not report it (an unstructured decision it did not ask for): the
	// reader counts the record as skipped.
	Finding(set *findings.Set, f findings.Finding) bool
	// Call takes one step of the tool-call timeline (Options.Calls).
	Call(CallEvent)
	// Edit takes one edit call (Options.Edits); its Input is valid only during the call.
	Edit(EditCall)
	// Redact is the run's redaction of one text.
	Redact(string) string
	// Show is how people read a path a call names (written in the folder cwd): repo-relative,
	// or "<outside>/name".
	Show(path, cwd string) string
	// ShowHook is how people read the command of the hook of a call (c.Hook, as a record spells
	// it; "" when the record names none): the command as the repository's settings configure it,
	// else with its paths shown as Show shows them.
	ShowHook(c findings.Call) string
}

// Show is the sink's Show, or p without a sink.
func (o Options) Show(p, cwd string) string {
	if o.Sink == nil {
		return p
	}
	return o.Sink.Show(p, cwd)
}

// ShowHook is the sink's ShowHook, or c.Hook without a sink.
func (o Options) ShowHook(c findings.Call) string {
	if o.Sink == nil {
		return c.Hook
	}
	return o.Sink.ShowHook(c)
}

// Redact is the sink's redaction of s, or s without a sink. Readers and checks apply it to a text
// before they cut it for a message.
func (o Options) Redact(s string) string {
	if o.Sink == nil {
		return s
	}
	return o.Sink.Redact(s)
}

// add hands f to the sink, which puts it into set; without a sink, f goes into set as it is. It
// reports false when the sink kept f out of the run.
func (o Options) add(set *findings.Set, f findings.Finding) bool {
	if o.Sink == nil {
		set.Add(f)
		return true
	}
	return o.Sink.Finding(set, f)
}

// ReadsCalls reports whether the readers hand over the tool-call timeline.
func (o Options) ReadsCalls() bool { return o.Calls && o.Sink != nil }

// CallKey is the slot's call key in session when the readers hand over the timeline (only the
// timeline reads it), else "".
func (o Options) CallKey(s OrdinalSlot, session string) string {
	if !o.ReadsCalls() {
		return ""
	}
	return s.CallKey(session)
}

// Funcs is a Sink made of functions, each optional, for a caller that wants one part of what the
// readers find (tests, tools): Prepare changes each finding before it goes into the set; Redact
// nil leaves texts as they are.
type Funcs struct {
	Prepare func(findings.Finding) findings.Finding
	OnCall  func(CallEvent)
	OnEdit  func(EditCall)
	Redactf func(string) string
	// Showf shows a path (Sink.Show); nil: as written.
	Showf func(path, cwd string) string
}

// Finding puts f, prepared, into set.
func (s Funcs) Finding(set *findings.Set, f findings.Finding) bool {
	if s.Prepare != nil {
		f = s.Prepare(f)
	}
	set.Add(f)
	return true
}

// Call hands ev to OnCall.
func (s Funcs) Call(ev CallEvent) {
	if s.OnCall != nil {
		s.OnCall(ev)
	}
}

// Edit hands e to OnEdit.
func (s Funcs) Edit(e EditCall) {
	if s.OnEdit != nil {
		s.OnEdit(e)
	}
}

// Redact is Redactf(t), or t.
func (s Funcs) Redact(t string) string {
	if s.Redactf == nil {
		return t
	}
	return s.Redactf(t)
}

// Show is Showf(p, cwd), or p.
func (s Funcs) Show(p, cwd string) string {
	if s.Showf == nil {
		return p
	}
	return s.Showf(p, cwd)
}

// ShowHook is the hook as written.
func (s Funcs) ShowHook(c findings.Call) string { return c.Hook }
