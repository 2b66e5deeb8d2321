package anchor

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// The session's edits come from the readers (inputs.Options.Edits) as the inputs are read for
// findings: there is no second read of the inputs. Where each edit stands is found at once
// (PlaceEdit, safe for concurrent use) and only that place is kept; the caller hands the places
// over in the order of the inputs (KeepEdit), so that a session's edits are in the order they
// were made. An event that goes beside an edit may be read before the edits it needs (the first
// edit after it, an edit of another file): such events wait (AnchorWhileReading) and are anchored
// when every input has been read.

// EditPlace is where one edit call of a session stands in the change.
type EditPlace struct {
	session string
	pos     editPos
}

// PlaceEdit finds where an edit call stands in the change: the first line the diff added inside
// the lines its new text now covers. It reports false when the edit does not stand in the diff,
// and always without a diff or in mode config. The place is not kept: see KeepEdit.
func (a *Anchorer) PlaceEdit(e Edit) (EditPlace, bool) {
	if !a.byEdits() || strings.TrimSpace(e.Session) == "" {
		return EditPlace{}, false
	}
	b := editBinding(e.Tool)
	if b == nil {
		b = runtimes.Default()
	}
	call := b.ToolCall(e.Tool, e.Input)
	fp := call.FilePath
	if fp == "" {
		return EditPlace{}, false
	}
	rel, ok := a.Path(fp, e.Cwd)
	if !ok || !a.isFile(rel) {
		return EditPlace{}, false
	}
	file := a.read(rel)
	if !file.hasText {
		return EditPlace{}, false
	}
	for _, s := range call.NewTexts {
		// No memo here: a memo keyed by text would keep the texts of a whole session.
		start, end, ok := findText(file.text, s)
		if !ok {
			continue
		}
		if line, ok := a.diff.FirstAdded(rel, start, end); ok {
			return EditPlace{session: e.Session, pos: editPos{rel: rel, line: line, src: e.Source.File, srcLine: e.Source.Line, at: parseTime(e.Time)}}, true
		}
	}
	return EditPlace{}, false
}

// KeepEdit keeps a place PlaceEdit found, after those kept before it: the last edit of a session
// when nothing else orders it is the last kept. Past MaxEdits places are counted, not kept.
func (a *Anchorer) KeepEdit(p EditPlace) { a.edits.add(p.session, p.pos) }

// DropEdits counts n edit places the caller did not keep (EditsDropped).
func (a *Anchorer) DropEdits(n int) {
	a.edits.mu.Lock()
	defer a.edits.mu.Unlock()
	a.edits.dropped += n
}

// byEdits reports whether events are anchored beside their session's edits: with a diff, in
// mode edit.
func (a *Anchorer) byEdits() bool { return a.diff != nil && a.mode == SessionEdit }

// AnchorWhileReading is Anchor while the inputs are still being read. It reports false, and
// anchors nothing, when f may go beside an edit of its session: its place then depends on edits
// not all read yet, and the finding it returns is to be anchored with Anchor once they are.
func (a *Anchorer) AnchorWhileReading(f findings.Finding) (findings.Finding, bool) {
	if !a.byEdits() || f.Call == nil || f.Call.SessionID == "" || a.placedByItself(&f) {
		return a.Anchor(f), true
	}
	return a.withoutInput(f), false
}

// withoutInput is f, which waits, without its call's input when Anchor will not read it: the
// file the call touched is its FilePath (or none), and is no file of the checkout, so no text of
// the call is looked for. Thousands of events may wait, each with up to 64 KiB of input.
func (a *Anchorer) withoutInput(f findings.Finding) findings.Finding {
	if len(f.Call.Input) > 0 && a.callFile(f.Call) == f.Call.FilePath {
		c := *f.Call
		c.Input = nil
		f.Call = &c
	}
	return f
}

// placedByItself reports whether the first steps of Anchor's chain place f, before its session's
// edits: its own location or the file its call touched is a file of the checkout. It asks what
// Anchor asks (inRepo), without changing f.
func (a *Anchorer) placedByItself(f *findings.Finding) bool {
	cwd := f.Call.Cwd
	if f.Location != nil && strings.TrimSpace(f.Location.Path) != "" {
		if rel, ok := a.Path(f.Location.Path, cwd); ok && a.isFile(rel) {
			return true
		}
	}
	if fp := a.callFile(f.Call); fp != "" {
		if rel, ok := a.Path(fp, cwd); ok && a.isFile(rel) {
			return true
		}
	}
	return false
}
