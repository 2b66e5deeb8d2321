package gates

// Answer is one form of a hook's answer, as the runtimes' effect tables name it (the rows of
// ../shared/research/effects.md). A binding's Effects say what its runtime does with each form.
type Answer string

// The answer forms. PreToolUse unless named Post.
const (
	AnswerDeny          Answer = "deny"           // a JSON deny (or the runtime's own refusal field) with a reason
	AnswerExit2         Answer = "exit-2"         // exit status 2 with text on stderr
	AnswerRewrite       Answer = "rewrite"        // a changed input (updatedInput or the runtime's field), no allow
	AnswerRewriteAllow  Answer = "rewrite-allow"  // a changed input sent with an allow decision
	AnswerContext       Answer = "context"        // context for the model only (a steer)
	AnswerDecisionBlock Answer = "decision-block" // the old top-level decision: "block"
	AnswerAsk           Answer = "ask"            // a permission decision "ask"
	AnswerCrash         Answer = "crash"          // an exit status other than 0 and 2 (or a thrown plugin error)
	AnswerInvalidJSON   Answer = "invalid-json"   // exit 0 with stdout the runtime cannot read
	AnswerHalt          Answer = "halt"           // the runtime's form that ends the turn or session
	AnswerTimeout       Answer = "timeout"        // the runtime's time limit ended the hook
	AnswerPostBlock     Answer = "post-block"     // PostToolUse: a block with a reason
	AnswerPostReplace   Answer = "post-replace"   // PostToolUse: the call's output replaced
	AnswerPostContext   Answer = "post-context"   // PostToolUse: context for the model only
	AnswerNone          Answer = "none"           // the whole answer is known and decides nothing: the call goes ahead
)

// Effect is what a runtime did with a hook's answer: the fact a finding reports.
type Effect string

// The effects.
const (
	EffectRan         Effect = "ran"         // the call ran as the model asked
	EffectNotRun      Effect = "not-run"     // the call did not run
	EffectRewritten   Effect = "rewritten"   // the changed call ran
	EffectReplaced    Effect = "replaced"    // the call ran and its output was replaced
	EffectHalted      Effect = "halted"      // the call did not run and the turn or session ended
	EffectDropped     Effect = "dropped"     // the answer (or its context) never reached the model; the call ran
	EffectIgnored     Effect = "ignored"     // the answer was ignored; the call ran as asked
	EffectDelivered   Effect = "delivered"   // the context reached the model; the call ran
	EffectFailedOpen  Effect = "failed-open" // the hook failed and the call ran unguarded
	EffectFailClosed  Effect = "fail-closed" // the hook failed and the call did not run
	EffectPrompted    Effect = "prompted"    // the runtime asked the person (headless: refused)
	EffectHangs       Effect = "hangs"       // the runtime waits for an answer that never comes
	EffectUnsupported Effect = "unsupported" // the form does not exist in this runtime
)

// EffectRow is what a runtime does with one answer form, as observed with the runtime's real
// build (Verified names it) and its evidence (a testdata path or a README of the harness).
type EffectRow struct {
	Answer   Answer
	Effect   Effect
	Verified string // the runtime's version the row was verified with
	Evidence string // where it was seen
	Note     string // what a message says of it ("reason to the model", "context dropped", …)
}

// EffectTable is a binding's effects, one row per answer form it has verified.
type EffectTable []EffectRow

// Of returns the row of an answer form, and false when the table has none.
func (t EffectTable) Of(a Answer) (EffectRow, bool) {
	for _, r := range t {
		if r.Answer == a {
			return r, true
		}
	}
	return EffectRow{}, false
}

// Enforced says the effect stops the call as asked: not run, halted, failed closed, or rewritten
// or replaced (the call the model asked for did not run unchanged).
func (e Effect) Enforced() bool {
	switch e {
	case EffectNotRun, EffectHalted, EffectFailClosed, EffectRewritten, EffectReplaced:
		return true
	}
	return false
}
