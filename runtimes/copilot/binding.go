package copilot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the GitHub Copilot CLI binding (docs/runtimes.md): camelCase hooks in
// .github/hooks/*.json; preToolUse answers with top-level permissionDecision,
// permissionDecisionReason, modifiedArgs (repair) and additionalContext; exit 2 blocks but loses
// stderr; a crash fails closed; Claude-style hookSpecificOutput is ignored.
type Binding struct{}

func (Binding) Runtime() string { return agent.Copilot }

func (Binding) Events() []string { return []string{"preToolUse", "postToolUse"} }

func (Binding) CallFields() []string { return []string{"command", "path"} }

// EditTools: Copilot's edit and create were not offered in the replays; listed from its docs.
func (Binding) EditTools() []string { return []string{"edit", "create"} }

// ConfigFiles: every .github/hooks/*.json file declares hooks; Copilot loads them all.
func (Binding) ConfigFiles() []string { return []string{".github/hooks/*.json"} }

// Checks are Copilot's own checks.
func (Binding) Checks() []string {
	return []string{CheckAnswerIgnored, CheckExit2Reason, CheckFailedClosed}
}

// ToolCall reads bash's command, and the path and new text of edit (new_str) and create
// (file_text).
func (Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in map[string]json.RawMessage
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	switch tool {
	case "bash":
		tc.Command = gates.RawString(in["command"])
	case "edit", "create", "":
		tc.FilePath = gates.RawString(in["path"])
		for _, k := range []string{"new_str", "file_text"} {
			if s := gates.RawString(in[k]); gates.NotBlank(s) {
				tc.NewTexts = append(tc.NewTexts, s)
			}
		}
	}
	return tc
}

// HookInput reads Copilot's camelCase hook stdin: sessionId, cwd, toolName, toolArgs; a
// toolResult marks postToolUse. It keeps no tool-call id.
func (Binding) HookInput(stdin []byte) (gates.HookCall, bool) {
	var in struct {
		SessionID  string          `json:"sessionId"`
		Cwd        string          `json:"cwd"`
		ToolName   string          `json:"toolName"`
		ToolArgs   json.RawMessage `json:"toolArgs"`
		ToolResult json.RawMessage `json:"toolResult"`
	}
	if json.Unmarshal(stdin, &in) != nil {
		return gates.HookCall{}, false
	}
	c := gates.HookCall{Event: "preToolUse", Tool: in.ToolName, SessionID: in.SessionID, Cwd: in.Cwd}
	if gates.Present(in.ToolResult) {
		c.Event = "postToolUse"
	}
	if gates.Present(in.ToolArgs) {
		c.Input = in.ToolArgs
	}
	return c, true
}

// KeysCallsByOrder: Copilot's hook input names no tool call, so its events are matched across
// files by session, event, tool, arguments and the order of calls with those arguments.
func (Binding) KeysCallsByOrder() bool { return true }

// host names Copilot CLI and its tool events for the shared checks.
func host() gates.Host {
	return gates.Host{Name: "Copilot CLI", Pre: "preToolUse", Post: "postToolUse"}
}

// CheckHook decodes a Copilot answer into its own shape, checks its effect with the generic
// checks and adds its own; a crash fails closed here, so it is not a hook that failed open.
func (Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	answer, ignored := decodeAnswer(a)
	res := gates.CheckAnswer(a, host(), answer)
	failed := gates.HasCheck(res.Breaches, gates.CheckHookFailedOpen) && (a.HasExit && a.ExitCode != 0 || a.Failed == "crashed")
	res.Breaches = gates.KeepBreaches(res.Breaches, func(id string) bool { return gates.GenericCheck(id) && !(failed && id == gates.CheckHookFailedOpen) })
	switch {
	case failed:
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckFailedClosed,
			Message: fmt.Sprintf("%s hook %s failed (%s), so Copilot CLI denied %s with \"(hook errored)\" instead of a gate's reason.", a.Event, gates.HookName(a), exitPhrase(a), gates.CallPhrase(a))})
	case a.HasExit && a.ExitCode == 2:
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckExit2Reason,
			Message: fmt.Sprintf("%s hook %s blocked %s by exit 2: Copilot CLI tells the model only \"hook exited with code 2\", so its reason never reached the model.", a.Event, gates.HookName(a), gates.CallPhrase(a))})
	case ignored:
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckAnswerIgnored, Pointer: "/hookSpecificOutput",
			Message: fmt.Sprintf("%s hook %s answered with Claude Code's hookSpecificOutput, which Copilot CLI ignores: %s went ahead unguarded.", a.Event, gates.HookName(a), gates.CallPhrase(a))})
	}
	return res
}

// copilotOutput is a Copilot hook's stdout JSON.
type copilotOutput struct {
	PermissionDecision       json.RawMessage `json:"permissionDecision"`
	PermissionDecisionReason json.RawMessage `json:"permissionDecisionReason"`
	ModifiedArgs             json.RawMessage `json:"modifiedArgs"`
	AdditionalContext        json.RawMessage `json:"additionalContext"`
	Decision                 json.RawMessage `json:"decision"`
	Reason                   json.RawMessage `json:"reason"`
	HSO                      json.RawMessage `json:"hookSpecificOutput"`
}

// decodeAnswer decodes a Copilot answer's stdout into the effect the shared checks read: its
// top-level permissionDecision, permissionDecisionReason, modifiedArgs (the rewrite),
// additionalContext, and decision with reason. nil when stdout is not a Copilot answer object
// (the shared checks then read it as text or as invalid JSON). ignored says the answer was
// Claude Code's hookSpecificOutput alone, which Copilot ignores.
func decodeAnswer(a gates.HookAnswer) (answer *gates.HookOutput, ignored bool) {
	t := strings.TrimSpace(a.Stdout)
	var o copilotOutput
	if !a.HasStdout || !strings.HasPrefix(t, "{") || json.Unmarshal([]byte(t), &o) != nil {
		return nil, false
	}
	hso := &gates.HookSpecific{}
	answer = &gates.HookOutput{HSO: hso}
	acted := false
	if gates.RawString(o.PermissionDecision) != "" {
		hso.PermissionDecision, acted = o.PermissionDecision, true
	}
	if gates.RawString(o.PermissionDecisionReason) != "" {
		hso.PermissionDecisionReason, acted = o.PermissionDecisionReason, true
	}
	if gates.Present(o.ModifiedArgs) {
		hso.UpdatedInput, acted = compact(o.ModifiedArgs), true
	}
	if gates.Present(o.AdditionalContext) {
		hso.AdditionalContext, acted = o.AdditionalContext, true
	}
	if gates.RawString(o.Decision) != "" {
		answer.Decision, answer.Reason, acted = o.Decision, o.Reason, true
	}
	return answer, gates.Present(o.HSO) && !acted
}

// compact is raw JSON without insignificant white space, as a rewrite's input is compared and
// shown.
func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// exitPhrase says how a failed hook ended: its exit status when known.
func exitPhrase(a gates.HookAnswer) string {
	if a.HasExit {
		return fmt.Sprintf("exit status %d", a.ExitCode)
	}
	return "exit status not recorded"
}

// ToolNames is ToolCall's Command and FilePath.
func (b Binding) ToolNames(tool string, input json.RawMessage) (command, filePath string) {
	tc := b.ToolCall(tool, input)
	return tc.Command, tc.FilePath
}

// CommandKeys: "bash" and "powershell" right under hooks → event.
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "bash", Depth: 4}, {Key: "powershell", Depth: 4}}
}

// Effects is what the runtime does with each answer form (effects.go).
func (Binding) Effects() gates.EffectTable { return effects }
