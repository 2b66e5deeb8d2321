package gates

import "encoding/json"

// RuntimeClaudeCode is Claude Code's runtime id, the default of records that name none.
const RuntimeClaudeCode = "claude-code"

// claudeCode is the Claude Code binding (docs/runtimes.md): its tools, its settings files, and
// CheckClaudeHook. This file and claudecode.go are the only places that name them.
type claudeCode struct{}

func (claudeCode) Runtime() string { return RuntimeClaudeCode }

func (claudeCode) Events() []string { return []string{"PreToolUse", "PostToolUse"} }

func (claudeCode) CheckHook(a HookAnswer) HookResult { return CheckClaudeHook(a) }

// Checks are the hook checks of docs/runtimes.md for Claude Code.
func (claudeCode) Checks() []string {
	return []string{CheckRepairWithAllow, CheckRepairByExit2, CheckRepairNoInput, CheckRepairNoOutput, CheckBlockLetsThrough,
		CheckPostBlockNoDecision, CheckPostNoAGC, CheckEventMismatch, CheckHookFailedOpen, CheckAnswerHeavier}
}

func (claudeCode) CallFields() []string { return []string{"command", "file_path", "notebook_path"} }

func (claudeCode) EditTools() []string { return []string{"Edit", "Write", "MultiEdit"} }

func (claudeCode) ConfigFiles() []string {
	return []string{".claude/settings.json", ".claude/settings.local.json"}
}

// ToolCall reads Bash and PowerShell commands, the file of Edit, Write, MultiEdit, Read
// (file_path) and NotebookEdit (notebook_path), and the texts an edit wrote (Edit new_string,
// MultiEdit edits[].new_string, Write content, NotebookEdit new_source). An empty tool reads
// file_path, else notebook_path.
func (claudeCode) ToolCall(tool string, input json.RawMessage) ToolCall {
	var tc ToolCall
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
		command = rawString(member("command"))
	case "Edit", "Write", "MultiEdit", "Read":
		filePath = rawString(member("file_path"))
	case "NotebookEdit":
		filePath = rawString(member("notebook_path"))
	case "":
		if filePath = rawString(member("file_path")); filePath == "" {
			filePath = rawString(member("notebook_path"))
		}
	}
	return command, filePath
}

// toolNames is ToolCall's Command and FilePath, read in one checking pass over the input
// (fastMembers) instead of two decodings; ToolCall when that pass is unsure.
func (c claudeCode) toolNames(tool string, input json.RawMessage) (command, filePath string) {
	names := c.CallFields()
	if vals, ok := fastMembers(input, names); ok {
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
		if notBlank(s) {
			out = append(out, s)
		}
	}
	for _, e := range in.Edits {
		if notBlank(e.NewString) {
			out = append(out, e.NewString)
		}
	}
	return out
}

// HookInput: the stdin has the snake_case fields.
func (claudeCode) HookInput([]byte) (HookCall, bool) { return HookCall{}, false }
