// Package qwen is the Qwen Code binding: Claude-style PreToolUse/PostToolUse command hooks in
// .qwen/settings.json, whose answers Qwen Code 0.24.4 honours only in part (docs/runtimes-qwen.md):
// a deny and its reason, exit 2 with text on stderr, and a PostToolUse continue: false and
// additionalContext work; updatedInput, a PreToolUse additionalContext, a PostToolUse decision
// "block" or exit 2 are dropped, and exit 2 with JSON on stderr is read as the answer.
package qwen

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the Qwen Code binding.
type Binding struct{}

// name is Qwen Code's name as messages spell it.
const name = "Qwen Code"

func (Binding) Runtime() string { return agent.Qwen }

func (Binding) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

// Checks are Qwen Code's own checks, the ones it shares with Claude Code's binding, and a hook
// that failed open.
func (Binding) Checks() []string {
	return []string{CheckRepairNotApplied, CheckPreToolSteer, CheckDenyDropsContext,
		CheckExit2JSON, CheckAskDenies, CheckPostBlockIgnored,
		gates.CheckRepairNoInput, gates.CheckBlockLetsThrough, gates.CheckAnswerHeavier, gates.CheckHookFailedOpen}
}

func (Binding) CallFields() []string { return []string{"command", "file_path"} }

// EditTools: write_file was verified (testdata/qwen); edit is listed from Qwen Code's docs.
func (Binding) EditTools() []string { return []string{"write_file", "edit"} }

func (Binding) ConfigFiles() []string { return []string{".qwen/settings.json"} }

// CommandKeys: "command" under hooks → event → matcher → hooks, as Claude Code's settings.
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 5}}
}

// KeysCallsByOrder: Qwen Code's hook input names the model's call (tool_call_id).
func (Binding) KeysCallsByOrder() bool { return false }

// ToolCall reads run_shell_command's command, the file of write_file, edit and read_file
// (file_path), and the texts write_file (content) and edit (new_string) wrote. An empty tool
// reads file_path.
func (b Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in toolInput
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	tc.Command, tc.FilePath = in.names(tool)
	switch tool {
	case "write_file", "edit", "":
		for _, s := range []string{gates.RawString(in.Content), gates.RawString(in.NewString)} {
			if gates.NotBlank(s) {
				tc.NewTexts = append(tc.NewTexts, s)
			}
		}
	}
	return tc
}

// ToolNames is ToolCall's Command and FilePath.
func (b Binding) ToolNames(tool string, input json.RawMessage) (command, filePath string) {
	var in toolInput
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return "", ""
	}
	return in.names(tool)
}

// toolInput are the tool-input fields of Qwen Code's tools the binding reads; strings are kept
// raw so that a value of the wrong type reads as absent.
type toolInput struct {
	Command   json.RawMessage `json:"command"`
	FilePath  json.RawMessage `json:"file_path"`
	Content   json.RawMessage `json:"content"`
	NewString json.RawMessage `json:"new_string"`
}

func (in toolInput) names(tool string) (command, filePath string) {
	switch tool {
	case "run_shell_command":
		command = gates.RawString(in.Command)
	case "write_file", "edit", "read_file", "":
		filePath = gates.RawString(in.FilePath)
	}
	return command, filePath
}

// hookStdin is Qwen Code's hook stdin: Claude Code's fields plus tool_call_id, the model's id of
// the call, which its stream-json and chat transcript carry (tool_use_id is its own).
type hookStdin struct {
	Event      string          `json:"hook_event_name"`
	Tool       string          `json:"tool_name"`
	Input      json.RawMessage `json:"tool_input"`
	ToolUseID  string          `json:"tool_use_id"`
	ToolCallID string          `json:"tool_call_id"`
	SessionID  string          `json:"session_id"`
	Cwd        string          `json:"cwd"`
}

// HookInput reads the call from Qwen Code's stdin, named by tool_call_id (tool_use_id when the
// provider sent no call id), so that the recorder's log and Qwen's own files name one call alike.
func (Binding) HookInput(stdin []byte) (gates.HookCall, bool) {
	var in hookStdin
	if json.Unmarshal(stdin, &in) != nil {
		return gates.HookCall{}, false
	}
	id := in.ToolCallID
	if id == "" {
		id = in.ToolUseID
	}
	c := gates.HookCall{Event: in.Event, Tool: in.Tool, ToolUseID: id, SessionID: in.SessionID, Cwd: in.Cwd}
	if gates.Present(in.Input) {
		c.Input = in.Input
	}
	return c, true
}

