package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the Gemini CLI binding (docs/runtimes.md): BeforeTool/AfterTool hooks in
// .gemini/settings.json answering with a top-level decision (deny/block) and reason; a repair is
// hookSpecificOutput.tool_input, which replaces the arguments; BeforeTool ignores
// additionalContext; "ask" hangs a headless run; crashes and invalid JSON fail open.
type Binding struct{}

func (Binding) Runtime() string { return agent.Gemini }

func (Binding) Events() []string { return []string{"BeforeTool", "AfterTool"} }

func (Binding) CallFields() []string { return []string{"command", "file_path"} }

// EditTools: write_file and replace were not offered in the replays; listed from Gemini's docs.
func (Binding) EditTools() []string { return []string{"write_file", "replace"} }

func (Binding) ConfigFiles() []string { return []string{".gemini/settings.json"} }

// Checks are Gemini's own checks, the BeforeTool checks it shares with Claude Code, and a hook
// that failed open.
func (Binding) Checks() []string {
	return []string{CheckBeforeToolSteer, CheckRepairDropsArgs, CheckAsk, CheckExit2JSON, gates.CheckRepairByExit2,
		gates.CheckRepairNoInput, gates.CheckBlockLetsThrough, gates.CheckAnswerHeavier, gates.CheckHookFailedOpen}
}

// ToolCall reads run_shell_command's command, and the file and new text of write_file (content)
// and replace (new_string).
func (Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in map[string]json.RawMessage
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	switch tool {
	case "run_shell_command":
		tc.Command = gates.RawString(in["command"])
	case "write_file", "replace", "":
		tc.FilePath = gates.RawString(in["file_path"])
		for _, k := range []string{"content", "new_string"} {
			if s := gates.RawString(in[k]); gates.NotBlank(s) {
				tc.NewTexts = append(tc.NewTexts, s)
			}
		}
	}
	return tc
}

// host names Gemini CLI and its tool events for the shared checks.
func host() gates.Host { return gates.Host{Name: "Gemini CLI", Pre: "BeforeTool", Post: "AfterTool"} }

// CheckHook decodes a Gemini answer into its own shape and checks its effect (decision deny or
// block, tool_input's rewrite, additionalContext) with the shared checks it keeps, then adds
// Gemini's own.
func (Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	g, answer, out := decodeAnswer(a)
	res := gates.CheckAnswer(g, host(), answer)
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.HoldsFor(Binding{}))
	if a.Event != "BeforeTool" || gates.View(g, host(), answer).Failed != "" {
		return res
	}
	if b, ok := exit2JSON(a); ok {
		res.Breaches = append(res.Breaches, b)
	}
	if out == nil {
		return res
	}
	hso := out.HSO
	if d := gates.RawString(out.Decision); d == "ask" {
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckAsk, Pointer: "/decision",
			Message: fmt.Sprintf("Hook %s answered decision \"ask\": Gemini CLI waits for a person, so a headless run hangs until it is killed.", gates.HookName(a))})
	}
	if hso != nil && gates.Present(hso.ToolInput) {
		if lost := droppedArgs(a.ToolInput, hso.ToolInput); len(lost) > 0 {
			res.Breaches = append(res.Breaches, gates.Breach{Check: CheckRepairDropsArgs, Pointer: "/hookSpecificOutput/tool_input",
				Message: fmt.Sprintf("Hook %s rewrote %s with a tool_input that lacks %s: Gemini CLI replaces the arguments, so they were dropped.", gates.HookName(a), gates.CallPhrase(a), strings.Join(lost, ", "))})
		}
	}
	for _, r := range res.Responses {
		if r.Verdict == gates.Steer && hso != nil && gates.RawString(hso.AdditionalContext) != "" {
			res.Breaches = append(res.Breaches, gates.Breach{Check: CheckBeforeToolSteer, Pointer: "/hookSpecificOutput/additionalContext",
				Message: fmt.Sprintf("gate %q steered %s from BeforeTool, whose additionalContext Gemini CLI ignores: the model never saw it.", r.Gate.ID, gates.CallPhrase(a))})
			break
		}
	}
	return res
}

