package anchor

import (
	"context"
	"os"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// readEdits reads the file at path, named name, with the reader of format as collect does with a
// diff, adds the edits the reader hands over (inputs.Options.Edits) to a, and returns how many
// stand in the diff.
func readEdits(ctx context.Context, a *Anchorer, format inputs.Format, name, path string) (int, error) {
	r, err := runtimes.Inputs().ReaderFor(format)
	if err != nil {
		return 0, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	n := 0
	opts := inputs.Options{Registry: runtimes.Inputs(), Edits: true, Sink: inputs.Funcs{OnEdit: func(e inputs.EditCall) {
		if a.AddEdit(Edit{Session: e.Session, Tool: e.Tool, Source: e.Source, Time: e.Time, Cwd: e.Cwd, Input: e.Input}) {
			n++
		}
	}}}
	err = r.Read(ctx, inputs.Input{Name: name, R: fh, Named: true}, opts, findings.NewSet())
	return n, err
}

// TestAnchorWhileReading: an event waits exactly when Anchor, with its session's edits known,
// would place it beside one or at the place that comes after (hook line, input, fallback); one
// whose own location or call's file is in the checkout is anchored at once, as Anchor does.
func TestAnchorWhileReading(t *testing.T) {
	root, d := sessionRepo(t)
	a := newAnchorer(t, Options{Root: root, Diff: d})
	if !a.AddEdit(Edit{Session: "s1", Source: findings.Source{File: "t.jsonl", Line: 1}, Input: editInput(t, "src/b.py", "new file line one")}) {
		t.Fatal("the edit does not stand")
	}
	call := func(tool, file string) *findings.Call {
		c := &findings.Call{Runtime: "claude-code", Event: "PreToolUse", Tool: tool, SessionID: "s1", Hook: "guard.sh"}
		if file != "" {
			c.Input = editInput(t, file, "new file line two")
			c.FilePath = file
		}
		return c
	}
	for _, f := range []findings.Finding{
		{Call: call("Bash", "")},
		{Call: call("Edit", "src/a.py")},
		{Call: call("Edit", "../outside.py")},
		{Call: call("Edit", "src/missing.py")},
		{Call: call("Bash", ""), Location: &findings.Location{Path: "src/c.py", StartLine: 1}},
		{Call: call("Bash", ""), Location: &findings.Location{Path: "/etc/passwd", StartLine: 1}},
		{Call: &findings.Call{Tool: "Bash"}},
	} {
		f.RuleID, f.Kind, f.Source = "g/r", findings.RuntimeGate, findings.Source{File: "t.jsonl", Line: 5}
		want := a.Anchor(f)
		waits := f.Call.SessionID != "" && (want.Placed == findings.PlacedEdit || want.Placed.OffCode())
		got, ok := a.AnchorWhileReading(f)
		if ok == waits {
			t.Errorf("%s %s at %v: anchored at once %v, want %v (Anchor placed it by %q)", f.Call.Tool, f.Call.FilePath, f.Location, ok, !waits, want.Placed)
		}
		if ok && (got.Location == nil || want.Location == nil || *got.Location != *want.Location || got.Message != want.Message) {
			t.Errorf("%s %s: anchored at %+v, Anchor gives %+v", f.Call.Tool, f.Call.FilePath, got.Location, want.Location)
		}
		if !ok {
			// What waits keeps no input Anchor will not read, and is anchored as f is.
			if len(got.Call.Input) > 0 {
				t.Errorf("%s %s waits with its call's input (%d bytes), which Anchor does not read", f.Call.Tool, f.Call.FilePath, len(got.Call.Input))
			}
			if later := a.Anchor(got); later.Location == nil || want.Location == nil || *later.Location != *want.Location ||
				later.Message != want.Message || later.Anchored != want.Anchored {
				t.Errorf("%s %s: anchored after waiting at %+v (%s), Anchor gives %+v (%s)", f.Call.Tool, f.Call.FilePath, later.Location, later.Anchored, want.Location, want.Anchored)
			}
		}
	}
	if _, ok := newAnchorer(t, Options{Root: root}).AnchorWhileReading(findings.Finding{Call: call("Bash", "")}); !ok {
		t.Error("without a diff an event waited")
	}
}
