package codex

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the OpenAI Codex CLI binding (docs/runtimes.md): Claude-shaped hooks in
// .codex/hooks.json, but a repair must be sent with permissionDecision "allow", and "ask",
// continue:false, invalid JSON and crashes are ignored (the call runs unguarded).
type Binding struct{}

func (Binding) Runtime() string { return agent.Codex }

func (Binding) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

// CallFields: Codex presents its shell tool (exec_command) to hooks as Bash with a command.
func (Binding) CallFields() []string { return []string{"command"} }

// EditTools: apply_patch, read from Codex's documented input (codex_patch.go); the replays never
// offered it, so it is not verified with the runtime.
func (Binding) EditTools() []string { return []string{"apply_patch"} }

func (Binding) ConfigFiles() []string { return []string{".codex/hooks.json"} }

// ToolCall reads the command of a Bash call (Codex's exec_command as hooks see it), and the file
// and added lines of an apply_patch call, whose "command" is the patch.
func (Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in map[string]json.RawMessage
	if (tool != "Bash" && tool != "apply_patch" && tool != "") || len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	cmd := gates.RawString(in["command"])
	if tool == "apply_patch" || (tool == "" && strings.HasPrefix(cmd, "*** Begin Patch")) {
		return patchCall(cmd)
	}
	return gates.ToolCall{Command: cmd}
}

// Checks are the Codex binding's own checks, the Claude Code PreToolUse checks that hold for Codex
// as well, and a hook that failed open. The kept ones are verified with the real runtime
// (testdata/codex): exit 2 blocks and loses updatedInput, deny blocks, a hook context reaches the
// model. Repair-with-allow is the opposite rule here; the event-name check and the PostToolUse
// checks are not verified (a rollout cannot tell a PostToolUse context from a PreToolUse one), so
// they are left out.
func (Binding) Checks() []string {
	return []string{CheckRepairNoAllow, CheckAnswerIgnored, gates.CheckRepairByExit2, gates.CheckRepairNoInput,
		gates.CheckBlockLetsThrough, gates.CheckAnswerHeavier, gates.CheckHookFailedOpen}
}

// host names Codex for the shared checks; its tool events are PreToolUse and PostToolUse.
func host() gates.Host { return gates.Host{Name: "Codex"} }

// CheckHook reads the answer with the shared checks of hookSpecificOutput answers, keeps the checks Codex shares, and adds its own.
func (Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	res := gates.CheckAnswer(a, host(), nil)
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.HoldsFor(Binding{}))
	if a.Refused && !a.HasExit && anyVerdict(res.Responses, gates.Repaired) {
		// A refusal text alone cannot tell exit 2 (agc/repair-by-exit-2) from a deny (a block
		// heavier than the repaired verdict); the recorder's log of the event says which.
		res.Breaches = gates.KeepBreaches(res.Breaches, func(id string) bool { return id != gates.CheckAnswerHeavier })
	}
	v := gates.View(a, host(), nil)
	if v.Failed != "" || v.Out == nil || a.Event != "PreToolUse" {
		return res
	}
	gate := "the gate"
	if len(res.Responses) > 0 {
		gate = fmt.Sprintf("gate %q", res.Responses[0].Gate.ID)
	}
	if v.Out.HSO != nil && gates.Present(v.Out.HSO.UpdatedInput) && v.Decision != "allow" && !v.Blocked() {
		res.UpdatedInput, res.Decision = nil, ""
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckRepairNoAllow, Pointer: "/hookSpecificOutput/permissionDecision",
			Message: fmt.Sprintf("Hook %s (%s) sent updatedInput without permissionDecision \"allow\", so Codex ignored the rewrite and %s ran unchanged.", gates.HookName(a), gate, gates.CallPhrase(a))})
	}
	ignored := ""
	switch {
	case v.Decision == "ask":
		ignored = "permissionDecision \"ask\""
	case v.Out.Continue != nil && !*v.Out.Continue:
		ignored = "continue: false"
		if v.Decision != "deny" && v.Decision != "block" && !v.Exit2 {
			// Read as Claude Code's, continue:false blocked; here nothing did.
			res.Breaches = gates.KeepBreaches(res.Breaches, func(id string) bool { return id != gates.CheckAnswerHeavier })
		}
	}
	if ignored != "" {
		res.Decision = ""
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckAnswerIgnored, Pointer: "/hookSpecificOutput/permissionDecision",
			Message: fmt.Sprintf("Hook %s (%s) answered with %s, which Codex does not support: it failed open and %s went ahead unguarded.", gates.HookName(a), gate, ignored, gates.CallPhrase(a))})
	}
	return res
}

// HookTool is the tool name Codex gives hooks for a function call of its rollout: its shell
// tools (exec_command, shell) are presented as Bash; others keep their names.
func HookTool(name string) string {
	switch name {
	case "exec_command", "shell", "local_shell", "":
		return "Bash"
	}
	return name
}

// anyVerdict reports whether one of the responses has verdict v.
func anyVerdict(rs []*gates.Response, v gates.Verdict) bool {
	for _, r := range rs {
		if r.Verdict == v {
			return true
		}
	}
	return false
}

// HookInput: the stdin has the snake_case fields.
func (Binding) HookInput([]byte) (gates.HookCall, bool) { return gates.HookCall{}, false }

// ToolNames is ToolCall's Command and FilePath.
func (b Binding) ToolNames(tool string, input json.RawMessage) (command, filePath string) {
	tc := b.ToolCall(tool, input)
	return tc.Command, tc.FilePath
}

// KeysCallsByOrder: Codex's hook input names the tool call.
func (Binding) KeysCallsByOrder() bool { return false }

// CommandKeys: Claude Code's shape, "command" under hooks → event → matcher → hooks.
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 5}}
}

// Effects is what the runtime does with each answer form (effects.go).
func (Binding) Effects() gates.EffectTable { return effects }
