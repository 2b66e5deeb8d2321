package claude

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Tool calls of a Claude Code session, kept so that hook records (which name only the call's id)
// can say which command or file the hook judged.

// Bounds of the call table: memory grows with the calls still relevant to hooks, not with the
// session. Past MaxCalls the oldest calls are forgotten; past maxCallBytes raw inputs are dropped.
const maxCallBytes = 32 << 20 // raw inputs kept at once

// toolCall is one tool_use block of an assistant message.
type toolCall struct {
	ID, Name          string
	Command, FilePath string
	Input             []byte // raw tool input, only when small
	done              bool   // its tool_result was seen
	started           map[string]int
}

// callTable holds the recent tool calls of one session, oldest first.
type callTable struct {
	byID  map[string]*toolCall
	order []string
	bytes int
	// pending lists each tool's calls, oldest first, that claim may still pick: those done or
	// forgotten are dropped as claim passes them, or when forgotten first. Claim looked through
	// every call kept (up to MaxCalls) for each hook: 4,096 map lookups per hook on a long
	// session, a fifth of reading a dense stream-json.
	pending map[string][]*toolCall
}

func newCallTable() *callTable {
	return &callTable{byID: map[string]*toolCall{}, pending: map[string][]*toolCall{}}
}

// add records a tool_use block; a repeated id keeps the first.
func (t *callTable) add(id, name string, input []byte) {
	if id == "" || t.byID[id] != nil {
		return
	}
	c := &toolCall{ID: id, Name: name}
	in := jsonscan.Lookup(input, "command", "file_path", "notebook_path")
	c.Command = inputs.RawStr(in[0])
	c.FilePath = inputs.RawStr(in[1])
	if c.FilePath == "" {
		c.FilePath = inputs.RawStr(in[2])
	}
	if len(input) > 0 && len(input) <= inputs.MaxCallInput && t.bytes+len(input) <= maxCallBytes {
		c.Input = bytes.Clone(input)
		t.bytes += len(input)
	}
	t.byID[id] = c
	t.order = append(t.order, id)
	t.pending[name] = append(t.pending[name], c)
	for len(t.order) > inputs.MaxCalls {
		old := t.byID[t.order[0]]
		if old != nil {
			t.bytes -= len(old.Input)
			delete(t.byID, old.ID)
			t.forget(old)
		}
		t.order = t.order[1:]
	}
}

// forget drops a forgotten call from its tool's pending list: the oldest call kept is the oldest
// of its tool, so it is first there unless claim dropped it already.
func (t *callTable) forget(c *toolCall) {
	list := t.pending[c.Name]
	if len(list) > 0 && list[0] == c {
		list = list[1:]
	}
	if len(list) == 0 {
		delete(t.pending, c.Name)
		return
	}
	t.pending[c.Name] = list
}

// get returns the call with id, or nil.
func (t *callTable) get(id string) *toolCall { return t.byID[id] }

// finish marks the call's result as seen.
func (t *callTable) finish(id string) {
	if c := t.byID[id]; c != nil {
		c.done = true
	}
}

// claim picks the call a stream-json hook of event on tool is about: the oldest call of that tool
// whose result is not yet seen and that has no hook of this event yet; failing that, the newest
// pending call of that tool. It returns nil when there is none.
func (t *callTable) claim(event, tool string) *toolCall {
	var first, newest *toolCall
	list := t.pending[tool]
	kept := list[:0]
	for _, c := range list {
		if c.done || t.byID[c.ID] != c {
			continue // its result is seen, or it was forgotten
		}
		kept = append(kept, c)
		if first == nil && c.started[event] == 0 {
			first = c
		}
		newest = c
	}
	clear(list[len(kept):]) // let the dropped calls go
	if len(kept) == 0 {
		delete(t.pending, tool)
	} else {
		t.pending[tool] = kept
	}
	if first != nil {
		return first
	}
	return newest
}

// mark notes that a hook of event was started for c.
func (c *toolCall) mark(event string) {
	if c.started == nil {
		c.started = map[string]int{}
	}
	c.started[event]++
}

// useBlock is one tool_use block of an assistant message.
type useBlock struct {
	ID, Name string
	Input    []byte // raw, a part of the message
}

// toolUseList lists the tool_use blocks of an assistant message's content, and reports whether
// the type of one is written exactly "tool_use" (so that the record holds that marker).
func toolUseList(message []byte) ([]useBlock, bool) {
	return toolUsesIn(contentBlocks(message))
}

// toolUsesIn is toolUseList of a message's content blocks.
func toolUsesIn(blocks []block) ([]useBlock, bool) {
	var out []useBlock
	marked := false
	for i := range blocks {
		m := &blocks[i]
		if inputs.RawIs(m[bType], "tool_use") {
			out = append(out, useBlock{ID: inputs.RawStr(m[bID]), Name: inputs.RawStr(m[bName]), Input: m[bInput]})
			marked = marked || bytes.Equal(m[bType], markToolUse)
		}
	}
	return out, marked
}

// toolResult is one tool_result block of a user message, with its text only when it is an error.
type toolResult struct {
	ID      string
	IsError bool
	Text    string // the result's text when IsError
}

// toolResults lists the tool_result blocks of a user message's content, and reports whether the
// type of one is written exactly "tool_result" (so that the record holds that marker). The text of
// results that are not errors is never decoded (it may be megabytes of tool output).
func toolResults(message []byte) ([]toolResult, bool) {
	return toolResultsIn(contentBlocks(message))
}

// toolResultsIn is toolResults of a message's content blocks.
func toolResultsIn(blocks []block) ([]toolResult, bool) {
	var out []toolResult
	marked := false
	for i := range blocks {
		m := &blocks[i]
		if !inputs.RawIs(m[bType], "tool_result") {
			continue
		}
		marked = marked || bytes.Equal(m[bType], markToolResult)
		r := toolResult{ID: inputs.RawStr(m[bToolUseID]), IsError: inputs.RawBool(m[bIsError])}
		if r.IsError {
			r.Text = resultText(m[bContent])
		}
		out = append(out, r)
	}
	return out, marked
}

// resultText reads a tool_result's content: a string, or an array of text blocks.
func resultText(v []byte) string {
	if len(v) > 0 && v[0] == '"' {
		return inputs.RawStr(v)
	}
	var b strings.Builder
	jsonscan.Elements(v, func(el []byte) bool {
		m := jsonscan.Lookup(el, "type", "text")
		if inputs.RawStr(m[0]) == "text" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(inputs.RawStr(m[1]))
		}
		return true
	})
	return b.String()
}

