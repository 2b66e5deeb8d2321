// Package crush is the Crush binding: PreToolUse command hooks in crush.json (hooks.PreToolUse,
// no other event), answered with Claude Code's hookSpecificOutput or Crush's own envelope
// (decision, reason, context, updated_input, halt), as Crush 0.90.0 reads them
// (docs/runtimes-crush.md): a deny or exit 2 blocks (a context beside a deny is dropped), exit 49
// and halt: true block and end the turn, updated_input is merged into the input and a context
// reaches the model; a top-level decision "block", a reason without a deny, other exits and
// invalid JSON change nothing. Its hook input names no call, so its events are keyed by order.
package crush

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Binding is the Crush binding.
type Binding struct{}

// name is Crush's name as messages spell it.
const name = "Crush"

// version is the Crush build the binding's effects were observed with.
const version = "0.90.0"

// exitHalt is the exit status with which a hook halts the turn.
const exitHalt = 49

func (Binding) Runtime() string { return agent.Crush }

func (Binding) Events() []string { return []string{"PreToolUse"} }

// Checks are Crush's own checks, the shared ones that hold for its answers, and a hook that
// failed open.
func (Binding) Checks() []string {
	return []string{CheckAnswerIgnored, CheckDenyDropsContext,
		gates.CheckRepairWithAllow, gates.CheckRepairByExit2, gates.CheckAnswerHeavier, gates.CheckHookFailedOpen}
}

func (Binding) CallFields() []string { return []string{"command", "file_path"} }

// EditTools: write was verified (testdata/crush); edit and multiedit are its other writers.
func (Binding) EditTools() []string { return []string{"write", "edit", "multiedit"} }

func (Binding) ConfigFiles() []string { return []string{"crush.json", ".crush.json"} }

// CommandKeys: "command" under hooks → event → [ {name, matcher, command} ].
func (Binding) CommandKeys() []gates.CommandKey {
	return []gates.CommandKey{{Key: "command", Depth: 3}}
}

// KeysCallsByOrder: Crush's hook input names no call.
func (Binding) KeysCallsByOrder() bool { return true }

// hookStdin is Crush's hook stdin: Claude Code's fields but "event" for hook_event_name.
type hookStdin struct {
	Event     string          `json:"event"`
	Tool      string          `json:"tool_name"`
	Input     json.RawMessage `json:"tool_input"`
	SessionID string          `json:"session_id"`
	Cwd       string          `json:"cwd"`
}

// HookInput reads Crush's stdin, whose event is "event".
func (Binding) HookInput(stdin []byte) (gates.HookCall, bool) {
	var in hookStdin
	if json.Unmarshal(stdin, &in) != nil || in.Event == "" {
		return gates.HookCall{}, false
	}
	c := gates.HookCall{Event: in.Event, Tool: in.Tool, SessionID: in.SessionID, Cwd: in.Cwd}
	if gates.Present(in.Input) {
		c.Input = in.Input
	}
	return c, true
}

