package corpus

import (
	"encoding/json"
	"fmt"
	"github.com/agc-sarif/agc-sarif/gates"
)

// gateRule is one rule of a synthetic guard: what it judges and what it says.
type gateRule struct {
	gate, rule, target, tool, message string
}

var gateRules = []gateRule{
	{"workstream-isolation", "main-checkout-access", "Bash.command", "Bash", "the command reaches into the main checkout; it now runs in the workstream."},
	{"secret-guard", "token-in-command", "Bash.command", "Bash", "the command would print an API token to the log."},
	{"test-guard", "skipped-tests", "Edit.file_path", "Edit", "the edit disables a failing test instead of fixing it."},
	{"dep-pin", "outdated-dependency", "Write.content", "Write", "the manifest pins a dependency with a known advisory."},
}

// postRule is the PostToolUse gate that steers after reads.
var postRule = gateRule{"context-guard", "large-read", "Read.file_path", "Read", "the file read is generated; prefer the source it is built from."}

// outcome is how a hook invocation answered, and which binding path it took.
type outcome string

const (
	oPass         outcome = "pass"          // additionalContext with a pass response
	oSteer        outcome = "steer"         // additionalContext with a steer response
	oRepaired     outcome = "repaired"      // updatedInput + repaired response
	oDeny         outcome = "deny"          // permissionDecision deny + block response
	oExit2        outcome = "exit2"         // exit 2 with the text form on stderr
	oRepairAllow  outcome = "repair-allow"  // breach: repair sent with allow
	oBlockThrough outcome = "block-through" // breach: block verdict, call let through
	oCrash        outcome = "crash"         // breach: hook exited 1, failed open
	oPostSteer    outcome = "post-steer"    // PostToolUse steer
	oNone         outcome = "none"          // hook answered nothing (hook logs only)
)

// pickOutcome draws a PreToolUse outcome with the corpus's verdict mix.
func (g *gen) pickOutcome() outcome {
	switch r := g.rng.Float64(); {
	case r < 0.50:
		return oPass
	case r < 0.64:
		return oSteer
	case r < 0.76:
		return oRepaired
	case r < 0.84:
		return oDeny
	case r < 0.90:
		return oExit2
	case r < 0.97:
		return oPostSteer
	case r < 0.98:
		return oRepairAllow
	case r < 0.99:
		return oBlockThrough
	}
	return oCrash
}

// count adds one event of outcome o to the expected findings.
func (g *gen) count(o outcome) {
	if o == oNone {
		return
	}
	g.st.Events++
	switch o {
	case oPass:
		g.st.Passes++
	case oSteer, oPostSteer:
		g.st.Findings["steer"]++
	case oRepaired:
		g.st.Findings["repaired"]++
	case oDeny, oExit2:
		g.st.Findings["block"]++
	case oRepairAllow:
		g.st.Findings["repaired"]++
		g.st.Breaches["agc/repair-with-allow"]++
	case oBlockThrough:
		g.st.Findings["block"]++
		g.st.Breaches["agc/block-lets-call-through"]++
	case oCrash:
		g.st.Breaches["agc/hook-failed-open"]++
	}
}

// verdictOf is the AGC verdict an outcome's response carries.
func verdictOf(o outcome) string {
	switch o {
	case oSteer, oPostSteer:
		return "steer"
	case oRepaired, oRepairAllow:
		return "repaired"
	case oDeny, oExit2, oBlockThrough:
		return "block"
	}
	return "pass"
}

// responseJSON is the AGC response of rule r with verdict v about the call, as JSON text.
func (g *gen) responseJSON(r gateRule, v, event, toolUseID string) string {
	resp := gates.Response{AGC: "0.1", Gate: gates.Gate{ID: r.gate, Kind: gates.Runtime, Version: "1.4.0"}, Verdict: gates.Verdict(v),
		Findings: []gates.Finding{}, At: g.clock.Format("2006-01-02T15:04:05Z"),
		Subject: &gates.Subject{Runtime: "claude-code", Event: event, Tool: r.tool, ToolUseID: toolUseID}}
	if v != "pass" {
		resp.Findings = append(resp.Findings, gates.Finding{Rule: r.rule, Message: "The " + r.message, Target: r.target})
	}
	b, _ := json.Marshal(resp) // fixed types: cannot fail
	return string(b)
}

// textForm is the one-line form of a block by rule r.
func textForm(r gateRule) string {
	return fmt.Sprintf("AGC block: %s/%s/%s — %s", r.gate, r.rule, r.target, r.message)
}

// hookOutput is what a PreToolUse or PostToolUse command hook prints on stdout.
type hookOutput struct {
	Decision string        `json:"decision,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	HSO      hookSpecificO `json:"hookSpecificOutput"`
}

type hookSpecificO struct {
	HookEventName            string         `json:"hookEventName"`
	PermissionDecision       string         `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             map[string]any `json:"updatedInput,omitempty"`
	AdditionalContext        string         `json:"additionalContext,omitempty"`
}

// hookAnswer is one hook invocation's answer: the streams and exit code, plus what the runtime
// records of it.
type hookAnswer struct {
	Stdout, Stderr string
	Exit           int
	Context        string // additionalContext, when any
	Refusal        string // the refusal text after "PreToolUse:<Tool> hook error: ", when refused
}

// hookCommand is the hook as configured in .claude/settings.json.
const hookCommand = `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`

// answer builds the hook's answer for outcome o by rule r on a call with the given input.
func (g *gen) answer(o outcome, r gateRule, event, toolUseID string, input map[string]any) hookAnswer {
	var a hookAnswer
	if o == oNone {
		return a
	}
	if o == oCrash {
		a.Exit = 1
		a.Stderr = "Traceback (most recent call last):\n  File \"scripts/guard.py\", line 41, in <module>\n    cmd = data[\"tool_input\"][\"cmd\"]\nKeyError: 'cmd'\n"
		return a
	}
	a.Context = g.responseJSON(r, verdictOf(o), event, toolUseID)
	if o == oExit2 {
		a.Exit = 2
		a.Stderr = textForm(r) + "\n"
		a.Refusal = "[" + hookCommand + "]: " + a.Stderr
		a.Context = ""
		return a
	}
	out := hookOutput{HSO: hookSpecificO{HookEventName: event, AdditionalContext: a.Context}}
	switch o {
	case oRepaired, oRepairAllow:
		upd := map[string]any{}
		for k, v := range input {
			upd[k] = v
		}
		switch field := r.target[len(r.tool)+1:]; field {
		case "command":
			upd[field] = "cd /home/dev/src/project/.claude/worktrees/ws-1 && git status"
		case "file_path":
			upd[field] = "/home/dev/src/project/.claude/worktrees/ws-1/internal/pkg1/file1.go"
		default:
			upd[field] = "# rewritten by the gate\n" + fmt.Sprint(input[field])
		}
		out.HSO.UpdatedInput = upd
		if o == oRepairAllow {
			out.HSO.PermissionDecision = "allow"
		}
	case oDeny:
		out.HSO.PermissionDecision = "deny"
		out.HSO.PermissionDecisionReason = textForm(r)
		a.Refusal = textForm(r)
	}
	b, _ := json.Marshal(out) // fixed types: cannot fail
	a.Stdout = string(b)
	return a
}
