// Package cline is the Cline CLI binding: executable hook files named after their event in
// .clinerules/hooks/ (PreToolUse, PostToolUse, …), whose answer Cline 3.0.65 reads from stdout
// only (docs/runtimes-cline.md): cancel, errorMessage, contextModification (or context) and
// overrideInput, on the last HOOK_CONTROL<TAB> line or as the whole stdout. Exit codes and
// stderr are never read: exit 2 does not block and a crash lets the call run; cancel: true stops
// the whole run.
package cline

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the Cline CLI binding.
type Binding struct{}

// name is Cline's name as messages spell it.
const name = "Cline"

// version is the Cline CLI build the binding's facts were verified with.
const version = "3.0.65"

// The hook events the binding checks: Cline's hook file names, which its stdin sends as hookName
// tool_call and tool_result.
const (
	preTool  = "PreToolUse"
	postTool = "PostToolUse"
)

func (Binding) Runtime() string { return agent.Cline }

func (Binding) Events() []string { return []string{preTool, postTool} }

// Checks are Cline's own checks and the shared ones that hold for its answers.
func (Binding) Checks() []string {
	return []string{CheckExitIgnored, CheckCancelDropsContext,
		gates.CheckBlockLetsThrough, gates.CheckHookFailedOpen}
}

func (Binding) CallFields() []string { return []string{"commands", "path", "file_paths"} }

// EditTools: editor writes the file named by path (from Cline's tool list; not replayed).
func (Binding) EditTools() []string { return []string{"editor"} }

// ConfigFiles: the hook files of the project, one per event, named after it.
func (Binding) ConfigFiles() []string {
	return []string{".clinerules/hooks/*", ".cline/hooks/*"}
}

// CommandKeys: none; Cline's hook files are executables, placed by their name (the event).
func (Binding) CommandKeys() []gates.CommandKey { return nil }

// KeysCallsByOrder: Cline's hook input names the model's call (tool_call.id).
func (Binding) KeysCallsByOrder() bool { return false }

