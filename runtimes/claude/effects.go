package claude

import "github.com/agc-sarif/agc-sarif/gates"

// version is the Claude Code build the replays of testdata/claude were recorded with.
const version = "2.1.332"

// effects is what Claude Code does with each answer form, as its replays (testdata/claude,
// ../shared/research/effects.md) showed; effects_test.go checks each row against its run.
var effects = gates.EffectTable{
	{Answer: gates.AnswerDeny, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/claude/pre-deny", Note: "the reason reaches the model"},
	{Answer: gates.AnswerExit2, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/claude/pre-exit2-agc", Note: "stderr reaches the model"},
	{Answer: gates.AnswerRewrite, Effect: gates.EffectRewritten, Verified: version, Evidence: "testdata/claude/pre-repair", Note: "the permission rules still apply to the rewritten call"},
	{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectRewritten, Verified: version, Evidence: "testdata/claude/pre-repair-allow", Note: "the rewritten call ran without the person's permission rules"},
	{Answer: gates.AnswerContext, Effect: gates.EffectDelivered, Verified: version, Evidence: "testdata/claude/pre-steer", Note: "the context reaches the model"},
	{Answer: gates.AnswerAsk, Effect: gates.EffectPrompted, Verified: version, Evidence: "../shared/research/effects.md", Note: "headless: refused"},
	{Answer: gates.AnswerCrash, Effect: gates.EffectFailedOpen, Verified: version, Evidence: "testdata/claude/pre-crash", Note: "the call ran unguarded"},
	{Answer: gates.AnswerInvalidJSON, Effect: gates.EffectFailedOpen, Verified: version, Evidence: "../shared/research/effects.md", Note: "the call ran unguarded"},
	{Answer: gates.AnswerHalt, Effect: gates.EffectHalted, Verified: version, Evidence: "../shared/research/effects.md", Note: "continue: false ends the turn"},
	{Answer: gates.AnswerTimeout, Effect: gates.EffectFailedOpen, Verified: version, Evidence: "testdata/claude/pre-timeout", Note: "the hook was cancelled; the call ran unguarded"},
	{Answer: gates.AnswerPostBlock, Effect: gates.EffectDelivered, Verified: version, Evidence: "testdata/claude/post-block", Note: "the call ran; the reason reaches the model beside its output"},
	{Answer: gates.AnswerPostReplace, Effect: gates.EffectReplaced, Verified: version, Evidence: "testdata/claude/post-repair", Note: "updatedToolOutput replaced the output the model saw"},
	{Answer: gates.AnswerPostContext, Effect: gates.EffectDelivered, Verified: version, Evidence: "testdata/claude/post-block", Note: "the context reaches the model beside the output"},
	{Answer: gates.AnswerNone, Effect: gates.EffectRan, Verified: version, Evidence: "testdata/claude/pre-block-through", Note: "no decision: the call ran as asked"},
}
