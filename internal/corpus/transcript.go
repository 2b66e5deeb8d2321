package corpus

import "fmt"

// envelope is the common part of a transcript record (Claude Code 2.1.x).
type envelope struct {
	ParentUUID    string `json:"parentUuid"`
	IsSidechain   bool   `json:"isSidechain"`
	Type          string `json:"type"`
	Message       any    `json:"message,omitempty"`
	Attachment    any    `json:"attachment,omitempty"`
	ToolUseResult any    `json:"toolUseResult,omitempty"`
	UUID          string `json:"uuid"`
	Timestamp     string `json:"timestamp"`
	UserType      string `json:"userType"`
	Entrypoint    string `json:"entrypoint"`
	Cwd           string `json:"cwd"`
	SessionID     string `json:"sessionId"`
	Version       string `json:"version"`
	GitBranch     string `json:"gitBranch"`
}

// session is the state of one synthetic session.
type session struct {
	id, cwd, parent string
	hugeDone        int64
}

const projectDir = "/home/dev/src/project"

func (g *gen) env(s *session, typ string) envelope {
	u := g.uuid()
	e := envelope{ParentUUID: s.parent, Type: typ, UUID: u, Timestamp: g.now(), UserType: "external",
		Entrypoint: "cli", Cwd: s.cwd, SessionID: s.id, Version: "2.1.332", GitBranch: "main"}
	s.parent = u
	return e
}

// transcript writes a Claude Code session transcript.
func (g *gen) transcript() error {
	s := &session{id: g.uuid(), cwd: projectDir, parent: g.uuid()}
	for g.left() > 0 && g.err == nil {
		g.transcriptTurn(s)
	}
	return g.err
}

// toolCall is one tool call of the agent.
type toolCall struct {
	id, tool string
	input    map[string]any
	rule     gateRule
	out      outcome
	hooked   bool
}

// nextCall draws the next tool call: Hooked in Of (one in ten) are judged by a guard.
func (g *gen) nextCall() toolCall {
	g.seq++
	c := toolCall{id: g.toolUseID()}
	if g.rng.IntN(g.shape.Of) < g.shape.Hooked {
		c.hooked = true
		c.out = g.pickOutcome()
		c.rule = gateRules[g.rng.IntN(len(gateRules))]
		if c.out == oPostSteer {
			c.rule = postRule
		}
		c.tool = c.rule.tool
	} else {
		c.tool = []string{"Bash", "Read", "Read", "Edit", "Grep", "Write"}[g.rng.IntN(6)]
	}
	file := fmt.Sprintf("%s/internal/pkg%d/file%d.go", projectDir, g.rng.IntN(40), g.rng.IntN(400))
	switch c.tool {
	case "Bash":
		c.input = map[string]any{"command": "cd " + projectDir + " && go test ./internal/... -run Test" + words[g.rng.IntN(len(words))], "description": "Run the tests"}
	case "Edit":
		c.input = map[string]any{"file_path": file, "old_string": g.pool.text(g.rng, 3), "new_string": g.pool.text(g.rng, 4)}
	case "Write":
		c.input = map[string]any{"file_path": file, "content": g.pool.text(g.rng, 20)}
	case "Grep":
		c.input = map[string]any{"pattern": words[g.rng.IntN(len(words))], "path": projectDir}
	default:
		c.input = map[string]any{"file_path": file}
	}
	return c
}

// event is the hook event of the call's outcome.
func (c toolCall) event() string {
	if c.out == oPostSteer {
		return "PostToolUse"
	}
	return "PreToolUse"
}

// resultSize picks the size of one copy of the call's result (results appear twice in a line).
func (g *gen) resultSize(hugeDone *int64) int {
	n := g.contentSize()
	if g.hugeDue(hugeDone) {
		n = hugeLine/2 - 2048
	}
	return int(min(int64(n), max(g.left()/2, 16)))
}

func (g *gen) transcriptTurn(s *session) {
	c := g.nextCall()
	e := g.env(s, "assistant")
	e.Message = map[string]any{"id": "msg_" + c.id[8:], "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content":     []any{map[string]any{"type": "tool_use", "id": c.id, "name": c.tool, "input": c.input}},
		"stop_reason": "tool_use", "usage": map[string]int{"input_tokens": 3 + g.rng.IntN(50), "output_tokens": 20 + g.rng.IntN(400)}}
	g.marshal(e)

	var a hookAnswer
	if c.hooked {
		g.count(c.out)
		a = g.answer(c.out, c.rule, c.event(), c.id, c.input)
		if c.event() == "PreToolUse" {
			g.hookAttachments(s, c, a)
		}
	}
	if a.Refusal != "" {
		text := "PreToolUse:" + c.tool + " hook error: " + a.Refusal
		e := g.env(s, "user")
		e.Message = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "content": text, "is_error": true, "tool_use_id": c.id}}}
		e.ToolUseResult = "Error: " + text
		g.marshal(e)
		g.st.HookRecords++
	} else {
		g.toolResult(s, c)
	}
	if c.hooked && c.event() == "PostToolUse" {
		g.hookAttachments(s, c, a)
	}
	for i := g.rng.IntN(4); i > 0 && g.left() > 0; i-- {
		g.noise(s)
	}
}

