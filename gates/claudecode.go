package gates

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// HookAnswer is what the records tell of one hook invocation at a Claude Code tool boundary.
// Records differ in what they keep (a hook log keeps everything; a transcript may keep only the
// additionalContext and the refusal text), so every piece of evidence has a flag saying whether it
// is known, and checks never accuse a gate on evidence that is missing.
type HookAnswer struct {
	Event string // the event that ran: "PreToolUse", "PostToolUse", …
	Tool  string // the tool of the call: "Bash", "Edit", …
	Hook  string // the hook command as configured, when known

	HasExit  bool // ExitCode is known
	ExitCode int

	HasStdout bool   // Stdout is the hook's complete stdout
	Stdout    string // raw stdout (JSON on exit 0, or text)
	HasStderr bool   // Stderr is the hook's complete stderr
	Stderr    string

	// AdditionalContext holds additionalContext strings seen apart from stdout (transcript
	// hook_additional_context records), when stdout itself is not known.
	AdditionalContext []string
	// ContextComplete says AdditionalContext holds every additionalContext the runtime recorded for
	// this hook (all records of the event were seen), so an empty list means the hook sent none.
	ContextComplete bool

	// Failed says the hook failed open: "crashed" (exit other than 0 or 2), "timeout",
	// "cancelled", or "not-run" (could not be started); "" when it answered.
	Failed string
	// Limit is the runtime's time limit that ended a hook that timed out, when the record names
	// it (Claude Code's hook_cancelled timeoutMs); Ran is how long the hook ran, when known.
	Limit, Ran time.Duration

	// Refused says the runtime refused the call because of a hook (a PreToolUse tool_result with
	// is_error and "PreToolUse:<Tool> hook error: …"); RefusalText is that text after the prefix.
	Refused     bool
	RefusalText string

	// Blocked says the runtime recorded a blocking error from this hook (PostToolUse
	// hook_blocking_error); BlockReason is its text.
	Blocked     bool
	BlockReason string

	// ToolInput is the call's tool_input as JSON, when known; it lets failure messages name the
	// command or file that went unguarded.
	ToolInput json.RawMessage

	// Redact hides secrets in agent text; messages apply it before they cut a text, so that a
	// cut never leaves part of a secret the redactor could no longer recognise. nil: no change.
	Redact func(string) string
	// HookShown is how messages name the hook: its command as the settings configure it, paths
	// as a reviewer reads them; "" → Hook, which the checks match records against.
	HookShown string
	// ShowPath shows a path of the call as people read it (repo-relative, "<outside>/name");
	// nil: as written.
	ShowPath func(string) string
}

// HookResult is what a hook answer holds for the findings.
type HookResult struct {
	// Responses are the AGC responses found in the answer: additionalContext (JSON or the text
	// form), or stderr on exit 2.
	Responses []*Response
	// Breaches are the binding and contract checks the answer failed.
	Breaches []Breach
	// Unstructured is set when the hook enforced or changed something (exit-2 block, deny, a
	// rewrite) without any AGC response.
	Unstructured *Unstructured
	// UpdatedInput is the hook's hookSpecificOutput.updatedInput, when it sent one (PreToolUse).
	UpdatedInput json.RawMessage
	// Decision is what the runtime did with the answer, as far as the evidence tells: "block",
	// "repaired", "ask", "allow", "context", "failed" or "" (no decision, or unknown).
	Decision string
	// Answer is the answer's form, as the bindings' effect tables name it ("" when the hook
	// let the call through without a decision); the binding's Effects say what the runtime did.
	Answer Answer
	// After says the answer came after the call ran (the binding's PostToolUse event).
	After bool
}

// Unstructured is a hook decision that carried no AGC response.
type Unstructured struct {
	Verdict Verdict // block for exit 2 / deny, repaired for a bare rewrite, steer for bare context
	Message string  // the reason the hook gave, or what it did
}

// HookOutput is the JSON a Claude Code command hook may print on stdout.
type HookOutput struct {
	Continue   *bool           `json:"continue"`
	StopReason json.RawMessage `json:"stopReason"`
	Decision   json.RawMessage `json:"decision"`
	Reason     json.RawMessage `json:"reason"`
	HSO        *HookSpecific   `json:"hookSpecificOutput"`
}