// exit2JSON is the breach of a BeforeTool hook that exited 2 with a JSON object on stderr that
// does not deny: Gemini CLI reads that stderr as the answer, so the call ran.
func exit2JSON(a gates.HookAnswer) (gates.Breach, bool) {
	if !a.HasExit || a.ExitCode != 2 || !a.HasStderr {
		return gates.Breach{}, false
	}
	var o geminiOutput
	t := strings.TrimSpace(a.Stderr)
	if !strings.HasPrefix(t, "{") || json.Unmarshal([]byte(t), &o) != nil {
		return gates.Breach{}, false
	}
	if d := gates.RawString(o.Decision); d == "deny" || d == "block" {
		return gates.Breach{}, false
	}
	return gates.Breach{Check: CheckExit2JSON, Pointer: "",
		Message: fmt.Sprintf("Hook %s exited 2 with JSON on stderr: Gemini CLI read it as the answer, which does not deny, so %s ran.", gates.HookName(a), gates.CallPhrase(a))}, true
}

// geminiOutput is a Gemini hook's stdout JSON.
type geminiOutput struct {
	Decision json.RawMessage `json:"decision"`
	Reason   json.RawMessage `json:"reason"`
	HSO      *struct {
		ToolInput         json.RawMessage `json:"tool_input"`
		AdditionalContext json.RawMessage `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// decodeAnswer decodes a Gemini answer's stdout into its own shape (out) and into the effect the
// shared checks read (answer; nil when stdout is not a JSON object, which they read as text).
// Stdout that is not valid JSON is an allow with a system message: the hook failed open.
func decodeAnswer(a gates.HookAnswer) (g gates.HookAnswer, answer *gates.HookOutput, out *geminiOutput) {
	g = a
	t := strings.TrimSpace(a.Stdout)
	if !a.HasStdout || !strings.HasPrefix(t, "{") {
		return g, nil, nil
	}
	var o geminiOutput
	if json.Unmarshal([]byte(t), &o) != nil {
		g.Stdout, g.Failed = "", "answered with stdout that is not valid JSON (Gemini CLI let the call run)"
		return g, nil, nil
	}
	pre := a.Event == "BeforeTool"
	hso := &gates.HookSpecific{}
	answer = &gates.HookOutput{HSO: hso}
	switch d := gates.RawString(o.Decision); {
	case (d == "deny" || d == "block") && pre:
		hso.PermissionDecision = json.RawMessage(`"deny"`)
	case d == "deny" || d == "block":
		answer.Decision, answer.Reason = json.RawMessage(`"block"`), o.Reason
	case (d == "allow" || d == "ask") && pre:
		hso.PermissionDecision = o.Decision
	}
	if pre && gates.RawString(o.Reason) != "" {
		hso.PermissionDecisionReason = o.Reason
	}
	if o.HSO != nil {
		if gates.Present(o.HSO.ToolInput) {
			hso.UpdatedInput = compact(o.HSO.ToolInput)
		}
		if gates.Present(o.HSO.AdditionalContext) {
			hso.AdditionalContext = o.HSO.AdditionalContext
		}
	}
	return g, answer, &o
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

// droppedArgs are the argument names of before that after lacks, sorted.
func droppedArgs(before, after json.RawMessage) []string {
	var b, a map[string]json.RawMessage
	if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil {
		return nil
	}
	var lost []string
	for k := range b {
		if _, ok := a[k]; !ok {
			lost = append(lost, k)
		}
	}
	sort.Strings(lost)
	return lost
}

// HookInput: the stdin has the snake_case fields.
func (Binding) HookInput([]byte) (gates.HookCall, bool) { return gates.HookCall{}, false }

// KeysCallsByOrder: Gemini's hook input names no tool call, so its events are matched across
// files by session, event, tool, arguments and the order of calls with those arguments.
func (Binding) KeysCallsByOrder() bool { return true }

// ToolNames is ToolCall's Command and FilePath.
func (b Binding) ToolNames(tool string, input json.RawMessage) (command, filePath string) {
	tc := b.ToolCall(tool, input)
	return tc.Command, tc.FilePath
}

// CommandKeys: "command" under hooks → event → matcher → hooks, as Claude Code's settings.
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 5}}
}

// Effects is what the runtime does with each answer form (effects.go).
func (Binding) Effects() gates.EffectTable { return effects }
