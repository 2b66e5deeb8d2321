// Package opencode is the binding of OpenCode and of Kilo Code, its fork: neither has command
// hooks, their guards are plugins (tool.execute.before and tool.execute.after). A plugin that
// throws stops the call and the model gets the message; one that mutates the call's arguments in
// place rewrites it; a plugin's own crash fails closed. Command hooks run there through
// plugins/opencode/agc-hooks.js, which sends Claude Code's stdin (plus plugin_hook and
// plugin_host) and carries out Claude Code's answers (docs/runtimes.md). Both runtimes write the
// same records (opencode export / kilo export JSON, run --format json), read by one reader.
package opencode

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the OpenCode binding, or Kilo Code's when Kilo is set: one behaviour, verified with
// each runtime's own build, two ids and two sets of config folders.
type Binding struct{ Kilo bool }

// Versions the facts were verified with.
const (
	openCodeVersion = "1.18.33"
	kiloVersion     = "7.7.7"
)

func (b Binding) Runtime() string {
	if b.Kilo {
		return agent.Kilo
	}
	return agent.OpenCode
}

// name is the runtime's name as messages spell it.
func (b Binding) name() string {
	if b.Kilo {
		return "Kilo Code"
	}
	return "OpenCode"
}

func (b Binding) version() string {
	if b.Kilo {
		return kiloVersion
	}
	return openCodeVersion
}

// Events are those agc-hooks.js runs command hooks for.
func (Binding) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

// Checks: a plugin that crashed (fails closed). A command hook that failed open in the bridge is
// the generic check (gates.GenericCheck), which holds for every runtime.
func (b Binding) Checks() []string { return []string{b.failedClosed()} }

// failedClosed is the id of the runtime's check of a plugin that crashed.
func (b Binding) failedClosed() string {
	if b.Kilo {
		return CheckKiloPluginFailedClosed
	}
	return CheckPluginFailedClosed
}

// CallFields: OpenCode's own fields (its records) and the Claude Code names agc-hooks.js gives
// them in a hook's stdin (the recorder's log).
func (Binding) CallFields() []string { return []string{"command", "filePath", "file_path"} }

// EditTools: write was replayed (testdata/opencode); edit is from the tools OpenCode offers. Each
// in OpenCode's name (its records) and Claude Code's (agc-hooks.js's stdin).
func (Binding) EditTools() []string { return []string{"write", "edit", "Write", "Edit"} }

// ConfigFiles: the plugin files (where a native guard's block, which names no hook command, is
// placed), then the bridge's own settings, whose hook commands place the bridge's findings; the
// bridge also reads .claude/settings.json, which Claude Code's binding lists.
func (b Binding) ConfigFiles() []string {
	if b.Kilo {
		return []string{".kilo/plugins/*", ".kilo/plugin/*", ".kilocode/plugins/*", ".kilo/agc-hooks.json"}
	}
	return []string{".opencode/plugins/*", ".opencode/plugin/*", ".opencode/agc-hooks.json"}
}

// CommandKeys: "command" under hooks → event → matcher → hooks, as Claude Code's settings.
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 5}}
}

// KeysCallsByOrder: the bridge's stdin names the call (tool_use_id = OpenCode's callID).
func (Binding) KeysCallsByOrder() bool { return false }

// HookInput: the bridge sends Claude Code's fields.
func (Binding) HookInput([]byte) (gates.HookCall, bool) { return gates.HookCall{}, false }

