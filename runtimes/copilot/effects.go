package copilot

import "github.com/agc-sarif/agc-sarif/gates"

// version is the Copilot CLI build of testdata/copilot and ../shared/runtimes/copilot.
const version = "1.0.102"

const readme = "../shared/runtimes/copilot/README.md"

// effects is what Copilot CLI does with each answer form, as its replays showed.
var effects = gates.EffectTable{
	{Answer: gates.AnswerDeny, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/copilot/run", Note: "the reason reaches the model"},
	{Answer: gates.AnswerExit2, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/copilot/run", Note: "stderr is not used: the model is told only the exit code"},
	{Answer: gates.AnswerRewrite, Effect: gates.EffectRewritten, Verified: version, Evidence: readme, Note: "modifiedArgs also rewrites the model's history"},
	{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectRewritten, Verified: version, Evidence: "testdata/copilot/run", Note: "modifiedArgs also rewrites the model's history"},
	{Answer: gates.AnswerContext, Effect: gates.EffectDelivered, Verified: version, Evidence: readme, Note: "a user message"},
	{Answer: gates.AnswerCrash, Effect: gates.EffectFailClosed, Verified: version, Evidence: "testdata/copilot/run", Note: "denied as \"(hook errored)\""},
	{Answer: gates.AnswerInvalidJSON, Effect: gates.EffectFailedOpen, Verified: version, Evidence: readme},
	{Answer: gates.AnswerPostBlock, Effect: gates.EffectReplaced, Verified: version, Evidence: readme, Note: "the call ran; the model got \"Tool result blocked\""},
	{Answer: gates.AnswerNone, Effect: gates.EffectRan, Verified: version, Evidence: "testdata/copilot/run", Note: "no decision: the call ran as asked"},
}
