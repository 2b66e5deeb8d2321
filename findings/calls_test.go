package findings

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// TestCallLedgerOneCallPerKey: findings of one call from several records (a transcript and a
// hook log), several hooks and a contract check are one call; calls without an id are each their
// own; what the runtime did is read from the effects, and a claim it did not carry out is said.
func TestCallLedgerOneCallPerKey(t *testing.T) {
	call := func(id, event string, after bool, eff gates.Effect) *Call {
		return &Call{Runtime: "rt", SessionID: "s", ToolUseID: id, Event: event, After: after, Tool: "Bash", Command: "rm -rf build", Effect: eff}
	}
	fs := []Finding{
		{RuleID: "g/no-rm", Kind: RuntimeGate, Verdict: gates.Block, Call: call("A", "PreToolUse", false, gates.EffectDelivered), Source: Source{File: "t", Line: 9}, Time: "2026-12-01T10:00:02Z"},
		{RuleID: "agc/block-lets-call-through", Kind: Contract, Call: call("A", "PreToolUse", false, gates.EffectDelivered), Source: Source{File: "t", Line: 9}},
		// the same event read from the hook log: nothing new
		{RuleID: "g/no-rm", Kind: RuntimeGate, Verdict: gates.Block, Call: call("A", "PreToolUse", false, gates.EffectDelivered), Source: Source{File: "h", Line: 1}, Time: "2026-12-01T10:00:01Z"},
		{RuleID: "agc/hook-failed-open", Kind: Contract, Call: call("A", "PostToolUse", true, gates.EffectFailedOpen), Source: Source{File: "t", Line: 12}},
		{RuleID: "g/no-push", Kind: RuntimeGate, Verdict: gates.Block, Call: call("B", "PreToolUse", false, gates.EffectNotRun), Source: Source{File: "t", Line: 20}, Time: "2026-12-01T10:00:00Z"},
		// two calls the records name by no id: two calls
		{RuleID: "agc/hook-failed-open", Kind: Contract, Call: &Call{Tool: "Write", FilePath: "a.md", Effect: gates.EffectFailedOpen}, Source: Source{File: "x", Line: 1}},
		{RuleID: "agc/hook-failed-open", Kind: Contract, Call: &Call{Tool: "Write", FilePath: "b.md", Effect: gates.EffectFailedOpen}, Source: Source{File: "x", Line: 2}},
		// a judgment: no call
		{RuleID: "review/x", Kind: JudgmentGate, Verdict: gates.Block},
	}
	calls := CallsOf(fs)
	if len(calls) != 4 {
		t.Fatalf("%d calls, want 4: %+v", len(calls), calls)
	}
	b, a := calls[0], calls[1]
	if b.What != "rm -rf build" || b.Outcomes[0].RuleID != "g/no-push" {
		t.Fatalf("calls not in time order: %+v", calls)
	}
	if a.Time != "2026-12-01T10:00:01Z" || a.Source != (Source{File: "h", Line: 1}) {
		t.Errorf("call A: time %q source %+v, want the earliest of its records", a.Time, a.Source)
	}
	if len(a.Outcomes) != 3 || a.Outcomes[0].RuleID != "g/no-rm" || a.Outcomes[1].RuleID != "agc/block-lets-call-through" || !a.Outcomes[2].After {
		t.Errorf("call A outcomes %+v, want the gate's block, its contract finding, then the after-call hook", a.Outcomes)
	}
	if !a.Claimed(gates.Block) || a.CarriedOut(gates.Block) || !a.Unguarded() {
		t.Errorf("call A: claimed %v carried %v unguarded %v, want a block not carried out, and unguarded after",
			a.Claimed(gates.Block), a.CarriedOut(gates.Block), a.Unguarded())
	}
	if want := "PreToolUse: the call ran; the gate's context reached the model; PostToolUse: the hook failed; the output reached the model unchecked; not the gate's block"; a.Did() != want {
		t.Errorf("call A did %q, want %q", a.Did(), want)
	}
	if !b.CarriedOut(gates.Block) || b.Did() != "the call did not run" {
		t.Errorf("call B: carried %v did %q", b.CarriedOut(gates.Block), b.Did())
	}
}

// TestCarried holds each verdict to the effects that carry it out, before and after the call.
func TestCarried(t *testing.T) {
	tests := []struct {
		v      gates.Verdict
		after  bool
		effect gates.Effect
		want   bool
	}{
		{gates.Block, false, gates.EffectNotRun, true},
		{gates.Block, false, gates.EffectDelivered, false},
		{gates.Block, false, gates.EffectFailClosed, true},
		{gates.Block, true, gates.EffectDelivered, true},
		{gates.Repaired, false, gates.EffectRewritten, true},
		{gates.Repaired, false, gates.EffectIgnored, false},
		{gates.Repaired, true, gates.EffectDelivered, false},
		{gates.Repaired, true, gates.EffectReplaced, true},
		{gates.Steer, false, gates.EffectDelivered, true},
		{gates.Steer, false, gates.EffectDropped, false},
	}
	for _, tc := range tests {
		f := Finding{Kind: RuntimeGate, Verdict: tc.v, Call: &Call{After: tc.after, Effect: tc.effect}}
		if got, known := Carried(&f); got != tc.want || !known {
			t.Errorf("%s after=%v %s: carried %v known %v, want %v", tc.v, tc.after, tc.effect, got, known, tc.want)
		}
	}
	if _, known := Carried(&Finding{Kind: RuntimeGate, Verdict: gates.Block, Call: &Call{}}); known {
		t.Error("an unknown effect is known")
	}
}
