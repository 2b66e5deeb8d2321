package crush

import "github.com/agc-sarif/agc-sarif/gates"

// evidence is where the effects were seen.
const evidence = "testdata/crush/README.md"

// Effects is what Crush 0.90.0 did with each answer form, PreToolUse on bash and write in
// `crush run` (testdata/crush, ../shared/runtimes/crush/README.md).
func (Binding) Effects() gates.EffectTable {
	row := func(a gates.Answer, e gates.Effect, note string) gates.EffectRow {
		return gates.EffectRow{Answer: a, Effect: e, Verified: version, Evidence: evidence, Note: note}
	}
	return gates.EffectTable{
		row(gates.AnswerDeny, gates.EffectNotRun, "\"Tool call blocked by hook. Reason: <reason>\"; the context is dropped (envelope or hookSpecificOutput)"),
		row(gates.AnswerExit2, gates.EffectNotRun, "the stderr is the reason"),
		row(gates.AnswerRewrite, gates.EffectRewritten, "updated_input shallow-merged into the input; the stored call keeps the model's"),
		row(gates.AnswerRewriteAllow, gates.EffectRewritten, "as rewrite, and the permission prompt is skipped"),
		row(gates.AnswerContext, gates.EffectDelivered, "appended to the tool result the model gets"),
		row(gates.AnswerDecisionBlock, gates.EffectIgnored, "only allow and deny are read; the metadata keeps the reason"),
		row(gates.AnswerCrash, gates.EffectFailedOpen, "no opinion: the call ran"),
		row(gates.AnswerInvalidJSON, gates.EffectFailedOpen, "no opinion: the call ran"),
		row(gates.AnswerHalt, gates.EffectHalted, "exit 49 or halt: true: the call did not run and the turn ended, exit status 0"),
	}
}
