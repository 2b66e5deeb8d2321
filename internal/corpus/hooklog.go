package corpus

// logRecord is one hook-log line as `agc-sarif record` writes it (docs/inputs.md, "Recording hooks").
type logRecord struct {
	Time       string   `json:"time"`
	Runtime    string   `json:"runtime"`
	Command    []string `json:"command"`
	Input      any      `json:"input"`
	ExitCode   int      `json:"exit_code"`
	Stdout     string   `json:"stdout"`
	Stderr     string   `json:"stderr"`
	DurationMS float64  `json:"duration_ms"`
}

// hookLog writes a hook log: a PreToolUse and a PostToolUse record per tool call. Most bytes are
// the tool_response of PostToolUse inputs (file contents, command output).
func (g *gen) hookLog() error {
	s := &session{id: g.uuid(), cwd: projectDir}
	for g.left() > 0 && g.err == nil {
		c := g.nextCall()
		pre := oNone
		if g.rng.IntN(g.shape.Of) < 4*g.shape.Hooked {
			pre = g.pickOutcome()
			if pre == oPostSteer {
				pre = oPass
			}
			c.rule = gateRules[g.rng.IntN(len(gateRules))]
		}
		g.logRecord(s, c, "PreToolUse", pre, 0)
		if pre == oDeny || pre == oExit2 {
			continue // refused: the tool did not run, no PostToolUse
		}
		post := oNone
		if g.rng.IntN(20) == 0 {
			post = oPostSteer
			c.rule = postRule
		}
		g.logRecord(s, c, "PostToolUse", post, g.resultSize(&s.hugeDone))
	}
	return g.err
}

// logRecord writes one hook invocation; a PostToolUse record carries a tool_response of n bytes.
func (g *gen) logRecord(s *session, c toolCall, event string, o outcome, n int) {
	g.count(o)
	a := g.answer(o, c.rule, event, c.id, c.input)
	in := map[string]any{"session_id": s.id, "transcript_path": "/home/dev/.claude/projects/-home-dev-src-project/" + s.id + ".jsonl",
		"cwd": s.cwd, "permission_mode": "default", "hook_event_name": event, "tool_name": c.tool, "tool_input": c.input, "tool_use_id": c.id}
	if event == "PostToolUse" {
		in["tool_response"] = map[string]any{"stdout": placeholder, "stderr": "", "interrupted": false}
	}
	rec := logRecord{Time: g.now(), Runtime: "claude-code", Command: []string{"/bin/sh", "-c", hookCommand}, Input: in,
		ExitCode: a.Exit, Stdout: a.Stdout, Stderr: a.Stderr, DurationMS: float64(10+g.rng.IntN(900)) + 0.25}
	g.st.HookRecords++
	if event == "PostToolUse" {
		g.writeRecord(g.newTemplate(rec), g.rng.IntN(len(g.pool.lines)), n)
		return
	}
	g.marshal(rec)
}
