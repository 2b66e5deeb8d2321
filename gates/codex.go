package gates

import (
	"encoding/json"
	"fmt"
	"strings"
)

// RuntimeCodex is OpenAI Codex CLI's runtime id.
const RuntimeCodex = "codex"

// codexCLI is the OpenAI Codex CLI binding (docs/runtimes.md): Claude-shaped hooks in
// .codex/hooks.json, but a repair must be sent with permissionDecision "allow", and "ask",
// continue:false, invalid JSON and crashes are ignored (the call runs unguarded).
type codexCLI struct{}

func (codexCLI) Runtime() string { return RuntimeCodex }

func (codexCLI) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

// CallFields: Codex presents its shell tool (exec_command) to hooks as Bash with a command.
func (codexCLI) CallFields() []string { return []string{"command"} }

// EditTools: apply_patch, read from Codex's documented input (codex_patch.go); the replays never
// offered it, so it is not verified with the runtime.
func (codexCLI) EditTools() []string { return []string{"apply_patch"} }

func (codexCLI) ConfigFiles() []string { return []string{".codex/hooks.json"} }

// ToolCall reads the command of a Bash call (Codex's exec_command as hooks see it), and the file
// and added lines of an apply_patch call, whose "command" is the patch.
func (codexCLI) ToolCall(tool string, input json.RawMessage) ToolCall {
	var in map[string]json.RawMessage
	if (tool != "Bash" && tool != "apply_patch" && tool != "") || len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return ToolCall{}
	}
	cmd := rawString(in["command"])
	if tool == "apply_patch" || (tool == "" && strings.HasPrefix(cmd, "*** Begin Patch")) {
		return patchCall(cmd)
	}
	return ToolCall{Command: cmd}
}

// Checks are the Codex binding's own checks, the Claude Code PreToolUse checks that hold for Codex
// as well, and a hook that failed open. The kept ones are verified with the real runtime
// (testdata/codex): exit 2 blocks and loses updatedInput, deny blocks, a hook context reaches the
// model. Repair-with-allow is the opposite rule here; the event-name check and the PostToolUse
// checks are not verified (a rollout cannot tell a PostToolUse context from a PreToolUse one), so
// they are left out.
func (codexCLI) Checks() []string {
	return []string{CheckCodexRepairNoAllow, CheckCodexAnswerIgnored, CheckRepairByExit2, CheckRepairNoInput,
		CheckBlockLetsThrough, CheckAnswerHeavier, CheckHookFailedOpen}
}

// CheckHook reads the answer as Claude Code's, keeps the checks Codex shares, and adds its own.
func (codexCLI) CheckHook(a HookAnswer) HookResult {
	res := CheckClaudeHook(a)
	res.Breaches = keepBreaches(res.Breaches, holdsFor(codexCLI{}))
	restate(res.Breaches, "Codex", "", "")
	if a.Refused && !a.HasExit && anyVerdict(res.Responses, Repaired) {
		// A refusal text alone cannot tell exit 2 (agc/repair-by-exit-2) from a deny (a block
		// heavier than the repaired verdict); the recorder's log of the event says which.
		res.Breaches = keepBreaches(res.Breaches, func(id string) bool { return id != CheckAnswerHeavier })
	}
	v := view(a)
	if v.failed != "" || v.out == nil || a.Event != "PreToolUse" {
		return res
	}
	gate := "the gate"
	if len(res.Responses) > 0 {
		gate = fmt.Sprintf("gate %q", res.Responses[0].Gate.ID)
	}
	if v.out.HSO != nil && present(v.out.HSO.UpdatedInput) && v.decision != "allow" && !v.blocked() {
		res.UpdatedInput, res.Decision = nil, ""
		res.Breaches = append(res.Breaches, Breach{Check: CheckCodexRepairNoAllow, Pointer: "/hookSpecificOutput/permissionDecision",
			Message: fmt.Sprintf("Hook %s (%s) sent updatedInput without permissionDecision \"allow\", so Codex ignored the rewrite and %s ran unchanged.", hookName(a), gate, callPhrase(a))})
	}
	ignored := ""
	switch {
	case v.decision == "ask":
		ignored = "permissionDecision \"ask\""
	case v.out.Continue != nil && !*v.out.Continue:
		ignored = "continue: false"
		if v.decision != "deny" && v.decision != "block" && !v.exit2 {
			// Read as Claude Code's, continue:false blocked; here nothing did.
			res.Breaches = keepBreaches(res.Breaches, func(id string) bool { return id != CheckAnswerHeavier })
		}
	}
	if ignored != "" {
		res.Decision = ""
		res.Breaches = append(res.Breaches, Breach{Check: CheckCodexAnswerIgnored, Pointer: "/hookSpecificOutput/permissionDecision",
			Message: fmt.Sprintf("Hook %s (%s) answered with %s, which Codex does not support: it failed open and %s went ahead unguarded.", hookName(a), gate, ignored, callPhrase(a))})
	}
	return res
}

// CodexHookTool is the tool name Codex gives hooks for a function call of its rollout: its shell
// tools (exec_command, shell) are presented as Bash; others keep their names.
func CodexHookTool(name string) string {
	switch name {
	case "exec_command", "shell", "local_shell", "":
		return "Bash"
	}
	return name
}

// anyVerdict reports whether one of the responses has verdict v.
func anyVerdict(rs []*Response, v Verdict) bool {
	for _, r := range rs {
		if r.Verdict == v {
			return true
		}
	}
	return false
}

// HookInput: the stdin has the snake_case fields.
func (codexCLI) HookInput([]byte) (HookCall, bool) { return HookCall{}, false }