// output is a Qwen Code hook's stdout JSON (or, on exit 2, a JSON stderr, which Qwen reads the
// same way).
type output struct {
	Continue   *bool           `json:"continue"`
	StopReason json.RawMessage `json:"stopReason"`
	Decision   json.RawMessage `json:"decision"`
	Reason     json.RawMessage `json:"reason"`
	HSO        *struct {
		PermissionDecision       json.RawMessage `json:"permissionDecision"`
		PermissionDecisionReason json.RawMessage `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        json.RawMessage `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// decodeOutput reads s as a hook answer; nil when it is not a JSON object.
func decodeOutput(s string) *output {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") {
		return nil
	}
	var o output
	if json.Unmarshal([]byte(t), &o) != nil {
		return nil
	}
	return &o
}

// permission is the PreToolUse decision Qwen Code reads from o: hookSpecificOutput's
// permissionDecision, else a top-level decision (deny and block deny, allow and approve allow).
func (o *output) permission() string {
	if o == nil {
		return ""
	}
	if o.HSO != nil {
		if d := gates.RawString(o.HSO.PermissionDecision); d != "" {
			return d
		}
	}
	switch d := gates.RawString(o.Decision); d {
	case "block":
		return "deny"
	case "approve":
		return "allow"
	default:
		return d
	}
}

func (o *output) field(f func(*output) json.RawMessage) string {
	if o == nil || o.HSO == nil {
		return ""
	}
	return gates.RawString(f(o))
}

func (o *output) context() string {
	return o.field(func(o *output) json.RawMessage { return o.HSO.AdditionalContext })
}

// effect is what Qwen Code reads from o, as the shared checks take it: a top-level PreToolUse
// decision is its permissionDecision, and no hookEventName is required (Qwen does not check it).
// nil when o is nil (stdout that is not a JSON object, which the shared checks read as text).
func (o *output) effect(event string) *gates.HookOutput {
	if o == nil {
		return nil
	}
	h := &gates.HookOutput{Continue: o.Continue, StopReason: o.StopReason, Decision: o.Decision, Reason: o.Reason}
	if o.HSO != nil {
		h.HSO = &gates.HookSpecific{PermissionDecision: o.HSO.PermissionDecision, PermissionDecisionReason: o.HSO.PermissionDecisionReason,
			UpdatedInput: o.HSO.UpdatedInput, AdditionalContext: o.HSO.AdditionalContext}
	}
	if event == "PreToolUse" && (h.HSO == nil || gates.RawString(h.HSO.PermissionDecision) == "") {
		if p := o.permission(); p != "" {
			if h.HSO == nil {
				h.HSO = &gates.HookSpecific{}
			}
			h.HSO.PermissionDecision, _ = json.Marshal(p)
			if gates.RawString(h.HSO.PermissionDecisionReason) == "" {
				h.HSO.PermissionDecisionReason = o.Reason
			}
			h.Decision, h.Reason = nil, nil
		}
	}
	return h
}

// CheckHook checks the answer with the checks Qwen Code shares with Claude Code's binding, then
// adds Qwen's own: what Qwen 0.24.4 drops or reads otherwise.
func (b Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	var out *output
	if a.HasStdout {
		out = decodeOutput(a.Stdout)
	}
	res := gates.CheckAnswer(a, gates.Host{Name: name}, out.effect(a.Event))
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.HoldsFor(b))
	if a.Failed != "" || res.Decision == "failed" {
		return res
	}
	switch a.Event {
	case "PreToolUse":
		res.Breaches = append(res.Breaches, checkPre(a, out, res.Responses)...)
	case "PostToolUse":
		res.Breaches = append(res.Breaches, checkPost(a, out)...)
	}
	return res
}

