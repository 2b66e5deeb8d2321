package corpus

import (
	"encoding/json"
	"fmt"
)

// streamJSON writes what `claude -p --output-format stream-json --verbose --include-hook-events`
// prints: system/init, assistant and user messages, hook_started/hook_response for every hook
// run, and a final result whose text is a judging agent's final message with an ```agc block.
func (g *gen) streamJSON() error {
	s := &session{id: g.uuid(), cwd: projectDir}
	g.marshal(map[string]any{"type": "system", "subtype": "init", "cwd": s.cwd, "session_id": s.id,
		"tools": []string{"Task", "Bash", "Read", "Edit", "Write", "Grep"}, "mcp_servers": []any{},
		"model": "claude-sonnet-4-5", "permissionMode": "default", "claude_code_version": "2.1.332", "uuid": g.uuid()})
	var denials []map[string]any
	const reserve = 8 << 10 // the final result record
	for g.left() > reserve && g.err == nil {
		c := g.nextCall()
		g.marshal(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_" + c.id[8:], "type": "message", "role": "assistant",
			"model": "claude-sonnet-4-5", "content": []any{map[string]any{"type": "tool_use", "id": c.id, "name": c.tool, "input": c.input}},
			"stop_reason": "tool_use"}, "parent_tool_use_id": nil, "session_id": s.id, "uuid": g.uuid()})
		var a hookAnswer
		if c.hooked {
			g.count(c.out)
			a = g.answer(c.out, c.rule, c.event(), c.id, c.input)
			if c.event() == "PreToolUse" {
				g.hookResponse(s, c, a)
			}
		}
		if a.Refusal != "" {
			text := "PreToolUse:" + c.tool + " hook error: " + a.Refusal
			g.marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "content": text, "is_error": true, "tool_use_id": c.id}}},
				"parent_tool_use_id": nil, "session_id": s.id, "uuid": g.uuid(), "tool_use_result": "Error: " + text,
				"tool_result_meta": []any{map[string]any{"id": c.id, "non_execution_kind": "permission-rule"}}})
			g.st.HookRecords++
			if len(denials) < 1000 {
				denials = append(denials, map[string]any{"tool_name": c.tool, "tool_use_id": c.id, "tool_input": c.input})
			}
		} else {
			n := int(min(int64(g.resultSize(&s.hugeDone)), max((g.left()-reserve)/2, 16)))
			t := g.newTemplate(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "content": placeholder, "is_error": false, "tool_use_id": c.id}}},
				"parent_tool_use_id": nil, "session_id": s.id, "uuid": g.uuid(),
				"tool_use_result": map[string]any{"stdout": placeholder, "stderr": "", "interrupted": false}})
			g.writeRecord(t, g.rng.IntN(len(g.pool.lines)), n)
		}
		if c.hooked && c.event() == "PostToolUse" {
			g.hookResponse(s, c, a)
		}
		for i := g.rng.IntN(4); i > 0 && g.left() > reserve; i-- {
			switch g.rng.IntN(3) {
			case 0:
				g.record([]byte(`{"type":"rate_limit_event"}`))
			case 1:
				g.marshal(map[string]any{"type": "system", "subtype": "thinking_tokens", "tokens": g.rng.IntN(4000), "session_id": s.id, "uuid": g.uuid()})
			default:
				g.marshal(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_" + g.uuid(), "type": "message", "role": "assistant",
					"content": []any{map[string]any{"type": "text", "text": g.pool.text(g.rng, 1+g.rng.IntN(10))}}}, "session_id": s.id, "uuid": g.uuid()})
			}
		}
	}
	// The final message of a reviewer: prose, then one ```agc block (one steer finding).
	g.st.Events++
	g.st.Findings["steer"]++
	final := "I reviewed the change.\n\nThe new retry loop has no upper bound; a bounded backoff would be safer.\n\n```agc\n" +
		`{"agc":"0.1","gate":{"id":"code-review","kind":"judgment"},"verdict":"steer","findings":[{"rule":"unbounded-retry","message":"The retry loop has no upper bound.","location":{"path":"internal/pkg1/file1.go","line":12}}]}` +
		"\n```"
	if denials == nil {
		denials = []map[string]any{}
	}
	last, err := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "num_turns": g.seq, "result": final,
		"stop_reason": "end_turn", "session_id": s.id, "total_cost_usd": 1.25, "permission_denials": denials, "uuid": g.uuid()})
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	// Fill up to the size with one assistant text message, so the corpus is not short.
	t := g.newTemplate(map[string]any{"type": "assistant", "message": map[string]any{"id": "msg_" + g.uuid(), "type": "message", "role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": placeholder}}}, "session_id": s.id, "uuid": g.uuid()})
	overhead := int64(len(t[0]) + len(t[1]) + 1)
	if pad := g.left() - int64(len(last)) - 1 - overhead; pad > 0 {
		g.writeRecord(t, g.rng.IntN(len(g.pool.lines)), int(pad))
	}
	g.record(last)
	return g.err
}

// hookResponse writes the hook_started and hook_response records of one hook run.
func (g *gen) hookResponse(s *session, c toolCall, a hookAnswer) {
	id := g.uuid()
	name := c.event() + ":" + c.tool
	g.marshal(map[string]any{"type": "system", "subtype": "hook_started", "hook_id": id, "hook_name": name, "hook_event": c.event(), "uuid": g.uuid(), "session_id": s.id})
	outcome := "success"
	if a.Exit != 0 {
		outcome = "error"
	}
	g.marshal(map[string]any{"type": "system", "subtype": "hook_response", "hook_id": id, "hook_name": name, "hook_event": c.event(),
		"output": a.Stdout + a.Stderr, "stdout": a.Stdout, "stderr": a.Stderr, "exit_code": a.Exit, "outcome": outcome, "uuid": g.uuid(), "session_id": s.id})
	g.st.HookRecords += 2
}
