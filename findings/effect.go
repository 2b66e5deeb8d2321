package findings

import "github.com/agc-sarif/agc-sarif/gates"

// What the runtime did with a hook's answer (Call.Effect), as a finding and the summary word it.

// EffectPhrase says what the runtime did with the call, for people: "the call did not run";
// "" when the effect is unknown.
func EffectPhrase(c *Call) string {
	if c == nil {
		return ""
	}
	post := c.After
	switch c.Effect {
	case gates.EffectRan:
		return "the call ran as asked"
	case gates.EffectNotRun:
		return "the call did not run"
	case gates.EffectRewritten:
		return "the call ran as rewritten"
	case gates.EffectReplaced:
		return "the call ran; the model saw the replaced output"
	case gates.EffectHalted:
		return "the call did not run and the turn ended"
	case gates.EffectDropped:
		return "the call ran; the answer never reached the model"
	case gates.EffectIgnored:
		return "the call ran as asked; the answer was ignored"
	case gates.EffectDelivered:
		if post {
			return "the call ran; the hook's text reached the model beside its output"
		}
		return "the call ran; the gate's context reached the model"
	case gates.EffectFailedOpen:
		if post {
			return "the hook failed; the output reached the model unchecked"
		}
		return "the hook failed; the call ran unguarded"
	case gates.EffectFailClosed:
		return "the hook failed; the call did not run"
	case gates.EffectPrompted:
		return "the runtime asked the person (headless: refused)"
	case gates.EffectHangs:
		return "the runtime waited for an answer that never came"
	}
	return ""
}

// Carried reports whether the runtime did what a gate's finding claimed (a block that stopped
// the call, a repair that changed it or its output, a steer that reached the model); known is
// false when the effect is unknown or the finding claims nothing (a contract finding).
func Carried(f *Finding) (carried, known bool) {
	if f.Call == nil || f.Call.Effect == "" || f.Kind == Contract {
		return false, false
	}
	e := f.Call.Effect
	post := f.Call.After
	switch f.Verdict {
	case gates.Block:
		if post {
			return e == gates.EffectDelivered || e == gates.EffectReplaced || e == gates.EffectHalted, true
		}
		return e == gates.EffectNotRun || e == gates.EffectHalted || e == gates.EffectFailClosed || e == gates.EffectPrompted, true
	case gates.Repaired:
		if post {
			return e == gates.EffectReplaced, true
		}
		return e == gates.EffectRewritten, true
	case gates.Steer:
		return e != gates.EffectDropped && e != gates.EffectIgnored && e != gates.EffectFailedOpen && e != gates.EffectHangs, true
	}
	return false, false
}

// effectLine is the alert's line on what the runtime did, saying so when it is not what the
// gate claimed; "" when the effect is unknown.
func effectLine(f *Finding) string {
	p := EffectPhrase(f.Call)
	if p == "" {
		return ""
	}
	s := "What the runtime did: " + p
	if carried, known := Carried(f); known && !carried {
		s += " (not the gate's " + string(f.Verdict) + ")"
	}
	return s
}
