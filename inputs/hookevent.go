package inputs

import (
	"encoding/json"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/hookprog"
)

// HookEvent is one hook invocation at a tool call, as any record format tells it.
type HookEvent struct {
	Answer gates.HookAnswer
	Call   findings.Call // runtime, event, tool, tool_use_id, session, hook, command, file path, cwd, input
	Source findings.Source
	Time   string
	// Key names the event across files when its runtime keys calls by order (OrdinalKeys); ""
	// keys it by the call's tool_use_id (for such a runtime only when the session is known).
	Key string
	// CallKey names the call across files and events, for the same runtimes (OrdinalSlot.callKey).
	CallKey string
}

// Skip reasons the readers share.
const (
	// SkipNotHook is a record that tells of no hook.
	SkipNotHook = "not a hook record"
	// SkipToolCall is a tool call, read as context for the hook records that follow.
	SkipToolCall = "tool call (context for hook records)"
	// SkipBadJSON is a record that is not JSON.
	SkipBadJSON = "invalid JSON"
	// SkipNoAGCBlock is a final message without an agc block.
	SkipNoAGCBlock = "final message without an agc block"
	// SkipJudgmentPass is a judgment whose verdict is pass.
	SkipJudgmentPass = "pass verdict"
)

// Skip reasons of hook events that yield no finding.
const (
	// SkipNoDecision is a hook answer with no decision.
	SkipNoDecision = "hook answered with no decision"
	skipPass       = "pass verdict"
	// SkipNoAGC is a hook decision without an AGC response, when unstructured decisions are off.
	SkipNoAGC = "hook decision without AGC response (unstructured decisions are off)"
)

// AddHookEvent checks the answer against its binding and adds the findings it yields to set
// (gate findings, contract breaches, and an unstructured decision when opts allow). It reports
// whether any finding was added (new or a duplicate of an event already seen) and, when nothing
// was, why (a skip reason); the caller counts the record with set.Use or set.Skip accordingly.
func AddHookEvent(ev HookEvent, opts Options, set *findings.Set) (bool, string) {
	fs, reason := hookEventFindings(ev, opts)
	kept := 0
	for _, f := range fs {
		if opts.add(set, f) {
			kept++
		}
	}
	if kept == 0 && len(fs) > 0 {
		return false, SkipNoAGC // the run reports no unstructured decision: read for the sink's other consumers only
	}
	return kept > 0, reason
}

// hookEventFindings turns one hook event into findings, or a skip reason when it yields none.
func hookEventFindings(ev HookEvent, opts Options) ([]findings.Finding, string) {
	call := completeCall(ev, opts)
	a := ev.Answer
	if a.Event == "" {
		a.Event = call.Event
	}
	if a.Tool == "" {
		a.Tool = call.Tool
	}
	if a.Hook == "" {
		a.Hook = call.Hook
	}
	if len(a.ToolInput) == 0 {
		a.ToolInput = call.Input
	}
	a.Redact = opts.Redact
	named := call
	named.Hook, named.Event, named.Tool = a.Hook, a.Event, a.Tool
	a.HookShown = opts.ShowHook(named)
	cwd := call.Cwd
	a.ShowPath = func(p string) string { return opts.Show(p, cwd) }
	bind := opts.binding(call.Runtime)
	res := bind.CheckHook(a)
	if len(res.Responses) == 0 && len(res.Breaches) == 0 && res.Unstructured == nil {
		return nil, SkipNoDecision
	}
	call = withToolNames(opts, call)
	call.ExitKnown = a.HasExit
	call.Answer, call.After = res.Answer, res.After
	if row, ok := bind.Effects().Of(res.Answer); ok {
		call.Effect = row.Effect
	}
	call.Key = ev.CallKey

	key := ev.Key
	if key == "" && (call.SessionID != "" || !opts.keysByOrder(call.Runtime)) {
		key = eventKey(call) // a runtime keyed by order: by a call id only within a known session
	}
	base := findings.Finding{Call: &call, Source: ev.Source, Time: ev.Time, EventKey: key}
	var out []findings.Finding
	for _, r := range res.Responses {
		for _, f := range findings.FromResponse(r, base) {
			if f.Repair == nil && f.Verdict == gates.Repaired && res.UpdatedInput != nil {
				f.Repair = inputRepair(call.Tool, f.Target, call.Input, res.UpdatedInput)
			}
			out = append(out, f)
		}
	}
	for _, b := range res.Breaches {
		out = append(out, findings.FromBreach(b, base, bind.Rows())) // the binding kept only its own rules
	}
	if u := res.Unstructured; u != nil && opts.IncludeUnstructured {
		f := base
		f.Gate, f.Rule = "hook", hookRuleName(redactedNames(call, opts.Redact))
		f.RuleID = "hook/" + f.Rule
		f.Kind = findings.Unstructured
		f.Verdict = u.Verdict
		f.Level = findings.DefaultLevel(u.Verdict)
		f.Message = u.Message
		if u.Verdict == gates.Repaired && res.UpdatedInput != nil {
			f.Repair = inputRepair(call.Tool, "", call.Input, res.UpdatedInput)
		}
		out = append(out, f)
	}
	if len(out) > 0 {
		return out, ""
	}
	switch {
	case res.Unstructured != nil:
		return nil, SkipNoAGC
	case len(res.Responses) > 0:
		return nil, skipPass
	}
	return nil, SkipNoDecision
}

