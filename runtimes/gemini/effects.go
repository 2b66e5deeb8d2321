package gemini

import "github.com/agc-sarif/agc-sarif/gates"

// version is the Gemini CLI build of testdata/gemini and ../shared/runtimes/gemini.
const version = "0.61.0"

const readme = "../shared/runtimes/gemini/README.md"

// effects is what Gemini CLI does with each answer form, as its replays showed.
var effects = gates.EffectTable{
	{Answer: gates.AnswerDeny, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/gemini/run", Note: "the reason reaches the model"},
	{Answer: gates.AnswerDecisionBlock, Effect: gates.EffectNotRun, Verified: version, Evidence: readme},
	{Answer: gates.AnswerExit2, Effect: gates.EffectNotRun, Verified: version, Evidence: "testdata/gemini/run", Note: "stderr reaches the model as the reason"},
	{Answer: gates.AnswerRewrite, Effect: gates.EffectRewritten, Verified: version, Evidence: "testdata/gemini/run", Note: "tool_input replaces the arguments, not merged"},
	{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectRewritten, Verified: version, Evidence: readme, Note: "tool_input replaces the arguments, not merged"},
	{Answer: gates.AnswerContext, Effect: gates.EffectDropped, Verified: version, Evidence: "testdata/gemini/run", Note: "BeforeTool context never reaches the model"},
	{Answer: gates.AnswerAsk, Effect: gates.EffectHangs, Verified: version, Evidence: "testdata/gemini/ask", Note: "a headless run waits until it is killed"},
	{Answer: gates.AnswerCrash, Effect: gates.EffectFailedOpen, Verified: version, Evidence: "testdata/gemini/run"},
	{Answer: gates.AnswerInvalidJSON, Effect: gates.EffectFailedOpen, Verified: version, Evidence: readme},
	{Answer: gates.AnswerPostBlock, Effect: gates.EffectReplaced, Verified: version, Evidence: readme, Note: "the call ran; the model got the reason as its error"},
	{Answer: gates.AnswerPostContext, Effect: gates.EffectDelivered, Verified: version, Evidence: readme, Note: "appended to the output as <hook_context>"},
	{Answer: gates.AnswerNone, Effect: gates.EffectRan, Verified: version, Evidence: "testdata/gemini/run", Note: "no decision: the call ran as asked"},
}