// ToolCall reads bash's command, the file of write, edit and read (filePath), and the texts
// write (content) and edit (newString) wrote; in OpenCode's names (its records) or in Claude
// Code's (Bash, Write, file_path, new_string: agc-hooks.js's stdin in the recorder's log).
func (b Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in toolInput
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	tc.Command, tc.FilePath = in.names(tool)
	if t := strings.ToLower(tool); t == "write" || t == "edit" || t == "" {
		for _, s := range []string{gates.RawString(in.Content), gates.RawString(in.NewString), gates.RawString(in.NewStringSnake)} {
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

// toolInput holds OpenCode's fields and the Claude Code names agc-hooks.js gives them.
type toolInput struct {
	Command        json.RawMessage `json:"command"`
	FilePath       json.RawMessage `json:"filePath"`
	FilePathSnake  json.RawMessage `json:"file_path"`
	Content        json.RawMessage `json:"content"`
	NewString      json.RawMessage `json:"newString"`
	NewStringSnake json.RawMessage `json:"new_string"`
}

// names reads the command of bash (Bash) and the file of write, edit and read (Write, Edit, Read).
func (in toolInput) names(tool string) (command, filePath string) {
	switch strings.ToLower(tool) {
	case "bash":
		command = gates.RawString(in.Command)
	case "write", "edit", "read", "":
		filePath = gates.RawString(in.FilePath)
		if filePath == "" {
			filePath = gates.RawString(in.FilePathSnake)
		}
	}
	return command, filePath
}

// decode reads a command hook's stdout as the bridge does: a JSON object of Claude Code's shape,
// no hookEventName required, and "ask" denied (nobody can be asked). nil when it is not one.
func decode(a gates.HookAnswer) *gates.HookOutput {
	t := strings.TrimSpace(a.Stdout)
	if !a.HasStdout || !strings.HasPrefix(t, "{") {
		return nil
	}
	var o gates.HookOutput
	if json.Unmarshal([]byte(t), &o) != nil {
		return nil
	}
	if o.HSO != nil && gates.RawString(o.HSO.PermissionDecision) == "ask" {
		h := *o.HSO
		h.PermissionDecision, _ = json.Marshal("deny")
		o.HSO = &h
	}
	return &o
}

// jsCrash matches the message of a JavaScript error a plugin threw by a bug, which OpenCode gives
// the model as the call's error: the plugin crashed and the call did not run.
var jsCrash = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(TypeError|ReferenceError|RangeError|SyntaxError)\b|is not an object \(evaluating|is not a function|Cannot read propert|^(undefined|null) is not`)
})

// PluginCrash reports whether a tool's error text is a plugin's JavaScript error.
func PluginCrash(text string) bool { return jsCrash().MatchString(strings.TrimSpace(text)) }

// CheckHook checks a command hook's answer as the bridge carries it out (Claude Code's rules; a
// permission decision "allow" skips nothing, OpenCode's permission rules still apply), or a
// record of the runtime's own: a refusal (a plugin threw before the call), a block after it (a
// throw in tool.execute.after: the call ran), a plugin's crash (failed closed), or contexts the
// bridge added to the output.
func (b Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	if a.Refused && PluginCrash(a.RefusalText) {
		return gates.HookResult{Decision: "block", Breaches: []gates.Breach{{Check: b.failedClosed(),
			Message: fmt.Sprintf("A plugin of %s crashed at %s (%s): %s failed closed, so the call did not run and the model got the crash's message instead of a gate's reason.",
				b.name(), gates.CallPhrase(a), firstLine(a.RefusalText), b.name())}}}
	}
	res := gates.CheckAnswer(a, gates.Host{Name: b.name()}, decode(a))
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.HoldsFor(b))
	return res
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// Allow: none. OpenCode's permission rules ("permission" in opencode.json) match patterns of a
// command, but headless runs answered them with --auto and no entry was verified.
func (b Binding) Allow(gates.AllowCall) gates.Allowlist {
	return gates.Allowlist{In: "none: " + b.name() + "'s permission patterns were not verified headless (run --auto answers every request)"}
}

// RepairAnswer is the answer the bridge applies as a rewrite: updatedInput merged into the call's
// arguments in place, with the AGC response as additionalContext (added to the output).
func (Binding) RepairAnswer(r gates.Rewrite) string {
	return gates.JSONLine(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
		"updatedInput": map[string]any{"command": r.Command}, "additionalContext": r.Context}})
}

// Effects is what the runtime does with each answer form: its own plugin mechanisms and the
// bridge's carrying out of command hooks (../shared/runtimes/opencode and kilo READMEs,
// testdata/opencode, testdata/kilo).
func (b Binding) Effects() gates.EffectTable {
	v, ev := b.version(), "testdata/opencode; testdata/kilo; ../shared/runtimes/opencode/README.md"
	return gates.EffectTable{
		{Answer: gates.AnswerDeny, Effect: gates.EffectNotRun, Verified: v, Evidence: ev, Note: "a plugin throws; the model gets the reason (and context) as the tool's error"},
		{Answer: gates.AnswerExit2, Effect: gates.EffectNotRun, Verified: v, Evidence: ev, Note: "the bridge throws the stderr"},
		{Answer: gates.AnswerRewrite, Effect: gates.EffectRewritten, Verified: v, Evidence: ev, Note: "arguments mutated in place; the records keep only the rewritten call; a new object is ignored"},
		{Answer: gates.AnswerRewriteAllow, Effect: gates.EffectRewritten, Verified: v, Evidence: ev, Note: "allow skips nothing: the permission rules are evaluated on the rewritten call"},
		{Answer: gates.AnswerContext, Effect: gates.EffectDelivered, Verified: v, Evidence: ev, Note: "added to the call's output, after the call"},
		{Answer: gates.AnswerDecisionBlock, Effect: gates.EffectNotRun, Verified: v, Evidence: ev, Note: "the bridge reads it as a deny"},
		{Answer: gates.AnswerAsk, Effect: gates.EffectNotRun, Verified: v, Evidence: ev, Note: "nobody can be asked: the bridge denies"},
		{Answer: gates.AnswerCrash, Effect: gates.EffectFailedOpen, Verified: v, Evidence: ev, Note: "a command hook's crash: the bridge lets the call run; a plugin's own crash fails closed (not run)"},
		{Answer: gates.AnswerInvalidJSON, Effect: gates.EffectFailedOpen, Verified: v, Evidence: ev},
		{Answer: gates.AnswerHalt, Effect: gates.EffectUnsupported, Verified: v, Evidence: ev},
		{Answer: gates.AnswerPostBlock, Effect: gates.EffectDelivered, Verified: v, Evidence: ev, Note: "the call ran; the reason is added to its output (a plugin's throw after the call replaces the output by the error)"},
		{Answer: gates.AnswerPostReplace, Effect: gates.EffectUnsupported, Verified: v, Evidence: ev, Note: "the bridge only adds to the output"},
	}
}