// ToolCall reads run_commands' commands (joined by newlines), and editor's path and new text.
func (b Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in toolInput
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	tc.Command, tc.FilePath = in.names(tool)
	if tool == "editor" || tool == "" {
		for _, s := range []string{gates.RawString(in.NewText), gates.RawString(in.FileText)} {
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

// toolInput are the tool-input fields of Cline's tools the binding reads, kept raw so that a value
// of the wrong type reads as absent.
type toolInput struct {
	Commands  json.RawMessage `json:"commands"`
	Path      json.RawMessage `json:"path"`
	FilePaths json.RawMessage `json:"file_paths"`
	NewText   json.RawMessage `json:"new_text"`
	FileText  json.RawMessage `json:"file_text"`
}

func (in toolInput) names(tool string) (command, filePath string) {
	switch tool {
	case "run_commands":
		var cs []string
		if json.Unmarshal(in.Commands, &cs) == nil {
			command = strings.Join(cs, "\n")
		} else {
			command = gates.RawString(in.Commands)
		}
	case "editor", "":
		filePath = gates.RawString(in.Path)
	case "read_files":
		var ps []string
		if json.Unmarshal(in.FilePaths, &ps) == nil && len(ps) == 1 {
			filePath = ps[0]
		}
	}
	return command, filePath
}

// hookStdin is Cline's hook stdin: hookName names the event, tool_call (PreToolUse) or
// tool_result (PostToolUse) the call with the model's id.
type hookStdin struct {
	HookName       string `json:"hookName"`
	TaskID         string `json:"taskId"`
	SessionContext struct {
		RootSessionID string `json:"rootSessionId"`
	} `json:"sessionContext"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	ToolCall       *call    `json:"tool_call"`
	ToolResult     *call    `json:"tool_result"`
}

// call is a tool call as Cline's hook stdin names it.
type call struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// HookInput reads the call from Cline's stdin, in the session that names its messages file
// (sessionContext.rootSessionId), so that the recorder's log and that file name one call alike.
func (Binding) HookInput(stdin []byte) (gates.HookCall, bool) {
	var in hookStdin
	if json.Unmarshal(stdin, &in) != nil {
		return gates.HookCall{}, false
	}
	c := gates.HookCall{SessionID: in.SessionContext.RootSessionID}
	if len(in.WorkspaceRoots) > 0 {
		c.Cwd = in.WorkspaceRoots[0]
	}
	var tc *call
	switch in.HookName {
	case "tool_call":
		c.Event, tc = preTool, in.ToolCall
	case "tool_result":
		c.Event, tc = postTool, in.ToolResult
	default:
		c.Event = in.HookName
	}
	if tc != nil {
		c.Tool, c.ToolUseID = tc.Name, tc.ID
		if gates.Present(tc.Input) {
			c.Input = tc.Input
		}
	}
	return c, true
}

// Answer is a Cline hook's answer (the stdout JSON, or the last HOOK_CONTROL line).
type Answer struct {
	Cancel              *bool           `json:"cancel,omitempty"`
	ErrorMessage        json.RawMessage `json:"errorMessage,omitempty"`
	ContextModification json.RawMessage `json:"contextModification,omitempty"`
	Context             json.RawMessage `json:"context,omitempty"`
	OverrideInput       json.RawMessage `json:"overrideInput,omitempty"`
}

// controlPrefix starts the line Cline reads as the answer when a hook prints other text too.
const controlPrefix = "HOOK_CONTROL\t"

// DecodeAnswer reads stdout as Cline does: the last line that starts with HOOK_CONTROL<TAB>,
// else the whole stdout, as a JSON object; ok is false when Cline could not read it.
func DecodeAnswer(stdout string) (Answer, bool) {
	body := stdout
	lines := strings.Split(stdout, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(strings.TrimRight(lines[i], "\r"), controlPrefix); ok {
			body = rest
			break
		}
	}
	var a Answer
	t := strings.TrimSpace(body)
	if !strings.HasPrefix(t, "{") || json.Unmarshal([]byte(t), &a) != nil {
		return Answer{}, false
	}
	return a, true
}

// cancels says the answer stops the run.
func (a Answer) cancels() bool { return a.Cancel != nil && *a.Cancel }

// context is the text Cline gives the model: contextModification, else context, else (without
// cancel) errorMessage.
func (a Answer) context() string {
	for _, m := range []json.RawMessage{a.ContextModification, a.Context} {
		if s := gates.RawString(m); s != "" {
			return s
		}
	}
	if !a.cancels() {
		return gates.RawString(a.ErrorMessage)
	}
	return ""
}

// effect is the answer as the shared checks read it: cancel is a deny whose reason is the
// errorMessage (Cline drops the context then, and the run ends); overrideInput is the rewrite,
// which Cline runs without asking anyone; the context is additionalContext.
func (a Answer) effect() *gates.HookOutput {
	h := &gates.HookSpecific{}
	out := &gates.HookOutput{HSO: h}
	if a.cancels() {
		h.PermissionDecision, _ = json.Marshal("deny")
		reason := gates.RawString(a.ErrorMessage)
		if reason == "" {
			reason = gates.RawString(a.ContextModification) + gates.RawString(a.Context)
		}
		h.PermissionDecisionReason, _ = json.Marshal(reason)
		return out
	}
	if gates.Present(a.OverrideInput) {
		h.UpdatedInput = a.OverrideInput
	}
	if c := a.context(); c != "" {
		h.AdditionalContext, _ = json.Marshal(c)
	}
	return out
}

// host names Cline for the shared checks.
func host() gates.Host { return gates.Host{Name: name} }

// CheckHook reads the answer as Cline does: stdout only, whatever the exit status. An exit 2 that
// meant to block ran the call (CheckExitIgnored); an exit status other than 0 and 2 without a
// readable answer is a hook that failed open; a cancel is a block that ended the run.
func (b Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	ans, ok := DecodeAnswer(a.Stdout)
	ok = ok && a.HasStdout
	view := a
	exit2 := a.HasExit && a.ExitCode == 2
	if a.HasExit && a.ExitCode != 0 && (ok || exit2) {
		view.ExitCode = 0 // Cline reads the stdout whatever the status
	}
	var out *gates.HookOutput
	if ok {
		out = ans.effect()
	} else if a.HasStdout && strings.TrimSpace(a.Stdout) != "" && view.Failed == "" && (!view.HasExit || view.ExitCode == 0) {
		view.Failed = "answered with stdout that is not a JSON object, which " + name + " ignores"
	}
	res := gates.CheckAnswer(view, host(), out)
	holds := gates.HoldsFor(b)
	res.Breaches = gates.KeepBreaches(res.Breaches, func(id string) bool { return holds(id) && id != gates.CheckBlockLetsThrough })
	if ok && !ans.cancels() && a.Event == preTool {
		for _, r := range res.Responses {
			if r.Verdict == gates.Block {
				res.Breaches = append(res.Breaches, gates.Breach{Check: gates.CheckBlockLetsThrough, Pointer: "/cancel",
					Message: fmt.Sprintf("gate %q answered block but the hook sent no cancel: true, so %s ran %s.", r.Gate.ID, name, gates.CallPhrase(a))})
				break
			}
		}
	}
	if exit2 && !ok {
		res.Breaches = append(res.Breaches, exitIgnored(a))
	}
	if ok && ans.cancels() && res.Decision != "failed" {
		res.Decision = "block"
		if len(res.Responses) == 0 {
			res.Unstructured = &gates.Unstructured{Verdict: gates.Block, Message: fmt.Sprintf("Hook %s cancelled %s: %s did not run it and ended the whole run. %s",
				gates.HookName(a), gates.CallPhrase(a), name, orNone(gates.RawString(ans.ErrorMessage)))}
		}
		if gates.RawString(ans.ContextModification)+gates.RawString(ans.Context) != "" {
			res.Breaches = append(res.Breaches, gates.Breach{Check: CheckCancelDropsContext, Pointer: "/contextModification",
				Message: fmt.Sprintf("Hook %s cancelled %s with a context, which %s drops on a cancel: the run ended and the model got neither the context nor the errorMessage.", gates.HookName(a), gates.CallPhrase(a), name)})
		}
	}
	return res
}

// orNone is the hook's message, or says there was none.
func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(no errorMessage)"
	}
	return "errorMessage: " + s
}

// exitIgnored is the breach of a hook that exited 2 with no answer on stdout: Cline never reads
// the exit status, so the call ran whatever the stderr says.
func exitIgnored(a gates.HookAnswer) gates.Breach {
	what := "exited 2"
	if rs, _, _ := gates.FindResponses(a.Stderr); a.HasStderr && len(rs) > 0 && len(rs[0].Findings) > 0 {
		what = fmt.Sprintf("answered %s for gate %q rule %q by exit 2", rs[0].Verdict, rs[0].Gate.ID, rs[0].Findings[0].Rule)
	}
	ran := "ran"
	if a.Event == postTool {
		ran = "result reached the model unchanged"
	}
	return gates.Breach{Check: CheckExitIgnored,
		Message: fmt.Sprintf("%s hook %s %s, which %s ignores (it reads only stdout): %s %s.", orEvent(a.Event), gates.HookName(a), what, name, gates.CallPhrase(a), ran)}
}

func orEvent(e string) string {
	if e == "" {
		return "The"
	}
	return e
}

// Effects is what Cline 3.0.65 does with each answer form, from its replays
// (../shared/runtimes/cline/README.md, testdata/cline).
func (Binding) Effects() gates.EffectTable {
	ev := "testdata/cline; ../shared/runtimes/cline/README.md"
	return gates.EffectTable{
		{Answer: gates.AnswerDeny, Effect: gates.EffectUnsupported, Verified: version, Evidence: ev, Note: "no deny: cancel instead"},
		{Answer: gates.AnswerExit2, Effect: gates.EffectIgnored, Verified: version, Evidence: ev, Note: "exit codes and stderr are never read: the call ran"},
		{Answer: gates.AnswerRewrite, Effect: gates.EffectRewritten, Verified: version, Evidence: ev, Note: "overrideInput replaces the whole input"},
		{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectUnsupported, Verified: version, Evidence: ev, Note: "no permission decision"},
		{Answer: gates.AnswerContext, Effect: gates.EffectDelivered, Verified: version, Evidence: ev, Note: "contextModification as a hook_context message after the result"},
		{Answer: gates.AnswerDecisionBlock, Effect: gates.EffectUnsupported, Verified: version, Evidence: ev},
		{Answer: gates.AnswerAsk, Effect: gates.EffectUnsupported, Verified: version, Evidence: ev},
		{Answer: gates.AnswerCrash, Effect: gates.EffectFailedOpen, Verified: version, Evidence: ev, Note: "the call ran; nothing recorded"},
		{Answer: gates.AnswerInvalidJSON, Effect: gates.EffectFailedOpen, Verified: version, Evidence: ev, Note: "a warning in cline.log"},
		{Answer: gates.AnswerHalt, Effect: gates.EffectHalted, Verified: version, Evidence: ev, Note: "cancel: true ends the whole run (exit 0); context and errorMessage never reach the model"},
		{Answer: gates.AnswerPostBlock, Effect: gates.EffectUnsupported, Verified: version, Evidence: ev},
		{Answer: gates.AnswerPostReplace, Effect: gates.EffectUnsupported, Verified: version, Evidence: ev},
	}
}