// toolResult writes the user record with the call's result; the content appears twice, in the
// message and in toolUseResult, as Claude Code writes it.
func (g *gen) toolResult(s *session, c toolCall) {
	n := g.resultSize(&s.hugeDone)
	e := g.env(s, "user")
	e.Message = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "content": placeholder, "is_error": false, "tool_use_id": c.id}}}
	if c.tool == "Read" {
		e.ToolUseResult = map[string]any{"type": "text", "file": map[string]any{"filePath": c.input["file_path"], "content": placeholder, "numLines": n / 40, "startLine": 1}}
	} else {
		e.ToolUseResult = map[string]any{"stdout": placeholder, "stderr": "", "interrupted": false, "isImage": false}
	}
	g.writeRecord(g.newTemplate(e), g.rng.IntN(len(g.pool.lines)), n)
}

// hookAttachments writes the attachment records Claude Code keeps of one hook invocation, and
// sometimes an api-request-blob that repeats the hook's context.
func (g *gen) hookAttachments(s *session, c toolCall, a hookAnswer) {
	hookName := c.event() + ":" + c.tool
	switch {
	case c.out == oCrash:
		e := g.env(s, "attachment")
		e.Attachment = map[string]any{"type": "hook_non_blocking_error", "hookName": hookName, "toolUseID": c.id, "hookEvent": c.event(),
			"stderr": "Failed with non-blocking status code: " + a.Stderr, "stdout": "", "exitCode": a.Exit, "command": hookCommand, "durationMs": 40 + g.rng.IntN(900)}
		g.marshal(e)
		g.st.HookRecords++
		return
	case a.Stdout != "" && c.out != oDeny:
		e := g.env(s, "attachment")
		e.Attachment = map[string]any{"type": "hook_success", "hookName": hookName, "toolUseID": c.id, "hookEvent": c.event(),
			"content": "", "stdout": a.Stdout, "stderr": "", "exitCode": 0, "command": hookCommand, "durationMs": 20 + g.rng.IntN(300)}
		g.marshal(e)
		g.st.HookRecords++
	}
	if a.Context != "" {
		e := g.env(s, "attachment")
		e.Attachment = map[string]any{"type": "hook_additional_context", "content": []string{a.Context}, "hookName": hookName, "toolUseID": c.id, "hookEvent": c.event()}
		g.marshal(e)
		g.st.HookRecords++
	}
	if g.rng.IntN(10) < 6 && g.left() > 0 {
		g.marshal(map[string]any{"type": "api-request-blob", "uuid": g.uuid(), "timestamp": g.now(), "sessionId": s.id,
			"blob": map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "<system-reminder>\n" + hookName + " hook additional context: " + a.Context + a.Refusal + "\n</system-reminder>"},
				map[string]any{"type": "text", "text": g.pool.text(g.rng, 8)}}}}}})
	}
}

// noise writes one record that has nothing to do with hooks, from a few bytes to a few KiB.
func (g *gen) noise(s *session) {
	switch g.rng.IntN(6) {
	case 0:
		g.record([]byte(`{"type":"atis-latch"}`))
	case 1:
		g.marshal(map[string]any{"type": "queue-operation", "operation": "dequeue", "timestamp": g.now(), "sessionId": s.id})
	case 2:
		g.marshal(map[string]any{"type": "cost-state", "costUSD": float64(g.rng.IntN(100000)) / 1000, "timestamp": g.now(), "sessionId": s.id})
	case 3:
		e := g.env(s, "assistant")
		e.Message = map[string]any{"id": "msg_" + g.uuid(), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
			"content": []any{map[string]any{"type": "text", "text": g.pool.text(g.rng, 2+g.rng.IntN(12))}}}
		g.marshal(e)
	case 4:
		g.marshal(map[string]any{"type": "api-request", "uuid": g.uuid(), "timestamp": g.now(), "model": "claude-sonnet-4-5", "messages": 10 + g.rng.IntN(300), "sessionId": s.id})
	default:
		e := g.env(s, "system")
		e.Message = map[string]any{"subtype": "informational", "content": g.pool.text(g.rng, 1)}
		g.marshal(e)
	}
}
