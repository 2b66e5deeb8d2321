package anchor

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
)

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
	s := parseSettings(".claude/settings.json", "", text)
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

// TestFindHookCopilot finds a hook in Copilot CLI's .github/hooks file, whose entries sit right
// under the event and name their command "bash" (or "powershell"), not Claude Code's
// matcher → hooks → "command".
func TestFindHookCopilot(t *testing.T) {
	text := `{"version": 1, "hooks": {
  "preToolUse": [{"type": "command", "bash": ".github/hooks/agc-sarif record --log hook-log.jsonl -- python3 .github/hooks/guard.py", "timeoutSec": 30}],
  "postToolUse": [
    {"type": "command", "powershell": "./post.ps1"}
  ]
}}`
	s := parseSettings(".github/hooks/agc.json", agent.Copilot, text)
	for _, tt := range []struct {
		hook, event string
		line        int
	}{
		{"python3 .github/hooks/guard.py", "preToolUse", 2},
		{"./post.ps1", "postToolUse", 4},
	} {
		if _, line, ok := findHook([]*settings{s}, tt.hook, tt.event); !ok || line != tt.line {
			t.Errorf("findHook(%q, %q) = line %d, %v; want line %d", tt.hook, tt.event, line, ok, tt.line)
		}
	}
}

// TestFindHookGeminiName finds a Gemini CLI hook by the name its telemetry gives it, whether
// "name" stands before or after "command".
func TestFindHookGeminiName(t *testing.T) {
	text := `{"hooks": {
  "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
    {"type": "command", "name": "agc-guard", "command": "python3 guard.py"},
    {"type": "command", "command": "python3 other.py",
     "name": "late-name"}]}],
  "AfterTool": [{"hooks": [{"name": "after", "type": "command", "command": "./after.sh"}]}]
}}`
	s := parseSettings(".gemini/settings.json", agent.Gemini, text)
	for _, tt := range []struct {
		hook, event string
		line        int
		ok          bool
	}{
		{"agc-guard", "BeforeTool", 3, true},
		{"late-name", "BeforeTool", 4, true},
		{"after", "AfterTool", 6, true},
		{"no-such-hook", "BeforeTool", 0, false},
	} {
		if _, line, ok := findHook([]*settings{s}, tt.hook, tt.event); ok != tt.ok || line != tt.line {
			t.Errorf("findHook(%q, %q) = line %d, %v; want line %d, %v", tt.hook, tt.event, line, ok, tt.line, tt.ok)
		}
	}
}

// TestParseScriptSettings: a hook file named after its event (Cline's .clinerules/hooks/PreToolUse)
// is read as a script: each command line is a hook command of that event, comments are not.
func TestParseScriptSettings(t *testing.T) {
	text := "#!/usr/bin/env bash\n# a guard\nexec agc-record --log \"$PWD/.agc/hook-log.jsonl\" -- python3 \"$PWD/.clinerules/hooks/guard.py\"\n"
	s := parseSettings(".clinerules/hooks/PreToolUse", "cline", text)
	if s.hooksLine != 3 || len(s.commands) != 1 || s.commands[0].event != "PreToolUse" || s.commands[0].line != 3 {
		t.Fatalf("script settings: %+v", s)
	}
	if _, line, ok := findHook([]*settings{s}, "python3 /p/.clinerules/hooks/guard.py", "PreToolUse"); !ok || line != 3 {
		t.Errorf("findHook: line %d, %v", line, ok)
	}
	if s := parseSettings(".clinerules/hooks/guard.py", "cline", "import json\n"); len(s.commands) != 0 || s.hooksLine != 0 {
		t.Errorf("a file not named after an event is no settings: %+v", s)
	}
}

// TestParsePluginFile: a JavaScript plugin among a runtime's config files names no command but
// declares the runtime's events at its first line.
func TestParsePluginFile(t *testing.T) {
	s := parseSettings(".opencode/plugins/guard.js", "opencode", "// a guard\nexport const G = async () => ({})\n")
	if s.hooksLine != 1 || !s.declares("PreToolUse") {
		t.Fatalf("plugin file: %+v", s)
	}
	if _, _, ok := findHook([]*settings{s}, "python3 guard.py", "PreToolUse"); ok {
		t.Error("a plugin file matched a hook command")
	}
}

// TestFindHookDroid finds a hook in Factory Droid's .factory/hooks.json, whose events stand at
// the top level (no "hooks" object), and in its settings.json's Claude-shaped "hooks".
func TestFindHookDroid(t *testing.T) {
	text := `{
  "PreToolUse": [{"matcher": "Execute|Create", "hooks": [{"type": "command", "timeout": 30,
    "command": "\"$FACTORY_PROJECT_DIR\"/.factory/hooks/agc-record --log hook-log.jsonl -- python3 \"$FACTORY_PROJECT_DIR\"/.factory/hooks/guard.py"}]}],
  "PostToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "./post.sh"}]}]
}`
	s := parseSettings(".factory/hooks.json", agent.Droid, text)
	for _, tt := range []struct {
		hook, event string
		line        int
	}{
		{`python3 "$FACTORY_PROJECT_DIR"/.factory/hooks/guard.py`, "PreToolUse", 3},
		{"./post.sh", "PostToolUse", 4},
	} {
		if _, line, ok := findHook([]*settings{s}, tt.hook, tt.event); !ok || line != tt.line {
			t.Errorf("findHook(%q, %q) = line %d, %v; want line %d", tt.hook, tt.event, line, ok, tt.line)
		}
	}
	// The same text as another file of Droid's is not read at the top level.
	if s := parseSettings(".factory/settings.json", agent.Droid, text); len(s.commands) != 0 {
		t.Errorf("settings.json read %d commands outside \"hooks\"", len(s.commands))
	}
	claude := `{"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "./pre.sh"}]}]}}`
	if s := parseSettings(".factory/settings.json", agent.Droid, claude); len(s.commands) != 1 || s.commands[0].event != "PreToolUse" {
		t.Errorf("settings.json hooks: %+v", s.commands)
	}
}

// TestFindHookCrush finds a hook in Crush's crush.json, whose entries stand right under the
// event with their name, matcher and command.
func TestFindHookCrush(t *testing.T) {
	text := `{
  "hooks": {
    "PreToolUse": [
      {"name": "ship-guard", "matcher": "^(bash|write)$",
       "command": "\"$CRUSH_PROJECT_DIR\"/hooks/agc-record --log hook-log.jsonl -- python3 \"$CRUSH_PROJECT_DIR\"/hooks/guard.py"}
    ]
  }
}`
	s := parseSettings("crush.json", agent.Crush, text)
	for _, hook := range []string{`python3 "$CRUSH_PROJECT_DIR"/hooks/guard.py`, "ship-guard"} {
		if _, line, ok := findHook([]*settings{s}, hook, "PreToolUse"); !ok || line != 5 {
			t.Errorf("findHook(%q) = line %d, %v; want line 5", hook, line, ok)
		}
	}
}