// HookSpecific is hookSpecificOutput for the tool events. Strings are kept raw so that a hostile
// value of the wrong type is read as absent rather than failing the whole answer.
type HookSpecific struct {
	HookEventName            json.RawMessage `json:"hookEventName"`
	PermissionDecision       json.RawMessage `json:"permissionDecision"`
	PermissionDecisionReason json.RawMessage `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        json.RawMessage `json:"additionalContext"`
	UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
	UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
}

// RawString reads a JSON string; anything else (absent, null, another type) is "".
func RawString(m json.RawMessage) string {
	s, _ := jsonscan.Unquote(m)
	return s
}

// Present reports whether a raw JSON field was sent with a non-null value.
func Present(m json.RawMessage) bool {
	t := strings.TrimSpace(string(m))
	return t != "" && t != "null"
}

// AnswerView is a hook answer reduced to what the checks need.
type AnswerView struct {
	a        HookAnswer // with the tool events named as the checks name them
	h        Host
	event    string      // the event as the runtime names it
	decoded  bool        // Out is the binding's decoding of the answer, which echoes no event name
	Out      *HookOutput // parsed stdout JSON, nil when stdout is unknown or not JSON
	badJSON  bool        // stdout begins with "{" but is not valid JSON, or not the hook output schema
	badWhy   string      // what is wrong with it
	Exit2    bool        // the hook is known to have exited 2 (exit code, or refusal text form)
	exit0    bool        // the hook is known to have exited 0
	Failed   string      // why the hook failed open, "" when it did not
	Decision string      // permissionDecision, or "block" for legacy decision:block
	Reason   string      // the reason the hook gave for its decision
}

// CheckAnswer reads a hook answer shaped as Claude Code's (hookSpecificOutput, exit 2 with
// stderr) under the PreToolUse / PostToolUse bindings, for the runtime h: it finds the AGC
// responses the answer carries, checks the answer against the binding rules of docs/runtimes.md, and
// reports a decision without any AGC response as Unstructured. Other events get only their
// responses, failures and the event-name check. out is the answer as the binding decoded it
// from its own shape; nil reads stdout as hookSpecificOutput JSON.
func CheckAnswer(a HookAnswer, h Host, out *HookOutput) HookResult {
	v := View(a, h, out)
	a = v.a
	res := HookResult{Answer: v.Form(), After: a.Event == "PostToolUse"}
	if v.Failed != "" {
		res.Decision = "failed"
		if got, ok := runtimeEventMismatch(a); ok {
			res.Answer = AnswerInvalidJSON
			what := fmt.Sprintf("hookSpecificOutput.hookEventName %q", got)
			if got == "" {
				what = "no hookSpecificOutput.hookEventName"
			}
			res.Breaches = append(res.Breaches, Breach{Check: CheckEventMismatch, Pointer: "/hookSpecificOutput/hookEventName",
				Message: fmt.Sprintf("%s hook %s answered with %s: %s rejected the answer, so %s went ahead unguarded.",
					orDefault(v.event, "The"), HookName(a), what, h.Name, CallPhrase(a))})
			return res
		}
		res.Breaches = append(res.Breaches, Breach{Check: CheckHookFailedOpen, Message: v.failedMessage(v.Failed)})
		return res
	}
	if v.Out != nil && v.Out.HSO != nil {
		res.UpdatedInput = v.Out.HSO.UpdatedInput
		if !Present(res.UpdatedInput) {
			res.UpdatedInput = nil
		}
		if name := RawString(v.Out.HSO.HookEventName); !v.decoded && a.Event != "" && name != a.Event {
			res.Decision, res.Answer = "failed", AnswerInvalidJSON
			got := fmt.Sprintf("hookSpecificOutput.hookEventName %q, not %q", name, a.Event)
			if name == "" {
				got = fmt.Sprintf("no hookSpecificOutput.hookEventName (want %q)", a.Event)
			}
			res.Breaches = append(res.Breaches, Breach{Check: CheckEventMismatch, Pointer: "/hookSpecificOutput/hookEventName",
				Message: fmt.Sprintf("%s hook %s answered with %s: %s rejects the answer, so %s went ahead unguarded.",
					v.event, HookName(a), got, h.Name, CallPhrase(a))})
			rs, bs := v.responses()
			res.Responses, res.Breaches = rs, append(res.Breaches, bs...)
			return res
		}
	}
	rs, bs := v.responses()
	res.Responses, res.Breaches = rs, bs
	res.Decision = v.effect()
	for _, r := range rs {
		if r.Gate.Kind == Judgment {
			res.Breaches = append(res.Breaches, Breach{Check: CheckRuntimeWrongKind, Pointer: "/gate/kind",
				Message: fmt.Sprintf("gate %q answered the %s hook with gate.kind %q; a hook's response comes from a runtime gate.", r.Gate.ID, v.event, r.Gate.Kind)})
		}
		switch a.Event {
		case "PreToolUse":
			res.Breaches = append(res.Breaches, v.checkPre(r)...)
		case "PostToolUse":
			res.Breaches = append(res.Breaches, v.checkPost(r)...)
		}
	}
	if a.Event == "PostToolUse" {
		res.Breaches = append(res.Breaches, v.checkPostAGC(rs)...)
	}
	if a.Event == "PreToolUse" || a.Event == "PostToolUse" {
		res.Breaches = append(res.Breaches, v.checkHeavier(rs)...)
	}
	if len(rs) == 0 && !HasCheck(bs, CheckInvalidJSON) {
		res.Unstructured = v.unstructured()
	}
	return res
}

// HasCheck reports whether bs holds a breach of check id.
func HasCheck(bs []Breach, id string) bool {
	for _, b := range bs {
		if b.Check == id {
			return true
		}
	}
	return false
}

// Host names the runtime a hook answer is checked for: its name, as messages spell it, and its
// own names of the events the checks call PreToolUse and PostToolUse ("" when it uses these).
type Host struct{ Name, Pre, Post string }

// toolEvent is the event the checks read for the runtime's event e.
func (h Host) toolEvent(e string) string {
	switch {
	case e == "":
	case e == h.Pre:
		return "PreToolUse"
	case e == h.Post:
		return "PostToolUse"
	}
	return e
}

// View reads the answer for h: out when the binding decoded the answer itself (nil: stdout is
// parsed as a hookSpecificOutput answer), and what is known of the hook's exit. The view's
// answer names the tool events as the checks do; messages name them as the runtime does.
func View(a HookAnswer, h Host, out *HookOutput) AnswerView {
	v := AnswerView{a: a, h: h, event: a.Event}
	v.a.Event = h.toolEvent(a.Event)
	a = v.a
	if out != nil {
		v.Out, v.decoded = out, true
	} else if a.HasStdout {
		t := strings.TrimSpace(a.Stdout)
		if strings.HasPrefix(t, "{") {
			var o HookOutput
			if fast, ok := fastHookOutput([]byte(t)); ok {
				v.Out = fast
			} else if err := json.Unmarshal([]byte(t), &o); err != nil {
				v.badJSON = true
				v.badWhy = "answered with stdout that begins with \"{\" but is not valid JSON"
				var any map[string]json.RawMessage
				if json.Unmarshal([]byte(t), &any) == nil {
					v.badWhy = fmt.Sprintf("answered with JSON that %s's hook schema rejects (%v)", h.Name, err)
				}
			} else {
				v.Out = &o
			}
		}
	}
	if a.HasExit {
		v.exit0 = a.ExitCode == 0
		v.Exit2 = a.ExitCode == 2
	} else if a.Refused && refusalByExit2(a) {
		v.Exit2 = true
	}
	switch {
	case a.Failed != "":
		v.Failed = a.Failed
	case a.HasExit && a.ExitCode != 0 && a.ExitCode != 2:
		v.Failed = "crashed"
	case v.badJSON && v.exit0:
		v.Failed = v.badWhy
	}
	if v.Out != nil {
		if v.Out.HSO != nil {
			v.Decision = RawString(v.Out.HSO.PermissionDecision)
			v.Reason = RawString(v.Out.HSO.PermissionDecisionReason)
		}
		switch d := RawString(v.Out.Decision); {
		case d == "block" && v.Decision != "deny":
			v.Decision = "block"
			v.Reason = RawString(v.Out.Reason)
		case d == "approve" && v.Decision == "":
			v.Decision = "allow"
		}
		if v.Reason == "" {
			v.Reason = RawString(v.Out.Reason)
		}
	}
	return v
}

// runtimeEventMismatch reads Claude Code's own report of a rejected event name from the stderr of
// a non-blocking error ("Hook returned incorrect event name: expected 'A' but got 'B'"), as
// transcripts record it (with exit code 1, although the hook exited 0).
func runtimeEventMismatch(a HookAnswer) (string, bool) {
	if a.HasStdout && strings.TrimSpace(a.Stdout) != "" {
		return "", false
	}
	if strings.Contains(a.Stderr, `hookSpecificOutput is missing required field "hookEventName"`) {
		return "", true
	}
	const marker = "Hook returned incorrect event name: expected '"
	i := strings.Index(a.Stderr, marker)
	if i < 0 {
		return "", false
	}
	rest := a.Stderr[i+len(marker):]
	const got = "' but got '"
	j := strings.Index(rest, got)
	if j < 0 {
		return "", false
	}
	rest = rest[j+len(got):]
	k := strings.IndexByte(rest, '\'')
	if k < 0 {
		return "", false
	}
	return rest[:k], true
}

// refusalByExit2 reports whether a refusal text has the "[<command>]: <stderr>" form that only an
// exit-2 block produces.
func refusalByExit2(a HookAnswer) bool {
	t := a.RefusalText
	if a.Hook != "" {
		return strings.HasPrefix(t, "["+a.Hook+"]: ") || t == "["+a.Hook+"]: No stderr output"
	}
	if !strings.HasPrefix(t, "[") {
		return false
	}
	i := strings.Index(t, "]: ")
	return i > 1 && !strings.ContainsAny(t[:i], "\n")
}

// refusalStderr is the stderr part of an exit-2 refusal text, or the whole text otherwise.
func refusalStderr(a HookAnswer) string {
	t := a.RefusalText
	if a.Hook != "" && strings.HasPrefix(t, "["+a.Hook+"]: ") {
		return t[len(a.Hook)+4:]
	}
	if refusalByExit2(a) {
		return t[strings.Index(t, "]: ")+3:]
	}
	return t
}

// contexts are the additionalContext strings of the answer.
func (v AnswerView) contexts() []string {
	if v.Out != nil {
		if v.Out.HSO != nil {
			if s := RawString(v.Out.HSO.AdditionalContext); s != "" {
				return []string{s}
			}
		}
		return nil
	}
	if v.a.HasStdout && !v.badJSON {
		return nil
	}
	return v.a.AdditionalContext
}

// responses finds the AGC responses of the answer: in additionalContext first; failing that in
// stderr of an exit-2 block, the refusal or block text, the decision reason, or plain-text stdout.
func (v AnswerView) responses() ([]*Response, []Breach) {
	var rs []*Response
	var bs []Breach
	for _, c := range v.contexts() {
		r, b, _ := FindResponses(c)
		rs, bs = append(rs, r...), append(bs, b...)
	}
	if len(rs) > 0 || len(bs) > 0 {
		return rs, bs
	}
	var more []string
	if v.Exit2 && v.a.HasStderr {
		more = append(more, v.a.Stderr)
	}
	if v.a.Refused {
		more = append(more, refusalStderr(v.a))
	}
	if v.a.Blocked {
		more = append(more, v.a.BlockReason)
	}
	more = append(more, v.Reason)
	if v.a.HasStdout && !v.badJSON && (v.Out == nil || looksAGC(strings.TrimSpace(v.a.Stdout), true)) {
		more = append(more, v.a.Stdout) // plain text, or an AGC response printed bare instead of as hook JSON
	}
	for _, s := range more {
		r, b, _ := FindResponses(s)
		if len(r) > 0 || len(b) > 0 {
			return r, b
		}
	}
	return nil, nil
}

// FindResponses finds the AGC responses in a string that carries one: a JSON object (the whole
// string, or starting a line) with an "agc", or "gate" and "verdict", key; failing that, a
// text-form line. It reports whether the response came as JSON. JSON that looks like an AGC
// response but does not decode yields its breaches.
func FindResponses(s string) ([]*Response, []Breach, bool) { return findResponses(s, true) }

// findResponses is FindResponses; without fast, it reads every object through encoding/json
// first, the reference FuzzFindResponses checks the fast path against.
func findResponses(s string, fast bool) ([]*Response, []Breach, bool) {
	var rs []*Response
	var bs []Breach
	var b []byte // s, converted once there is an object to read
	for off := 0; off < len(s); {
		i := nextObject(s, off)
		if i < 0 {
			break
		}
		if b == nil {
			b = []byte(s)
		}
		// A plainly valid response is what the path below would read, without decoding it three times.
		if r, n, ok := fastDecodePrefix(b[i:]); fast && ok {
			rs = append(rs, r)
			bs = append(bs, warnings(b[i:i+n], r)...)
			off = i + n
			continue
		}
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if looksAGC(s[i:], false) {
				_, b := Decode([]byte(strings.TrimSpace(s[i:])))
				if len(b) == 0 {
					b = []Breach{{Check: CheckInvalidJSON, Message: fmt.Sprintf("AGC response is not valid JSON: %v", err)}}
				}
				bs = append(bs, b...)
			}
			break
		}
		off = i + int(dec.InputOffset())
		if !looksAGC(string(raw), true) {
			continue
		}
		r, b := Decode(raw)
		bs = append(bs, b...)
		if r != nil {
			rs = append(rs, r)
		}
	}
	if len(rs) > 0 || len(bs) > 0 {
		return rs, bs, true
	}
	if r, ok := FindText(s); ok && r != nil {
		return []*Response{r}, nil, false
	}
	return nil, nil, false
}

// nextObject is the offset of the next "{" at or after off that starts the string or a line
// (after blanks), or -1.
func nextObject(s string, off int) int {
	for i := off; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return i
		}
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return -1
		}
		i += j
	}
	return -1
}

// looksAGC reports whether JSON text is meant as an AGC response: an object with an "agc" key, or
// "gate" and "verdict" keys. For text that is not valid JSON it looks for the "agc" key's name.
func looksAGC(s string, valid bool) bool {
	if !valid {
		return strings.Contains(s, `"agc"`) || strings.Contains(s, `"verdict"`) && strings.Contains(s, `"gate"`)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &m) != nil {
		return false
	}
	_, agc := m["agc"]
	_, gate := m["gate"]
	_, verdict := m["verdict"]
	return agc || gate && verdict
}

// Form is the answer's form, as the effect tables name it: how the hook failed, else the
// heaviest thing it answered; "" when it let the call through without a decision.
func (v AnswerView) Form() Answer {
	post := v.a.Event == "PostToolUse"
	switch {
	case v.Failed == "timeout":
		return AnswerTimeout
	case v.Failed != "" && v.badJSON:
		return AnswerInvalidJSON
	case v.Failed != "":
		return AnswerCrash
	case v.Out != nil && v.Out.Continue != nil && !*v.Out.Continue:
		return AnswerHalt
	case post && v.Out != nil && v.Out.HSO != nil && v.updatesOutput():
		return AnswerPostReplace
	case post && v.Blocked():
		return AnswerPostBlock
	case post && len(v.contexts()) > 0:
		return AnswerPostContext
	case post && v.a.HasExit && v.a.HasStdout:
		return AnswerNone
	case post:
		return ""
	case v.Exit2:
		return AnswerExit2
	case v.Decision == "block":
		return AnswerDecisionBlock
	case v.Blocked():
		return AnswerDeny
	case v.repairedByAnswer() && v.Decision == "allow":
		return AnswerRewriteAllow
	case v.repairedByAnswer():
		return AnswerRewrite
	case v.Decision == "ask":
		return AnswerAsk
	case len(v.contexts()) > 0:
		return AnswerContext
	case v.a.HasExit && v.a.HasStdout:
		return AnswerNone
	}
	return ""
}

// effect is what the runtime did with the answer.
func (v AnswerView) effect() string {
	switch {
	case v.Blocked():
		return "block"
	case v.repairedByAnswer():
		return "repaired"
	case v.Decision == "ask" || v.Decision == "defer":
		return v.Decision
	case v.Decision == "allow":
		return "allow"
	case len(v.contexts()) > 0:
		return "context"
	}
	return ""
}

// Blocked reports whether the evidence shows the hook blocking (exit 2, deny, legacy block,
// continue:false, a recorded refusal or blocking error).
func (v AnswerView) Blocked() bool {
	if v.Exit2 || v.a.Refused || v.a.Blocked || v.Decision == "deny" || v.Decision == "block" {
		return true
	}
	return v.Out != nil && v.Out.Continue != nil && !*v.Out.Continue
}

// repairedByAnswer reports whether the answer rewrote the call (updatedInput) or its output
// (updatedToolOutput, or updatedMCPToolOutput for an MCP tool).
func (v AnswerView) repairedByAnswer() bool {
	if v.Out == nil || v.Out.HSO == nil {
		return false
	}
	if v.a.Event == "PostToolUse" {
		return v.updatesOutput()
	}
	return Present(v.Out.HSO.UpdatedInput)
}

func (v AnswerView) updatesOutput() bool {
	h := v.Out.HSO
	return Present(h.UpdatedToolOutput) || strings.HasPrefix(v.a.Tool, "mcp__") && Present(h.UpdatedMCPToolOutput)
}

// checkPre checks one response against the PreToolUse binding.
func (v AnswerView) checkPre(r *Response) []Breach {
	a := v.a
	var bs []Breach
	switch r.Verdict {
	case Repaired:
		if v.Exit2 {
			how := "exited 2"
			if !a.HasExit {
				how = "was refused with exit 2's \"[command]: stderr\" text"
			}
			bs = append(bs, Breach{Check: CheckRepairByExit2, Pointer: "/verdict",
				Message: fmt.Sprintf("gate %q answered repaired but the hook %s, so %s blocked %s and dropped any updatedInput.", r.Gate.ID, how, v.h.Name, CallPhrase(a))})
			break
		}
		if v.Out == nil {
			break // stdout unknown or not JSON: nothing known of updatedInput
		}
		if v.Decision == "allow" {
			bs = append(bs, Breach{Check: CheckRepairWithAllow, Pointer: "/hookSpecificOutput/permissionDecision",
				Message: fmt.Sprintf("gate %q repaired %s and also sent permissionDecision \"allow\", which skips the person's permission settings for the rewritten call.", r.Gate.ID, CallPhrase(a))})
		}
		if v.Out.HSO == nil || !Present(v.Out.HSO.UpdatedInput) {
			bs = append(bs, Breach{Check: CheckRepairNoInput, Pointer: "/hookSpecificOutput/updatedInput",
				Message: fmt.Sprintf("gate %q answered repaired but sent no hookSpecificOutput.updatedInput, so %s ran unchanged.", r.Gate.ID, CallPhrase(a))})
		}
	case Block:
		if v.exit0 && a.HasStdout && !v.Blocked() {
			how := "exited 0 without permissionDecision \"deny\""
			if v.Decision != "" {
				how = fmt.Sprintf("exited 0 with permissionDecision %q", v.Decision)
			}
			bs = append(bs, Breach{Check: CheckBlockLetsThrough, Pointer: "/hookSpecificOutput/permissionDecision",
				Message: fmt.Sprintf("gate %q answered block but the hook %s, so %s was not blocked.", r.Gate.ID, how, CallPhrase(a))})
		}
	}
	return bs
}

// checkPost checks one response against the PostToolUse binding.
func (v AnswerView) checkPost(r *Response) []Breach {
	a := v.a
	if r.Verdict == Repaired && v.Exit2 {
		return []Breach{{Check: CheckRepairNoOutput, Pointer: "/verdict",
			Message: fmt.Sprintf("gate %q answered repaired after %s but the hook exited 2, which only adds its stderr beside the output and sends no hookSpecificOutput.updatedToolOutput, so the model saw the original output.", r.Gate.ID, CallPhrase(a))}}
	}
	if v.Out == nil {
		if !a.HasStdout || !v.exit0 {
			return nil // stdout unknown, or an exit-2 answer: the decision fields cannot be judged
		}
	}
	var bs []Breach
	switch r.Verdict {
	case Repaired:
		if v.Out == nil || v.Out.HSO == nil || !v.updatesOutput() {
			bs = append(bs, Breach{Check: CheckRepairNoOutput, Pointer: "/hookSpecificOutput/updatedToolOutput",
				Message: fmt.Sprintf("gate %q answered repaired after %s but sent no hookSpecificOutput.updatedToolOutput, so the model saw the original output.", r.Gate.ID, CallPhrase(a))})
		}
	case Block:
		if !v.exit0 {
			break
		}
		if v.Out == nil || RawString(v.Out.Decision) != "block" || strings.TrimSpace(RawString(v.Out.Reason)) == "" {
			what := "no top-level decision \"block\""
			if v.Out != nil && RawString(v.Out.Decision) == "block" {
				what = "decision \"block\" with an empty reason"
			}
			bs = append(bs, Breach{Check: CheckPostBlockNoDecision, Pointer: "/decision",
				Message: fmt.Sprintf("gate %q answered block after %s but the hook sent %s, so the model was not told.", r.Gate.ID, CallPhrase(a), what)})
		}
	}
	return bs
}

// checkHeavier reports an answer that blocked or rewrote while the heaviest verdict of its
// responses says less. A repaired verdict that was blocked by exit 2 has its own check.
func (v AnswerView) checkHeavier(rs []*Response) []Breach {
	if len(rs) == 0 {
		return nil
	}
	top := rs[0]
	for _, r := range rs[1:] {
		if r.Verdict.Heavier(top.Verdict) {
			top = r
		}
	}
	if !top.Verdict.Valid() {
		return nil
	}
	a := v.a
	var did string
	switch {
	case v.Blocked() && top.Verdict != Block:
		if top.Verdict == Repaired && v.Exit2 && a.Event == "PreToolUse" {
			return nil // agc/repair-by-exit-2
		}
		did = "blocked"
		if a.Event == "PostToolUse" {
			did = "blocked after"
		}
	case v.repairedByAnswer() && top.Verdict.Weight() < Repaired.Weight():
		did = "rewrote the input of"
		if a.Event == "PostToolUse" {
			did = "replaced the output of"
		}
	default:
		return nil
	}
	return []Breach{{Check: CheckAnswerHeavier, Pointer: "/verdict",
		Message: fmt.Sprintf("Hook %s %s %s, but gate %q answered %s.", HookName(a), did, CallPhrase(a), top.Gate.ID, top.Verdict)}}
}

// checkPostAGC reports a PostToolUse answer that blocked or replaced output with no AGC JSON in
// additionalContext. Judged only when every additionalContext of the hook is known: from its whole
// stdout, or from records the reader marked complete.
func (v AnswerView) checkPostAGC(rs []*Response) []Breach {
	a := v.a
	acted := ""
	switch {
	case v.Out != nil && RawString(v.Out.Decision) == "block":
		acted = "blocked with decision \"block\""
	case v.Exit2 && a.HasExit:
		acted = "blocked with exit 2"
	case v.Out != nil && v.Out.HSO != nil && v.updatesOutput():
		acted = "replaced the tool output"
	case a.Blocked:
		acted = "blocked"
	default:
		return nil
	}
	if !a.HasStdout && !a.ContextComplete || v.badJSON {
		return nil
	}
	what := "no additionalContext"
	for _, c := range v.contexts() {
		found, _, isJSON := FindResponses(c)
		switch {
		case isJSON:
			return nil
		case len(found) > 0:
			what = "only the AGC text form in additionalContext"
		case what == "no additionalContext":
			what = "no AGC JSON in additionalContext"
		}
	}
	return []Breach{{Check: CheckPostNoAGC, Pointer: "/hookSpecificOutput/additionalContext",
		Message: fmt.Sprintf("%s hook %s %s after %s but sent %s, so nobody can tell which gate and rule acted.", v.event, HookName(a), acted, CallPhrase(a), what)}}
}

// unstructured reports a decision the hook made without any AGC response: a block, a rewrite, or
// an ask. Bare additionalContext and plain allows are not reported.
func (v AnswerView) unstructured() *Unstructured {
	a := v.a
	switch {
	case v.Blocked():
		msg := v.Reason
		switch {
		case v.Exit2 && a.HasStderr && strings.TrimSpace(a.Stderr) != "":
			msg = a.Stderr
		case a.Refused && a.RefusalText != "":
			msg = refusalStderr(a)
		case a.Blocked && a.BlockReason != "":
			msg = a.BlockReason
		case msg == "" && v.Out != nil:
			msg = RawString(v.Out.StopReason)
		}
		if strings.TrimSpace(msg) == "" {
			msg = "no reason given"
		}
		what := "blocked"
		if a.Event == "PostToolUse" {
			what = "blocked after"
		}
		return &Unstructured{Verdict: Block, Message: fmt.Sprintf("Hook %s %s %s: %s", HookName(a), what, CallPhrase(a), clip(a.Redact, msg))}
	case v.repairedByAnswer():
		what := "rewrote the input of"
		if a.Event == "PostToolUse" {
			what = "replaced the output of"
		}
		return &Unstructured{Verdict: Repaired, Message: fmt.Sprintf("Hook %s %s %s without an AGC response.", HookName(a), what, CallPhrase(a))}
	case v.Decision == "ask":
		msg := "no reason given"
		if v.Reason != "" {
			msg = clip(a.Redact, v.Reason)
		}
		return &Unstructured{Verdict: Steer, Message: fmt.Sprintf("Hook %s asked the person to approve %s: %s", HookName(a), CallPhrase(a), msg)}
	}
	return nil
}

// failedMessage says which hook failed open, how, and which call went unguarded.
func (v AnswerView) failedMessage(how string) string {
	a := v.a
	switch how {
	case "crashed":
		how = "crashed"
		if strings.Contains(a.Stderr, "Hook JSON output validation failed") {
			how = "answered with JSON that " + v.h.Name + "'s hook schema rejected"
		} else if a.HasExit && a.ExitCode < 0 {
			how = "was ended by a signal before it answered"
		} else if a.HasExit {
			how = fmt.Sprintf("crashed (exit status %d)", a.ExitCode)
		}
	case "timeout":
		how = "timed out"
		switch {
		case a.Limit > 0:
			how = "timed out after " + seconds(a.Limit)
		case a.Ran > 0:
			how = "timed out: " + v.h.Name + " ended it after " + seconds(a.Ran)
		}
	case "cancelled":
		how = "was cancelled"
	case "not-run":
		how = "could not be run"
	}
	after := "went ahead unguarded"
	if a.Event == "PostToolUse" {
		after = "reached the model unchecked"
	}
	msg := fmt.Sprintf("%s hook %s %s, so %s %s.", orDefault(v.event, "The"), HookName(a), how, CallPhrase(a), after)
	if a.HasStderr {
		if s := strings.TrimSpace(strings.TrimPrefix(a.Stderr, "Failed with non-blocking status code: ")); s != "" {
			msg += " stderr: " + clipLine(a.Redact, s)
		}
	}
	return msg
}

// seconds is d as people read a hook's time limit: "3 s", "2.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64) + " s"
}

// HookName names the hook in messages.
func HookName(a HookAnswer) string {
	if a.Hook == "" {
		return "(command unknown)"
	}
	h := a.Hook
	if a.HookShown != "" {
		h = a.HookShown
	}
	// Quoted as written: %q would double every backslash and quote of the configured command.
	return `"` + clipLine(a.Redact, h) + `"`
}

// CallPhrase names the tool call in messages: `the Bash call "git push"`, "the Edit of src/a.go".
// Plain text: GitHub shows message.text as written, so a command is quoted, never in backticks.
func CallPhrase(a HookAnswer) string {
	tool := orDefault(a.Tool, "tool")
	var in map[string]json.RawMessage
	if len(a.ToolInput) > 0 && json.Unmarshal(a.ToolInput, &in) == nil {
		if c := RawString(in["command"]); c != "" {
			return fmt.Sprintf("the %s call \"%s\"", tool, clipLine(a.Redact, c))
		}
		for _, k := range []string{"file_path", "notebook_path", "path"} {
			if p := RawString(in[k]); p != "" {
				if a.ShowPath != nil {
					p = a.ShowPath(p)
				}
				return fmt.Sprintf("the %s call on %s", tool, clip(a.Redact, p))
			}
		}
	}
	if a.Event == "PostToolUse" {
		return fmt.Sprintf("the output of the %s call", tool)
	}
	return fmt.Sprintf("the %s call", tool)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// redactWindow is how much of a text clip redacts before it cuts: far more than any secret, so
// that what the cut keeps was seen whole by the redactor.
const redactWindow = 1 << 20

// redacted is s through red (when set); of a text longer than redactWindow only the start is
// redacted and kept, since a message keeps only the start.
func redacted(red func(string) string, s string) string {
	if red == nil {
		return s
	}
	if len(s) > redactWindow {
		s = s[:runeStart(s, redactWindow)]
	}
	return red(s)
}

// clip redacts s and then shortens it to at most 300 bytes (on a rune boundary) for messages:
// redacting first means no cut leaves most of a token behind.
func clip(red func(string) string, s string) string {
	const max = 300
	s = strings.TrimSpace(redacted(red, s))
	if len(s) <= max {
		return s
	}
	return s[:runeStart(s, max)] + "…"
}

// clipLine is clip of the first line of s, redacted before it is cut to its first line (a private
// key is only seen as one whole).
func clipLine(red func(string) string, s string) string {
	return clip(nil, firstLine(redacted(red, s)))
}

// runeStart is the largest i <= n at which a rune of s starts.
func runeStart(s string, n int) int {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return n
}
