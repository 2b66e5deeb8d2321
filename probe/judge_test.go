package probe

import (
	"slices"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// TestJudge: each kind of run gets its rule, and only it.
func TestJudge(t *testing.T) {
	rt := runtimes.Default().Runtime()
	pre := runtimes.Default().Events()[0]
	real := Case{Runtime: rt, Event: pre, Name: "Bash", Stdin: []byte(`{}`)}
	hostile := Case{Runtime: rt, Event: pre, Name: "not JSON", Hostile: true}
	agcDeny := `{"hookSpecificOutput":{"hookEventName":"` + pre + `","permissionDecision":"deny","permissionDecisionReason":"AGC block: g/r — no",` +
		`"additionalContext":"{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"block\",\"findings\":[{\"rule\":\"r\",\"message\":\"no\"}]}"}}`
	tests := []struct {
		name string
		c    Case
		r    Run
		want []string
	}{
		{"silent exit 0", real, Run{}, nil},
		{"a block in AGC", real, Run{Stdout: []byte(agcDeny)}, nil},
		{"killed", real, Run{TimedOut: true, Exit: -1}, []string{RuleHang}},
		{"exit 1", real, Run{Exit: 1}, []string{RuleCrash}},
		{"traceback on exit 0", hostile, Run{Stderr: []byte("Traceback (most recent call last):\n  File \"g.py\"\nKeyError: 'x'\n")}, []string{RuleCrash}},
		{"go panic", real, Run{Exit: 2, Stderr: []byte("panic: boom\n\ngoroutine 1 [running]:\n")}, []string{RuleCrash}},
		{"progress line", real, Run{Stdout: []byte("checking...\n")}, []string{RuleStdoutNotJSON}},
		{"progress line, hostile", hostile, Run{Stdout: []byte("checking...\n")}, []string{RuleStdoutNotJSON}},
		{"exit 2 on hostile input", hostile, Run{Exit: 2, Stderr: []byte("bad input")}, []string{RuleFailsClosed}},
		{"deny on hostile input", hostile, Run{Stdout: []byte(agcDeny)}, []string{RuleFailsClosed}},
		{"bare deny", real, Run{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + pre + `","permissionDecision":"deny","permissionDecisionReason":"no"}}`)}, []string{RuleNoAGC}},
		{"plain exit 2", real, Run{Exit: 2, Stderr: []byte("no")}, []string{RuleNoAGC}},
		{"repair with allow", real, Run{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + pre + `","permissionDecision":"allow","updatedInput":{"command":"ls"},` +
			`"additionalContext":"{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"repaired\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}"}}`)},
			[]string{gates.CheckRepairWithAllow}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Judge(tt.c, tt.r, "guard") {
				got = append(got, f.Rule)
				if f.Message == "" || f.Did == "" {
					t.Errorf("%s: no message or no account of what the guard did", f.Rule)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("rules %v, want %v", got, tt.want)
			}
		})
	}
}

// TestChanges: an answer compared with itself has no changes; each field that differs is named
// before → after.
func TestChanges(t *testing.T) {
	rt := runtimes.Default().Runtime()
	c := Case{Runtime: rt, Event: runtimes.Default().Events()[0], Name: "Bash"}
	steer := Run{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"` + c.Event + `","additionalContext":"{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"steer\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}"}}`)}
	if d := Changes(c, steer, steer); len(d) != 0 {
		t.Errorf("changes of an answer against itself: %v", d)
	}
	want := []string{"exit status 0 → 2", "verdict steer → none", "decision context → block"}
	if d := Changes(c, steer, Run{Exit: 2, Stderr: []byte("no")}); !slices.Equal(d, want) {
		t.Errorf("changes %q, want %q", d, want)
	}
}