// checkPre holds a PreToolUse answer to what Qwen Code does with it.
func checkPre(a gates.HookAnswer, out *output, rs []*gates.Response) []gates.Breach {
	if a.HasExit && a.ExitCode == 2 {
		if b, ok := exit2JSON(a); ok {
			return []gates.Breach{b}
		}
		return nil
	}
	if out == nil {
		return nil
	}
	var bs []gates.Breach
	perm := out.permission()
	if out.HSO != nil && gates.Present(out.HSO.UpdatedInput) {
		what := fmt.Sprintf("ran %s unchanged", gates.CallPhrase(a))
		switch perm {
		case "deny":
			what = fmt.Sprintf("denied %s", gates.CallPhrase(a))
		case "ask":
			what = fmt.Sprintf("denied %s (a headless ask is a deny)", gates.CallPhrase(a))
		}
		bs = append(bs, gates.Breach{Check: CheckRepairNotApplied, Pointer: "/hookSpecificOutput/updatedInput",
			Message: fmt.Sprintf("Hook %s rewrote the call with updatedInput, which %s never applies: it %s.", gates.HookName(a), name, what)})
	}
	ctx := out.context()
	ctxRs, _, _ := gates.FindResponses(ctx)
	switch perm {
	case "deny":
		reason := out.field(func(o *output) json.RawMessage { return o.HSO.PermissionDecisionReason })
		if reason == "" {
			reason = gates.RawString(out.Reason)
		}
		if inReason, _, _ := gates.FindResponses(reason); len(ctxRs) > 0 && len(inReason) == 0 {
			bs = append(bs, gates.Breach{Check: CheckDenyDropsContext, Pointer: "/hookSpecificOutput/additionalContext",
				Message: fmt.Sprintf("gate %q denied %s with its AGC response in additionalContext, which %s drops on a deny: the model got only the reason.", ctxRs[0].Gate.ID, gates.CallPhrase(a), name)})
		}
	case "ask":
		if !anyVerdict(rs, gates.Block) {
			bs = append(bs, gates.Breach{Check: CheckAskDenies, Pointer: "/hookSpecificOutput/permissionDecision",
				Message: fmt.Sprintf("Hook %s answered \"ask\" for %s: headless, %s denies the call, which is heavier than the gate's verdict.", gates.HookName(a), gates.CallPhrase(a), name)})
		}
	default:
		for _, r := range ctxRs {
			if r.Verdict == gates.Pass {
				continue
			}
			bs = append(bs, gates.Breach{Check: CheckPreToolSteer, Pointer: "/hookSpecificOutput/additionalContext",
				Message: fmt.Sprintf("gate %q answered %s for %s in PreToolUse's additionalContext, which %s drops: the call ran and the model never saw it.", r.Gate.ID, r.Verdict, gates.CallPhrase(a), name)})
			break
		}
	}
	return bs
}

// exit2JSON is the breach of a PreToolUse hook that exited 2 with a JSON object on stderr that
// does not deny: Qwen Code reads that stderr as the answer, so the call ran.
func exit2JSON(a gates.HookAnswer) (gates.Breach, bool) {
	if !a.HasStderr {
		return gates.Breach{}, false
	}
	o := decodeOutput(a.Stderr)
	if o == nil || o.permission() == "deny" {
		return gates.Breach{}, false
	}
	return gates.Breach{Check: CheckExit2JSON,
		Message: fmt.Sprintf("Hook %s exited 2 with JSON on stderr: %s read it as the answer, which does not deny, so %s ran.", gates.HookName(a), name, gates.CallPhrase(a))}, true
}

// checkPost: of a PostToolUse answer's blocks, Qwen Code honours only continue: false.
func checkPost(a gates.HookAnswer, out *output) []gates.Breach {
	if out != nil && out.Continue != nil && !*out.Continue {
		return nil
	}
	how := ""
	switch {
	case a.HasExit && a.ExitCode == 2:
		how = "exited 2"
	case out != nil && (gates.RawString(out.Decision) == "block" || gates.RawString(out.Decision) == "deny"):
		how = "answered decision \"" + gates.RawString(out.Decision) + "\""
	default:
		return nil
	}
	return []gates.Breach{{Check: CheckPostBlockIgnored, Pointer: "/decision",
		Message: fmt.Sprintf("PostToolUse hook %s %s after %s, which %s ignores: the result reached the model unchanged. Only continue: false with a stopReason replaces it.", gates.HookName(a), how, gates.CallPhrase(a), name)}}
}

// anyVerdict reports whether a response of rs has verdict v.
func anyVerdict(rs []*gates.Response, v gates.Verdict) bool {
	for _, r := range rs {
		if r.Verdict == v {
			return true
		}
	}
	return false
}

// Effects is what the runtime does with each answer form (effects.go).
func (Binding) Effects() gates.EffectTable { return effects }