// ToolCall reads bash's command, the file of write, edit, multiedit and view (file_path), and
// the texts write (content) and edit (new_string) wrote. An empty tool reads file_path.
func (b Binding) ToolCall(tool string, input json.RawMessage) gates.ToolCall {
	var in toolInput
	if len(input) == 0 || json.Unmarshal(input, &in) != nil {
		return gates.ToolCall{}
	}
	var tc gates.ToolCall
	tc.Command, tc.FilePath = in.names(tool)
	switch tool {
	case "write", "edit", "":
		for _, s := range []string{gates.RawString(in.Content), gates.RawString(in.NewString)} {
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

type toolInput struct {
	Command   json.RawMessage `json:"command"`
	FilePath  json.RawMessage `json:"file_path"`
	Content   json.RawMessage `json:"content"`
	NewString json.RawMessage `json:"new_string"`
}

func (in toolInput) names(tool string) (command, filePath string) {
	switch tool {
	case "bash":
		command = gates.RawString(in.Command)
	case "write", "edit", "multiedit", "view", "":
		filePath = gates.RawString(in.FilePath)
	}
	return command, filePath
}

// output is a hook's stdout JSON as Crush reads it: Claude Code's hookSpecificOutput when present
// (its top-level fields then unread), else Crush's envelope.
type output struct {
	Decision     json.RawMessage `json:"decision"`
	Reason       json.RawMessage `json:"reason"`
	Context      json.RawMessage `json:"context"` // a string or a list of strings
	UpdatedInput json.RawMessage `json:"updated_input"`
	Halt         bool            `json:"halt"`
	HSO          *struct {
		PermissionDecision       json.RawMessage `json:"permissionDecision"`
		PermissionDecisionReason json.RawMessage `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        json.RawMessage `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// decodeOutput reads s as a hook answer; nil when it is not a JSON object Crush reads.
func decodeOutput(s string) *output {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") {
		return nil
	}
	var o output
	if json.Unmarshal([]byte(t), &o) != nil {
		return nil
	}
	return &o
}

// answer is what Crush takes from o: decision, reason, context, rewrite, halt.
type answer struct {
	decision, reason, context string
	rewrite                   json.RawMessage
	halt                      bool
	hso                       bool // read from hookSpecificOutput
}

func (o *output) answer() answer {
	if o.HSO != nil {
		a := answer{decision: gates.RawString(o.HSO.PermissionDecision), reason: gates.RawString(o.HSO.PermissionDecisionReason),
			context: gates.RawString(o.HSO.AdditionalContext), hso: true}
		if gates.Present(o.HSO.UpdatedInput) {
			a.rewrite = o.HSO.UpdatedInput
		}
		return a
	}
	a := answer{decision: gates.RawString(o.Decision), reason: gates.RawString(o.Reason), context: contextText(o.Context), halt: o.Halt}
	if gates.Present(o.UpdatedInput) {
		a.rewrite = o.UpdatedInput
	}
	return a
}

// contextText is Crush's context field: a string, or a list of strings joined by new lines.
func contextText(raw json.RawMessage) string {
	if s := gates.RawString(raw); s != "" {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, "\n")
	}
	return ""
}

// acts says Crush acts on the decision d: allow, deny or none; anything else is ignored.
func acts(d string) bool { return d == "" || d == "allow" || d == "deny" }

// effect is the answer as Crush acts on it, in the shape of the shared checks: a deny (or a
// halt, as continue: false) with its reason; the context unless the call was denied or halted
// (Crush drops it then); the rewrite; no decision Crush does not read.
func (a answer) effect() *gates.HookOutput {
	h := &gates.HookOutput{HSO: &gates.HookSpecific{}}
	str := func(s string) json.RawMessage {
		if s == "" {
			return nil
		}
		b, _ := json.Marshal(s)
		return b
	}
	stopped := a.decision == "deny" || a.halt
	if a.halt {
		f := false
		h.Continue, h.StopReason, h.Reason = &f, str(a.reason), str(a.reason)
	}
	if acts(a.decision) {
		h.HSO.PermissionDecision = str(a.decision)
		if a.decision == "deny" {
			h.HSO.PermissionDecisionReason = str(a.reason)
		}
	}
	if !stopped {
		h.HSO.AdditionalContext = str(a.context)
		h.HSO.UpdatedInput = a.rewrite
	}
	return h
}

var host = gates.Host{Name: name}

// CheckHook checks the answer as Crush acts on it. Exit 49 is a block that halts the turn (read
// as exit 2's block, stderr the reason), never a crash.
func (b Binding) CheckHook(a gates.HookAnswer) gates.HookResult {
	var out *output
	if a.HasStdout && !(a.HasExit && a.ExitCode != 0) {
		out = decodeOutput(a.Stdout)
	}
	eff := a
	if a.Failed == "" && a.HasExit && a.ExitCode == exitHalt {
		eff.ExitCode = 2
	}
	var effOut *gates.HookOutput
	var ans answer
	if out != nil {
		ans = out.answer()
		effOut = ans.effect()
	}
	res := gates.CheckAnswer(eff, host, effOut)
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.HoldsFor(b))
	if !a.HasExit {
		// The answer as Crush's store keeps it: a deny and exit 2 look alike there, so no check
		// of how the hook blocked holds; the recorder's log tells it.
		res.Breaches = gates.KeepBreaches(res.Breaches, func(id string) bool { return id != gates.CheckAnswerHeavier && id != gates.CheckRepairByExit2 })
	}
	if res.Decision == "failed" || out == nil || a.Event != "PreToolUse" {
		return res
	}
	if !acts(ans.decision) || ans.decision == "" && !ans.halt && ans.reason != "" && !ans.hso {
		what := fmt.Sprintf("the decision %q", ans.decision)
		if acts(ans.decision) {
			what = "a reason without a deny"
		}
		res.Breaches = append(res.Breaches, gates.Breach{Check: CheckAnswerIgnored, Pointer: "/decision",
			Message: fmt.Sprintf("Hook %s answered %s, which %s ignores: %s ran. %s blocks only with decision \"deny\", halt, exit 2 or exit 49.", gates.HookName(a), what, name, gates.CallPhrase(a), name)})
	}
	if ans.decision == "deny" || ans.halt {
		ctxRs, _, _ := gates.FindResponses(ans.context)
		if inReason, _, _ := gates.FindResponses(ans.reason); len(ctxRs) > 0 && len(inReason) == 0 {
			res.Breaches = append(res.Breaches, gates.Breach{Check: CheckDenyDropsContext, Pointer: "/context",
				Message: fmt.Sprintf("gate %q denied %s with its AGC response in the context, which %s drops on a deny: the model got only the reason.", ctxRs[0].Gate.ID, gates.CallPhrase(a), name)})
		}
	}
	return res
}
