// Package droid is the Factory Droid binding: Claude-shaped PreToolUse/PostToolUse command hooks
// in .factory/hooks.json (event names at the top level), whose answers Droid 0.225.2 reads in part
// (docs/runtimes-droid.md): a deny, exit 2 (text or JSON on stderr), updatedInput with or without
// allow, exit 3 and continue: false (which end the session) work; a top-level decision "block", a
// PreToolUse additionalContext, "ask" in an exec run and a PostToolUse decision "block" are dropped.
// Its hook input names no call, so its events are keyed by order.
package droid

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the Factory Droid binding.
type Binding struct{}

// name is Factory Droid's name as messages spell it.
const name = "Factory Droid"

// version is the Droid build the binding's effects were observed with.
const version = "0.225.2"

func (Binding) Runtime() string { return agent.Droid }

func (Binding) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

// Checks are Droid's own checks, the shared ones that hold for its answers, and a hook that
// failed open. A verdict in a PreToolUse additionalContext that Droid drops is CheckPreToolSteer's,
// whatever it says (so no repaired-without-updatedInput or block-lets-through from it); a
// PostToolUse decision "block" is CheckPostBlockIgnored's.
func (Binding) Checks() []string {
	return []string{CheckDecisionBlockIgnored, CheckPreToolSteer, CheckDenyDropsContext, CheckAskNotAsked, CheckPostBlockIgnored,
		gates.CheckRepairWithAllow, gates.CheckRepairByExit2, gates.CheckAnswerHeavier, gates.CheckHookFailedOpen}
}

func (Binding) CallFields() []string { return []string{"command", "file_path"} }

// EditTools: Create was verified (testdata/droid); Edit and ApplyPatch are its other writers.
func (Binding) EditTools() []string { return []string{"Create", "Edit", "ApplyPatch"} }

// ConfigFiles: .factory/hooks.json (read first); .factory/settings.json's "hooks" when there is
// no hooks.json.
func (Binding) ConfigFiles() []string {
	return []string{".factory/hooks.json", ".factory/settings.json"}
}

// CommandKeys: "command" under event → matcher → hooks, with the events at the top level of
// hooks.json, or under "hooks" in settings.json (as Claude Code's settings).
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 4, File: ".factory/hooks.json"}, {Key: "command", Depth: 5}}
}

// KeysCallsByOrder: Droid's hook input names no call (no tool_use_id), so its events are matched
// across files by order.
func (Binding) KeysCallsByOrder() bool { return true }

// HookInput: the stdin has Claude Code's snake_case fields.
func (Binding) HookInput([]byte) (gates.HookCall, bool) { return gates.HookCall{}, false }

