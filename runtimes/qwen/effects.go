package qwen

import "github.com/agc-sarif/agc-sarif/gates"

// version is the Qwen Code build of testdata/qwen and ../shared/runtimes/qwen.
const version = "0.24.4"

const readme = "../shared/runtimes/qwen/README.md"

// effects is what Qwen Code does with each answer form, as its replays showed (once: the
// README marks the facts to verify).
var effects = gates.EffectTable{
	{Answer: gates.AnswerDeny, Effect: gates.EffectNotRun, Verified: version, Evidence: readme, Note: "the reason reaches the model"},
	{Answer: gates.AnswerExit2, Effect: gates.EffectNotRun, Verified: version, Evidence: readme, Note: "stderr reaches the model"},
	{Answer: gates.AnswerRewrite, Effect: gates.EffectIgnored, Verified: version, Evidence: readme, Note: "updatedInput was not applied"},
	{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectIgnored, Verified: version, Evidence: readme, Note: "updatedInput was not applied"},
	{Answer: gates.AnswerCrash, Effect: gates.EffectFailedOpen, Verified: version, Evidence: readme},
	{Answer: gates.AnswerNone, Effect: gates.EffectRan, Verified: version, Evidence: readme, Note: "no decision: the call ran as asked"},
}