// refusal is a tool call refused because of a hook, as the runtime told the model.
type refusal struct {
	Event, Tool string
	Text        string // after "<Event>:<Tool> hook error: "
	Command     string // the hook command of an exit-2 refusal "[<command>]: <stderr>", else ""
}

// parseRefusal reads "<Event>:<Tool> hook error: <text>", the tool_result of a call a hook refused.
func parseRefusal(s string) (refusal, bool) {
	head, text, ok := strings.Cut(s, " hook error: ")
	if !ok || strings.ContainsAny(head, " \n") {
		return refusal{}, false
	}
	ev, tool, _ := strings.Cut(head, ":")
	if ev == "" {
		return refusal{}, false
	}
	r := refusal{Event: ev, Tool: tool, Text: text}
	if strings.HasPrefix(text, "[") {
		if i := strings.Index(text, "]: "); i > 1 && !strings.Contains(text[:i], "\n") {
			r.Command = text[1:i]
		} else if strings.HasSuffix(text, "]") && !strings.Contains(text, "\n") {
			r.Command = text[1 : len(text)-1]
		}
	}
	return r, true
}

// toolEvents are the hook events that run at one tool call (their hookName is "<Event>:<Tool>").
var toolEvents = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true,
	"PermissionRequest": true, "PermissionDenied": true,
}

// splitHookName splits "PreToolUse:Bash" into event and tool; the tool is "" for events that do
// not run at a tool call ("SessionStart:startup").
func splitHookName(name, event string) (string, string) {
	ev, rest, _ := strings.Cut(name, ":")
	if event == "" {
		event = ev
	}
	if !toolEvents[event] {
		return event, ""
	}
	return event, rest
}

// stdoutAnswer is what a hook's JSON stdout says that matters for grouping records.
type stdoutAnswer struct {
	Context string // hookSpecificOutput.additionalContext
	Denies  bool   // permissionDecision deny, or legacy decision block
}

// readStdout reads a hook's stdout as Claude Code would when it is JSON.
func readStdout(s string) stdoutAnswer {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") {
		return stdoutAnswer{}
	}
	var o struct {
		Decision json.RawMessage `json:"decision"`
		HSO      struct {
			PermissionDecision json.RawMessage `json:"permissionDecision"`
			AdditionalContext  json.RawMessage `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(t), &o) != nil {
		return stdoutAnswer{}
	}
	return stdoutAnswer{
		Context: inputs.RawStr(o.HSO.AdditionalContext),
		Denies:  inputs.RawStr(o.HSO.PermissionDecision) == "deny" || inputs.RawStr(o.Decision) == "block",
	}
}

// rejectedAnswer reads the stderr Claude Code records for an answer it rejected because
// hookSpecificOutput.hookEventName named another event: "Failed to run: Hook returned incorrect
// event name: … Full stdout: <stdout>". The hook did answer (exit 0); the exit status 1 of the
// record is the runtime's, so the reader restores the stdout and leaves the check to the binding.
func rejectedAnswer(stderr string) (string, bool) {
	const failed, wrong, full = "Failed to run: ", "Hook returned incorrect event name", ". Full stdout: "
	if !strings.HasPrefix(stderr, failed) || !strings.HasPrefix(stderr[len(failed):], wrong) {
		return "", false
	}
	i := strings.Index(stderr, full)
	if i < 0 {
		return "", false
	}
	return stderr[i+len(full):], true
}
