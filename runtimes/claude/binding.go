package claude

import (
	"encoding/json"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the Claude Code binding (docs/runtimes.md): its tools, its settings files, and
// the shared checks of hookSpecificOutput answers (gates.CheckAnswer), all of which hold for it.
type Binding struct{}

func (Binding) Runtime() string { return agent.ClaudeCode }

func (Binding) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

// CheckHook reads the answer from stdout with the shared checks of hookSpecificOutput answers,
// all of which hold for Claude Code.
func (Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	return gates.CheckAnswer(a, gates.Host{Name: "Claude Code"}, nil)
}

// Checks are the hook checks of docs/runtimes.md for Claude Code.
func (Binding) Checks() []string {
	return []string{gates.CheckRepairWithAllow, gates.CheckRepairByExit2, gates.CheckRepairNoInput, gates.CheckRepairNoOutput, gates.CheckBlockLetsThrough,
		gates.CheckPostBlockNoDecision, gates.CheckPostNoAGC, gates.CheckEventMismatch, gates.CheckHookFailedOpen, gates.CheckAnswerHeavier}
}

// Rows: every check Claude Code's hooks answer to is a shared one.
func (Binding) Rows() gates.Rows { return nil }

func (Binding) CallFields() []string { return []string{"command", "file_path", "notebook_path"} }

func (Binding) EditTools() []string { return []string{"Edit", "Write", "MultiEdit"} }

func (Binding) ConfigFiles() []string {
	return []string{".claude/settings.json", ".claude/settings.local.json"}
}

// ToolCall reads Bash and PowerShell commands, the file of Edit, Write, MultiEdit, Read
// (file_path) and NotebookEdit (notebook_path), and the texts an edit wrote (Edit new_string,
// MultiEdit edits[].new_string, Write content, NotebookEdit new_source). An empty tool reads
// file_path, else notebook_path.
func (Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var tc gates.ToolCall
	var in map[string]json.RawMessage
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return tc
	}
	tc.Command, tc.FilePath = claudeCallNames(tool, func(k string) json.RawMessage { return in[k] })
	tc.NewTexts = claudeNewTexts(input)
	return tc
}

// claudeCallNames are the command and the file path of a call of tool whose input's members are
// read with member.
func claudeCallNames(tool string, member func(string) json.RawMessage) (command, filePath string) {
	switch tool {
	case "Bash", "PowerShell":
		command = gates.RawString(member("command"))
	case "Edit", "Write", "MultiEdit", "Read":
		filePath = gates.RawString(member("file_path"))
	case "NotebookEdit":
		filePath = gates.RawString(member("notebook_path"))
	case "":
		if filePath = gates.RawString(member("file_path")); filePath == "" {
			filePath = gates.RawString(member("notebook_path"))
		}
	}
	return command, filePath
}

// ToolNames is ToolCall's Command and FilePath, read in one checking pass over the input
// (fastMembers) instead of two decodings; ToolCall when that pass is unsure.
func (c Binding) ToolNames(tool string, input json.RawMessage) (command, filePath string) {
	names := c.CallFields()
	if vals, ok := gates.FastMembers(input, names); ok {
		return claudeCallNames(tool, func(k string) json.RawMessage {
			for i, n := range names {
				if n == k {
					return vals[i]
				}
			}
			return nil
		})
	}
	tc := c.ToolCall(tool, input)
	return tc.Command, tc.FilePath
}

// claudeNewTexts are the texts a Claude Code call wrote: Edit new_string, MultiEdit
// edits[].new_string, Write content, NotebookEdit new_source.
func claudeNewTexts(input []byte) []string {
	var in struct {
		NewString string `json:"new_string"`
		Content   string `json:"content"`
		NewSource string `json:"new_source"`
		Edits     []struct {
			NewString string `json:"new_string"`
		} `json:"edits"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	var out []string
	for _, s := range []string{in.NewString, in.Content, in.NewSource} {
		if gates.NotBlank(s) {
			out = append(out, s)
		}
	}
	for _, e := range in.Edits {
		if gates.NotBlank(e.NewString) {
			out = append(out, e.NewString)
		}
	}
	return out
}

// HookInput: the stdin has the snake_case fields.
func (Binding) HookInput([]byte) (gates.HookCall, bool) { return gates.HookCall{}, false }

// KeysCallsByOrder: Claude Code's hook input names the tool call (tool_use_id).
func (Binding) KeysCallsByOrder() bool { return false }

// CommandKeys: "command" under hooks → event → matcher → hooks.
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 5}}
}

// Effects is what Claude Code does with each answer form (effects.go).
func (Binding) Effects() gates.EffectTable { return effects }
