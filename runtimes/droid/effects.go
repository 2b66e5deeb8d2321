package droid

import "github.com/agc-sarif/agc-sarif/gates"

// evidence is where the effects were seen: the harness's README and this repository's records.
const evidence = "testdata/droid/README.md"

// Effects is what Droid 0.225.2 did with each answer form, PreToolUse on Execute and Create in
// `droid exec --auto high` (testdata/droid, ../shared/runtimes/droid/README.md).
func (Binding) Effects() gates.EffectTable {
	row := func(a gates.Answer, e gates.Effect, note string) gates.EffectRow {
		return gates.EffectRow{Answer: a, Effect: e, Verified: version, Evidence: evidence, Note: note}
	}
	return gates.EffectTable{
		row(gates.AnswerDeny, gates.EffectNotRun, "the model gets \"Error: <reason>\"; additionalContext dropped"),
		row(gates.AnswerExit2, gates.EffectNotRun, "the model gets \"Error: <stderr>\"; a JSON stderr blocks too, read as text"),
		row(gates.AnswerRewrite, gates.EffectRewritten, "updatedInput merged into the input; the session keeps the original call"),
		row(gates.AnswerRewriteAllow, gates.EffectRewritten, "as rewrite, and Droid's own permission check is skipped"),
		row(gates.AnswerContext, gates.EffectDropped, "PreToolUse additionalContext never reaches the model"),
		row(gates.AnswerDecisionBlock, gates.EffectIgnored, "top-level decision and reason are not read: the call ran"),
		row(gates.AnswerAsk, gates.EffectIgnored, "exec asks nobody: the autonomy level decided and the call ran"),
		row(gates.AnswerCrash, gates.EffectFailedOpen, "the traceback is prepended to the command's output when the command succeeds"),
		row(gates.AnswerHalt, gates.EffectHalted, "exit 3 or continue: false: the call did not run and the session ended, exit status 0"),
		row(gates.AnswerPostBlock, gates.EffectIgnored, "the result reaches the model unchanged; an additionalContext beside it is delivered"),
	}
}