// redactedNames is the call with the texts a hook's rule name is made of redacted: the name is
// lower-cased and cut, which would hide a secret in it from the redaction of the finding.
func redactedNames(c findings.Call, red func(string) string) findings.Call {
	if red != nil {
		c.Hook, c.Event, c.Tool = red(c.Hook), red(c.Event), red(c.Tool)
	}
	return c
}

// completeCall fills the call from the answer where the reader left gaps (withToolNames reads
// its tool input).
func completeCall(ev HookEvent, opts Options) findings.Call {
	c := ev.Call
	if c.Runtime == "" {
		c.Runtime = opts.defaultRuntime()
	}
	if c.Event == "" {
		c.Event = ev.Answer.Event
	}
	if c.Tool == "" {
		c.Tool = ev.Answer.Tool
	}
	if c.Hook == "" {
		c.Hook = ev.Answer.Hook
	}
	if len(c.Input) == 0 && len(ev.Answer.ToolInput) > 0 {
		c.Input = ev.Answer.ToolInput
	}
	return c
}

// withToolNames fills the call's command and file path, where the reader left them empty, from
// its tool input as its binding reads them. Only a call that yields findings needs them, and
// reading them decodes the input.
func withToolNames(opts Options, c findings.Call) findings.Call {
	if len(c.Input) > 0 && (c.Command == "" || c.FilePath == "") {
		command, filePath := opts.binding(c.Runtime).ToolNames(c.Tool, c.Input)
		if c.Command == "" {
			c.Command = command
		}
		if c.FilePath == "" {
			c.FilePath = filePath
		}
	}
	return c
}

// eventKey identifies one hook event across records: runtime/session/tool_use_id/event. Calls
// without a tool_use_id get no key (they cannot be matched, so they are never merged).
func eventKey(c findings.Call) string {
	if c.ToolUseID == "" {
		return ""
	}
	return c.Runtime + "/" + c.SessionID + "/" + c.ToolUseID + "/" + c.Event
}

// JSONString reads a JSON string value; anything else is "".
func JSONString(m json.RawMessage) string {
	var s string
	if len(m) == 0 || json.Unmarshal(m, &s) != nil {
		return ""
	}
	return s
}

// inputRepair builds a Repair from the original tool input and the hook's updatedInput: the field
// named by target ("Bash.command" → command), or else the one string field that changed. It
// returns nil when the change cannot be pinned to one string field.
func inputRepair(tool, target string, before, after json.RawMessage) *findings.Repair {
	var b, a map[string]json.RawMessage
	if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil {
		return nil
	}
	if target != "" {
		field := target
		if i := strings.IndexByte(target, '.'); i >= 0 {
			if tool != "" && target[:i] != tool {
				return nil
			}
			field = target[i+1:]
		}
		av, ok := a[field]
		if !ok {
			return nil
		}
		bs, as := JSONString(b[field]), JSONString(av)
		if as == "" || bs == as {
			return nil
		}
		return &findings.Repair{Before: bs, After: as}
	}
	var rep *findings.Repair
	for k, av := range a {
		as := JSONString(av)
		bs := JSONString(b[k])
		if as == "" || as == bs {
			continue
		}
		if rep != nil {
			return nil // several fields changed: no single before/after
		}
		rep = &findings.Repair{Before: bs, After: as}
	}
	return rep
}

// hookRuleName names an unstructured hook decision's rule: the program the hook runs, seen through
// the recorder, wrappers, shells and interpreters (package hookprog), or event-tool when the
// command is unknown. The result matches [a-z0-9][a-z0-9._-]*.
func hookRuleName(c findings.Call) string {
	if n := hookprog.Of(c.Hook).RuleName(); n != "" {
		return n
	}
	if n := hookprog.Sanitize(c.Event + "-" + c.Tool); n != "" {
		return n
	}
	return "unknown"
}
