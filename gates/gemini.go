package gates

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// RuntimeGemini is Google Gemini CLI's runtime id.
const RuntimeGemini = "gemini-cli"

// geminiCLI is the Gemini CLI binding (docs/runtimes.md): BeforeTool/AfterTool hooks in
// .gemini/settings.json answering with a top-level decision (deny/block) and reason; a repair is
// hookSpecificOutput.tool_input, which replaces the arguments; BeforeTool ignores
// additionalContext; "ask" hangs a headless run; crashes and invalid JSON fail open.
type geminiCLI struct{}

func (geminiCLI) Runtime() string { return RuntimeGemini }

func (geminiCLI) Events() []string { return []string{"BeforeTool", "AfterTool"} }

func (geminiCLI) CallFields() []string { return []string{"command", "file_path"} }

// EditTools: write_file and replace were not offered in the replays; listed from Gemini's docs.
func (geminiCLI) EditTools() []string { return []string{"write_file", "replace"} }

func (geminiCLI) ConfigFiles() []string { return []string{".gemini/settings.json"} }

// Checks are Gemini's own checks, the BeforeTool checks it shares with Claude Code, and a hook
// that failed open.
func (geminiCLI) Checks() []string {
	return []string{CheckGeminiBeforeToolSteer, CheckGeminiRepairDropsArgs, CheckGeminiAsk, CheckGeminiExit2JSON, CheckRepairByExit2,
		CheckRepairNoInput, CheckBlockLetsThrough, CheckAnswerHeavier, CheckHookFailedOpen}
}

// ToolCall reads run_shell_command's command, and the file and new text of write_file (content)
// and replace (new_string).
func (geminiCLI) ToolCall(tool string, input json.RawMessage) ToolCall {
	var in map[string]json.RawMessage
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return ToolCall{}
	}
	var tc ToolCall
	switch tool {
	case "run_shell_command":
		tc.Command = rawString(in["command"])
	case "write_file", "replace", "":
		tc.FilePath = rawString(in["file_path"])
		for _, k := range []string{"content", "new_string"} {
			if s := rawString(in[k]); notBlank(s) {
				tc.NewTexts = append(tc.NewTexts, s)
			}
		}
	}
	return tc
}

// CheckHook reads a Gemini answer as the Claude Code answer of the same effect (decision deny or
// block → permissionDecision deny, tool_input → updatedInput), keeps the shared checks and adds
// Gemini's own.
func (geminiCLI) CheckHook(a HookAnswer) HookResult {
	g, out := geminiAsClaude(a)
	res := CheckClaudeHook(g)
	res.Breaches = keepBreaches(res.Breaches, holdsFor(geminiCLI{}))
	restate(res.Breaches, "Gemini CLI", g.Event, a.Event)
	if a.Event != "BeforeTool" || view(g).failed != "" {
		return res
	}
	if b, ok := exit2JSON(a); ok {
		res.Breaches = append(res.Breaches, b)
	}
	if out == nil {
		return res
	}
	hso := out.HSO
	if d := rawString(out.Decision); d == "ask" {
		res.Breaches = append(res.Breaches, Breach{Check: CheckGeminiAsk, Pointer: "/decision",
			Message: fmt.Sprintf("Hook %s answered decision \"ask\": Gemini CLI waits for a person, so a headless run hangs until it is killed.", hookName(a))})
	}
	if hso != nil && present(hso.ToolInput) {
		if lost := droppedArgs(a.ToolInput, hso.ToolInput); len(lost) > 0 {
			res.Breaches = append(res.Breaches, Breach{Check: CheckGeminiRepairDropsArgs, Pointer: "/hookSpecificOutput/tool_input",
				Message: fmt.Sprintf("Hook %s rewrote %s with a tool_input that lacks %s: Gemini CLI replaces the arguments, so they were dropped.", hookName(a), callPhrase(a), strings.Join(lost, ", "))})
		}
	}
	for _, r := range res.Responses {
		if r.Verdict == Steer && hso != nil && rawString(hso.AdditionalContext) != "" {
			res.Breaches = append(res.Breaches, Breach{Check: CheckGeminiBeforeToolSteer, Pointer: "/hookSpecificOutput/additionalContext",
				Message: fmt.Sprintf("gate %q steered %s from BeforeTool, whose additionalContext Gemini CLI ignores: the model never saw it.", r.Gate.ID, callPhrase(a))})
			break
		}
	}
	return res
}

// exit2JSON is the breach of a BeforeTool hook that exited 2 with a JSON object on stderr that
// does not deny: Gemini CLI reads that stderr as the answer, so the call ran.
func exit2JSON(a HookAnswer) (Breach, bool) {
	if !a.HasExit || a.ExitCode != 2 || !a.HasStderr {
		return Breach{}, false
	}
	var o geminiOutput
	t := strings.TrimSpace(a.Stderr)
	if !strings.HasPrefix(t, "{") || json.Unmarshal([]byte(t), &o) != nil {
		return Breach{}, false
	}
	if d := rawString(o.Decision); d == "deny" || d == "block" {
		return Breach{}, false
	}
	return Breach{Check: CheckGeminiExit2JSON, Pointer: "",
		Message: fmt.Sprintf("Hook %s exited 2 with JSON on stderr: Gemini CLI read it as the answer, which does not deny, so %s ran.", hookName(a), callPhrase(a))}, true
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

// geminiAsClaude restates a Gemini answer as Claude Code's answer of the same effect.
func geminiAsClaude(a HookAnswer) (HookAnswer, *geminiOutput) {
	g := a
	switch a.Event {
	case "BeforeTool":
		g.Event = "PreToolUse"
	case "AfterTool":
		g.Event = "PostToolUse"
	}
	t := strings.TrimSpace(a.Stdout)
	if !a.HasStdout || !strings.HasPrefix(t, "{") {
		return g, nil
	}
	var o geminiOutput
	if json.Unmarshal([]byte(t), &o) != nil {
		// Gemini treats invalid JSON as an allow with a system message: it failed open.
		g.Stdout, g.Failed = "", "answered with stdout that is not valid JSON (Gemini CLI let the call run)"
		return g, nil
	}
	hso := map[string]any{"hookEventName": g.Event}
	top := map[string]any{}
	d := rawString(o.Decision)
	pre := g.Event == "PreToolUse"
	switch {
	case (d == "deny" || d == "block") && pre:
		hso["permissionDecision"] = "deny"
	case d == "deny" || d == "block":
		top["decision"], top["reason"] = "block", rawString(o.Reason)
	case (d == "allow" || d == "ask") && pre:
		hso["permissionDecision"] = d
	}
	if r := rawString(o.Reason); r != "" && pre {
		hso["permissionDecisionReason"] = r
	}
	if o.HSO != nil {
		if present(o.HSO.ToolInput) {
			hso["updatedInput"] = o.HSO.ToolInput
		}
		if present(o.HSO.AdditionalContext) {
			hso["additionalContext"] = o.HSO.AdditionalContext
		}
	}
	top["hookSpecificOutput"] = hso
	b, _ := json.Marshal(top)
	g.Stdout = string(b)
	return g, &o
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
func (geminiCLI) HookInput([]byte) (HookCall, bool) { return HookCall{}, false }

// KeysCallsByOrder: Gemini's hook input names no tool call, so its events are matched across
// files by session, event, tool, arguments and the order of calls with those arguments.
func (geminiCLI) KeysCallsByOrder() bool { return true }
