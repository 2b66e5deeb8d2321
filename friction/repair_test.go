package friction

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// TestRepairAnswerAccepted: the repair a rewrite pattern hands back is an answer each runtime's
// binding accepts as a repair: one AGC response, verdict repaired, no breach of the contract.
func TestRepairAnswerAccepted(t *testing.T) {
	ex := Correction{Before: "python scripts/build.py --fast", After: "python3 scripts/build.py --fast"}
	for _, tt := range []struct{ runtime, event, tool string }{
		{agent.ClaudeCode, "PreToolUse", "Bash"},
		{agent.Codex, "PreToolUse", "Bash"},
		{agent.Gemini, "BeforeTool", "run_shell_command"},
		{agent.Copilot, "preToolUse", "bash"},
		{agent.Droid, "PreToolUse", "Execute"},
		{agent.Crush, "PreToolUse", "bash"},
	} {
		answer := repairAnswer(tt.runtime, "shell-ladder/python3-only", "Bash", "python", "python3", ex)
		res := runtimes.For(tt.runtime).CheckHook(gates.HookAnswer{Event: tt.event, Tool: tt.tool,
			HasExit: true, HasStdout: true, Stdout: answer, HasStderr: true})
		if len(res.Breaches) > 0 || len(res.Responses) != 1 || res.Responses[0].Verdict != gates.Repaired || res.Decision != "repaired" {
			t.Errorf("%s: %s\nbreaches %+v, responses %d, decision %q", tt.runtime, answer, res.Breaches, len(res.Responses), res.Decision)
		}
	}
	// Qwen Code ignores updatedInput: no answer makes its gate run the correction.
	if answer := repairAnswer(agent.Qwen, "shell-ladder/python3-only", "run_shell_command", "python", "python3", ex); answer != "" {
		t.Errorf("%s: %s, want no repair answer", agent.Qwen, answer)
	}
}
