package codex

import "github.com/agc-sarif/agc-sarif/gates"

// version is the Codex CLI build of testdata/codex and ../shared/runtimes/codex.
const version = "0.171.0"

const readme = "../shared/runtimes/codex/README.md"

// effects is what Codex CLI does with each answer form, as its replays showed.
var effects = gates.EffectTable{
	{Answer: gates.AnswerDeny, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/codex/run", Note: "the reason reaches the model"},
	{Answer: gates.AnswerExit2, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/codex/run", Note: "stderr reaches the model as the reason"},
	{Answer: gates.AnswerRewrite, Effect: gates.EffectIgnored, Verified: version, Evidence: "testdata/codex/run", Note: "updatedInput without allow is ignored: the original call ran"},
	{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectRewritten, Verified: version, Evidence: "testdata/codex/run"},
	{Answer: gates.AnswerContext, Effect: gates.EffectDelivered, Verified: version, Evidence: "testdata/codex/run", Note: "a developer message"},
	{Answer: gates.AnswerDecisionBlock, Effect: gates.EffectNotRun, Verified: version, Evidence: readme},
	{Answer: gates.AnswerAsk, Effect: gates.EffectIgnored, Verified: version, Evidence: "testdata/codex/run", Note: "the call ran unguarded"},
	{Answer: gates.AnswerCrash, Effect: gates.EffectFailedOpen, Verified: version, Evidence: "testdata/codex/run"},
	{Answer: gates.AnswerInvalidJSON, Effect: gates.EffectFailedOpen, Verified: version, Evidence: readme},
	{Answer: gates.AnswerPostBlock, Effect: gates.EffectReplaced, Verified: version, Evidence: readme, Note: "the call ran; its output was replaced by the reason"},
	{Answer: gates.AnswerPostContext, Effect: gates.EffectDelivered, Verified: version, Evidence: readme, Note: "a developer message"},
	{Answer: gates.AnswerNone, Effect: gates.EffectRan, Verified: version, Evidence: "testdata/codex/run", Note: "no decision: the call ran as asked"},
}
