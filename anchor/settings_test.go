package anchor

import "testing"

// TestFindHookThroughRecorder anchors a hook however its records spell it — the hook log's argv
// (after the recorder), the transcript's command as configured — on the one settings line that
// configures it, with or without a recorder, and tells two hooks of one script apart by their
// arguments.
func TestFindHookThroughRecorder(t *testing.T) {
	text := `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "agc-record --log \"$CLAUDE_PROJECT_DIR\"/.agc/hooks.jsonl -- \"$CLAUDE_PROJECT_DIR\"/hooks/gate.py pre-deny"},
        {"type": "command", "command": "env A=1 timeout 20 agc-sarif record -- python3 \"$CLAUDE_PROJECT_DIR\"/hooks/gate.py pre-crash"}
      ]}
    ],
    "PostToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "bash -c 'cd \"$CLAUDE_PROJECT_DIR\" && npx -y @acme/secret-scan@2 --post'"}
      ]}
    ]
  }
}`
	s := parseSettings(".claude/settings.json", text)
	tests := []struct {
		hook, event string
		line        int
	}{
		{`/tmp/p/hooks/gate.py pre-deny`, "PreToolUse", 5},
		{`agc-record --log "$CLAUDE_PROJECT_DIR"/.agc/hooks.jsonl -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py pre-deny`, "PreToolUse", 5},
		{`python3 /tmp/p/hooks/gate.py pre-crash`, "PreToolUse", 6},
		{`/tmp/p/hooks/gate.py pre-crash`, "", 6},
		{`/tmp/p/hooks/gate.py other-mode`, "PreToolUse", 5}, // same program, no better match
		{`secret-scan --post`, "PostToolUse", 11},
		{`/tmp/p/hooks/unknown.sh`, "PreToolUse", 0},
	}
	for _, tt := range tests {
		_, line, ok := findHook([]*settings{s}, tt.hook, tt.event)
		if line != tt.line || ok != (tt.line > 0) {
			t.Errorf("findHook(%q, %q) = line %d, %v; want line %d", tt.hook, tt.event, line, ok, tt.line)
		}
	}
}