// ToolCall reads Execute's command, the file of Create, Edit and Read (file_path), and the texts
// Create (content) and Edit (new_str) wrote. An empty tool reads file_path.
func (b Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in toolInput
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	tc.Command, tc.FilePath = in.names(tool)
	switch tool {
	case "Create", "Edit", "":
		for _, s := range []string{gates.RawString(in.Content), gates.RawString(in.NewStr)} {
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

// toolInput are the tool-input fields of Droid's tools the binding reads, kept raw so that a
// value of the wrong type reads as absent.
type toolInput struct {
	Command  json.RawMessage `json:"command"`
	FilePath json.RawMessage `json:"file_path"`
	Content  json.RawMessage `json:"content"`
	NewStr   json.RawMessage `json:"new_str"`
}

func (in toolInput) names(tool string) (command, filePath string) {
	switch tool {
	case "Execute":
		command = gates.RawString(in.Command)
	case "Create", "Edit", "Read", "":
		filePath = gates.RawString(in.FilePath)
	}
	return command, filePath
}

// output is a Droid hook's stdout JSON: Claude Code's shape.
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

func (o *output) hso(f func(*output) json.RawMessage) string {
	if o == nil || o.HSO == nil {
		return ""
	}
	return gates.RawString(f(o))
}

func (o *output) permission() string {
	return o.hso(func(o *output) json.RawMessage { return o.HSO.PermissionDecision })
}

func (o *output) context() string {
	return o.hso(func(o *output) json.RawMessage { return o.HSO.AdditionalContext })
}

func (o *output) rewrites() bool {
	return o != nil && o.HSO != nil && gates.Present(o.HSO.UpdatedInput)
}

// effect is the answer as Droid acts on it, for the shared checks: no top-level decision or
// reason (Droid reads neither; continue: false's stopReason is the reason of its halt), no "ask" (an exec run never asks: its autonomy level decides),
// and in PreToolUse no additionalContext (it never reaches the model) but beside a rewrite, whose
// AGC response tells of the rewrite Droid applied. nil when o is nil.
func (o *output) effect(event string) *gates.HookOutput {
	if o == nil {
		return nil
	}
	h := &gates.HookOutput{Continue: o.Continue, StopReason: o.StopReason}
	if o.Continue != nil && !*o.Continue {
		h.Reason = o.StopReason // the stopReason is the block's reason: it may carry the AGC text form
	}
	if o.HSO != nil {
		h.HSO = &gates.HookSpecific{PermissionDecision: o.HSO.PermissionDecision, PermissionDecisionReason: o.HSO.PermissionDecisionReason,
			UpdatedInput: o.HSO.UpdatedInput, AdditionalContext: o.HSO.AdditionalContext}
		if o.permission() == "ask" {
			h.HSO.PermissionDecision, h.HSO.PermissionDecisionReason = nil, nil
		}
		if event == "PreToolUse" && !o.rewrites() {
			h.HSO.AdditionalContext = nil
		}
	}
	return h
}

// host names Droid for the shared checks.
var host = gates.Host{Name: name}

// CheckHook checks the answer as Droid acts on it: the shared checks on its effect, then Droid's
// own for what it dropped. Exit 3 is a block that aborts the agent (read as exit 2's block, with
// its stderr as the reason), never a crash.
func (b Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	var out *output
	if a.HasStdout && !(a.HasExit && a.ExitCode != 0) {
		out = decodeOutput(a.Stdout)
	}
	eff := a
	if halted(a) {
		eff.ExitCode = 2
	}
	res := gates.CheckAnswer(eff, host, out.effect(a.Event))
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.HoldsFor(b))
	if a.Refused && !a.HasExit {
		// Only the text the model got is known (the stream): a deny or exit 2 alike, so no check
		// of the answer's form holds; the session or the recorder's log tells it.
		res.Breaches = gates.KeepBreaches(res.Breaches, func(id string) bool { return id != gates.CheckAnswerHeavier && id != gates.CheckRepairByExit2 })
		return res
	}
	if res.Decision == "failed" || out == nil {
		return res
	}
	switch a.Event {
	case "PreToolUse":
		res.Breaches = append(res.Breaches, checkPre(a, out)...)
	case "PostToolUse":
		res.Breaches = append(res.Breaches, checkPost(a, out)...)
	}
	return res
}

// halted reports a hook that exited 3: Droid aborts the agent, the call does not run.
func halted(a gates.HookAnswer) bool { return a.Failed == "" && a.HasExit && a.ExitCode == 3 }

// checkPre holds a PreToolUse answer to what Droid does with it.
func checkPre(a gates.HookAnswer, out *output) []gates.Breach {
	var bs []gates.Breach
	perm := out.permission()
	if d := gates.RawString(out.Decision); (d == "block" || d == "deny") && perm != "deny" && (out.Continue == nil || *out.Continue) {
		bs = append(bs, gates.Breach{Check: CheckDecisionBlockIgnored, Pointer: "/decision",
			Message: fmt.Sprintf("Hook %s answered the top-level decision %q, which %s ignores: %s ran. %s blocks only with hookSpecificOutput.permissionDecision \"deny\", exit 2 or exit 3.", gates.HookName(a), d, name, gates.CallPhrase(a), name)})
	}
	if perm == "ask" {
		bs = append(bs, gates.Breach{Check: CheckAskNotAsked, Pointer: "/hookSpecificOutput/permissionDecision",
			Message: fmt.Sprintf("Hook %s answered \"ask\" for %s: %s asks nobody in an exec run, its autonomy level decided and the call ran.", gates.HookName(a), gates.CallPhrase(a), name)})
	}
	if out.rewrites() {
		return bs
	}
	ctxRs, _, _ := gates.FindResponses(out.context())
	switch perm {
	case "deny":
		reason := out.hso(func(o *output) json.RawMessage { return o.HSO.PermissionDecisionReason })
		if inReason, _, _ := gates.FindResponses(reason); len(ctxRs) > 0 && len(inReason) == 0 {
			bs = append(bs, gates.Breach{Check: CheckDenyDropsContext, Pointer: "/hookSpecificOutput/additionalContext",
				Message: fmt.Sprintf("gate %q denied %s with its AGC response in additionalContext, which %s drops: the model got only the reason.", ctxRs[0].Gate.ID, gates.CallPhrase(a), name)})
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

// checkPost: Droid ignores a PostToolUse decision "block" and its reason (the result reaches the
// model unchanged; an additionalContext beside it is delivered).
func checkPost(a gates.HookAnswer, out *output) []gates.Breach {
	d := gates.RawString(out.Decision)
	if d != "block" && d != "deny" || out.Continue != nil && !*out.Continue {
		return nil
	}
	return []gates.Breach{{Check: CheckPostBlockIgnored, Pointer: "/decision",
		Message: fmt.Sprintf("PostToolUse hook %s answered decision %q after %s, which %s ignores with its reason: the result reached the model unchanged.", gates.HookName(a), d, gates.CallPhrase(a), name)}}
}
