package gates

import (
	"strings"
	"testing"
	"time"
)

// TestAnswerForm reads each answer's form as the effect tables name it, and whether it came
// after the call.
func TestAnswerForm(t *testing.T) {
	block := agcJSON("block", "g", "runtime")
	repaired := agcJSON("repaired", "g", "runtime")
	exit2 := pre(2, "")
	exit2.Stderr = block
	postExit2 := post("")
	postExit2.ExitCode, postExit2.Stderr = 2, repaired
	crash := pre(1, "")
	timeout := pre(-1, "")
	timeout.Failed = "timeout"
	tests := []struct {
		name  string
		a     HookAnswer
		want  Answer
		after bool
	}{
		{"deny", pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"})), AnswerDeny, false},
		{"allow beside a block", pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "additionalContext": block})), AnswerContext, false},
		{"exit 2", exit2, AnswerExit2, false},
		{"rewrite", pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "updatedInput": map[string]string{"command": "ls"}})), AnswerRewrite, false},
		{"rewrite with allow", pre(0, hookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": map[string]string{"command": "ls"}})), AnswerRewriteAllow, false},
		{"halt", pre(0, hookJSON(map[string]any{"continue": false}, nil)), AnswerHalt, false},
		{"crash", crash, AnswerCrash, false},
		{"timeout", timeout, AnswerTimeout, false},
		{"invalid JSON", pre(0, "{not json"), AnswerInvalidJSON, false},
		{"no decision", pre(0, ""), AnswerNone, false},
		{"nothing known of the answer", HookAnswer{Event: "PreToolUse", Tool: "Bash"}, "", false},
		{"post exit 2", postExit2, AnswerPostBlock, true},
		{"post replace", post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "updatedToolOutput": "x", "additionalContext": repaired})), AnswerPostReplace, true},
		{"post context", post(hookJSON(nil, map[string]any{"hookEventName": "PostToolUse", "additionalContext": "note"})), AnswerPostContext, true},
	}
	for _, tc := range tests {
		res := CheckClaudeHook(tc.a)
		if res.Answer != tc.want || res.After != tc.after {
			t.Errorf("%s: answer %q after %v, want %q %v", tc.name, res.Answer, res.After, tc.want, tc.after)
		}
	}
}

// TestPostExit2RepairIsABreach: a PostToolUse hook that exits 2 with a repaired response sends
// no updatedToolOutput; the model saw the original output, and the check says so.
func TestPostExit2RepairIsABreach(t *testing.T) {
	a := post("")
	a.ExitCode, a.Stderr = 2, agcJSON("repaired", "g", "runtime")
	res := CheckClaudeHook(a)
	if !HasCheck(res.Breaches, CheckRepairNoOutput) {
		t.Fatalf("breaches %+v, want %s", res.Breaches, CheckRepairNoOutput)
	}
}

// TestTimeoutWording: a timeout is worded as one, with the limit when the record names it, else
// how long the hook ran; never as a crash.
func TestTimeoutWording(t *testing.T) {
	for _, tc := range []struct {
		limit, ran time.Duration
		want       string
	}{
		{3 * time.Second, 0, "timed out after 3 s"},
		{0, 2011 * time.Millisecond, "timed out: Claude Code ended it after 2 s"},
		{0, 0, "timed out, so"},
	} {
		a := pre(-1, "")
		a.Failed, a.Limit, a.Ran = "timeout", tc.limit, tc.ran
		res := CheckClaudeHook(a)
		if len(res.Breaches) != 1 || !strings.Contains(res.Breaches[0].Message, tc.want) || strings.Contains(res.Breaches[0].Message, "crashed") {
			t.Errorf("limit %v ran %v: %+v, want %q", tc.limit, tc.ran, res.Breaches, tc.want)
		}
	}
}
