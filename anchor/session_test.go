package anchor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes/claude"
)

const sessionSettings = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "guard.sh"}]
      }
    ]
  }
}
`

// sessionRepo is a checkout whose change (the diff below) added lines 3-4 of src/a.py and all of
// src/b.py; src/c.py is not in the change.
func sessionRepo(t testing.TB) (string, *difffilter.Diff) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, ".claude/settings.json", sessionSettings)
	writeFile(t, root, "src/a.py", "one\ntwo\ndef added():\n    return 42\nfive\n")
	writeFile(t, root, "src/b.py", "new file line one\nnew file line two\n")
	writeFile(t, root, "src/c.py", "old and unchanged line\n")
	diff := "diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,3 +1,5 @@\n one\n two\n+def added():\n+    return 42\n five\n" +
		"diff --git a/src/b.py b/src/b.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/b.py\n@@ -0,0 +1,2 @@\n+new file line one\n+new file line two\n"
	d, err := difffilter.Parse(strings.NewReader(diff))
	if err != nil {
		t.Fatal(err)
	}
	return root, d
}

func editInput(t *testing.T, file, newText string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]string{"file_path": file, "old_string": "x", "new_string": newText})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bashEvent(session, src string, line int, tm string) findings.Finding {
	return findings.Finding{RuleID: "guard/no-rm", Kind: findings.RuntimeGate, Message: "No rm.",
		Call:   &findings.Call{Runtime: "claude-code", Event: "PreToolUse", Tool: "Bash", SessionID: session, Hook: "guard.sh", Command: "rm -rf /"},
		Source: findings.Source{File: src, Line: line}, Time: tm}
}

func TestSessionAnchor(t *testing.T) {
	root, d := sessionRepo(t)
	a := newAnchorer(t, Options{Root: root, Diff: d})
	edits := []struct {
		file, text string
		line       int
		tm         string
		stands     bool
	}{
		{"src/a.py", "def added():\n    return 42", 10, "2026-01-01T10:00:10Z", true},
		{"src/c.py", "old and unchanged line", 20, "2026-01-01T10:00:20Z", false}, // not in the diff
		{"src/b.py", "new file line two", 30, "2026-01-01T10:00:30Z", true},
		{"src/a.py", "not in the file at all", 40, "2026-01-01T10:00:40Z", false},
	}
	for _, e := range edits {
		got := a.AddEdit(Edit{Session: "s1", Source: findings.Source{File: "t.jsonl", Line: e.line}, Time: e.tm,
			Input: editInput(t, filepath.Join(root, e.file), e.text)})
		if got != e.stands {
			t.Errorf("AddEdit(%s %q) = %v, want %v", e.file, e.text, got, e.stands)
		}
	}
	home := ".claude/settings.json:6"
	tests := []struct {
		name string
		ev   findings.Finding
		want string // path:line
		msg  string // part of Anchored
	}{
		{"before any edit: the first after", bashEvent("s1", "t.jsonl", 5, ""), "src/a.py:3", "edit of src/a.py made just after this call"},
		{"after the first edit", bashEvent("s1", "t.jsonl", 25, ""), "src/a.py:3", "edit of src/a.py made just before this call; the call itself touched no file; its hook is configured at " + home},
		{"after the last edit", bashEvent("s1", "t.jsonl", 50, ""), "src/b.py:2", "edit of src/b.py made just before"},
		{"other file: by time", bashEvent("s1", "hooks.jsonl", 1, "2026-01-01T10:00:35Z"), "src/b.py:2", "made just before"},
		{"other file, early time", bashEvent("s1", "hooks.jsonl", 1, "2026-01-01T09:00:00Z"), "src/a.py:3", "made just after"},
		{"other file, no time: the last edit", bashEvent("s1", "hooks.jsonl", 1, ""), "src/b.py:2", "agent's last edit of src/b.py in this session"},
		{"another session keeps the hook's line", bashEvent("s2", "t.jsonl", 25, ""), home, "Anchored to the hook's line"},
		{"no session keeps the hook's line", bashEvent("", "t.jsonl", 25, ""), home, "Anchored to the hook's line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.Anchor(tt.ev)
			if at := got.Location.Path + ":" + itoa(got.Location.StartLine); at != tt.want {
				t.Errorf("anchored at %s, want %s (%s)", at, tt.want, got.Anchored)
			}
			if !strings.Contains(got.Anchored, tt.msg) {
				t.Errorf("Anchored = %q, want it to say %q", got.Anchored, tt.msg)
			}
			wantPlaced := findings.PlacedHook
			if strings.HasPrefix(tt.want, "src/") {
				wantPlaced = findings.PlacedEdit
			}
			if got.Placed != wantPlaced {
				t.Errorf("Placed = %q, want %q", got.Placed, wantPlaced)
			}
			if strings.HasPrefix(tt.want, "src/") {
				if len(got.Related) != 1 || got.Related[0].Path+":"+itoa(got.Related[0].StartLine) != home {
					t.Errorf("related = %+v, want the hook's line %s", got.Related, home)
				}
			} else if len(got.Related) != 0 {
				t.Errorf("related = %+v at the hook's own line", got.Related)
			}
		})
	}
	// An event on a file keeps its place in that file.
	edit := findings.Finding{RuleID: "guard/edit", Kind: findings.RuntimeGate, Source: findings.Source{File: "t.jsonl", Line: 50},
		Call: &findings.Call{Tool: "Edit", SessionID: "s1", Hook: "guard.sh", Input: editInput(t, "src/c.py", "old and unchanged line")}}
	if got := a.Anchor(edit); got.Location.Path != "src/c.py" || got.Location.StartLine != 1 || len(got.Related) != 0 {
		t.Errorf("an edit event moved: %+v %+v", *got.Location, got.Related)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSessionAnchorOff(t *testing.T) {
	root, d := sessionRepo(t)
	for name, opts := range map[string]Options{
		"no diff":     {Root: root},
		"mode config": {Root: root, Diff: d, Session: SessionConfig},
	} {
		t.Run(name, func(t *testing.T) {
			a := newAnchorer(t, opts)
			if a.AddEdit(Edit{Session: "s1", Source: findings.Source{File: "t.jsonl", Line: 1}, Input: editInput(t, "src/b.py", "new file line one")}) {
				t.Error("an edit was recorded")
			}
			got := a.Anchor(bashEvent("s1", "t.jsonl", 5, ""))
			if got.Location.Path != ".claude/settings.json" || got.Location.StartLine != 6 || got.Related != nil {
				t.Errorf("anchored at %+v %+v, want the hook's line", *got.Location, got.Related)
			}
		})
	}
	if _, err := New(Options{Root: root, Session: "beside"}); err == nil {
		t.Error("an unknown session mode was accepted")
	}
}

func TestParseSessionMode(t *testing.T) {
	for in, want := range map[string]SessionMode{"": SessionEdit, "edit": SessionEdit, " Config ": SessionConfig, "x": ""} {
		got, err := ParseSessionMode(in)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("ParseSessionMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestScanEdits reads edits, as the readers hand them over, from the three record shapes: a
// transcript's assistant tool_use, a hook log's edit input (Claude Code's, and Copilot's
// camelCase one), an execution file's array; records that are not edits or not JSON are passed
// over.
func TestScanEdits(t *testing.T) {
	root, d := sessionRepo(t)
	a := newAnchorer(t, Options{Root: root, Diff: d})
	dir := t.TempDir()
	abs := filepath.Join(root, "src/b.py")
	tool := func(name, text string) string {
		in, _ := json.Marshal(map[string]string{"file_path": abs, "content": text})
		return `{"type":"tool_use","id":"t1","name":"` + name + `","input":` + string(in) + `}`
	}
	transcript := strings.Join([]string{
		`{"type":"user","sessionId":"s1","message":{"content":"hello"}}`,
		`not json "Edit"`,
		`{"type":"assistant","sessionId":"s1","timestamp":"2026-01-01T10:00:00Z","message":{"content":[` + tool("Write", "new file line one\nnew file line two\n") + `]}}`,
		`{"type":"assistant","sessionId":"s1","message":{"content":[` + tool("Read", "new file line one") + `]}}`,
		`{"type":"assistant","sessionId":"s1","message":{"content":[` + tool("MultiEdit", "nothing") + `]}}`,
	}, "\n")
	hookInput, _ := json.Marshal(map[string]any{"session_id": "s2", "tool_name": "Edit", "cwd": root,
		"tool_input": map[string]string{"file_path": "src/a.py", "old_string": "x", "new_string": "    return 42"}})
	copilotInput, _ := json.Marshal(map[string]any{"sessionId": "s4", "toolName": "edit", "cwd": root,
		"toolArgs": map[string]string{"path": "src/b.py", "old_str": "x", "new_str": "new file line two"}})
	hookLog := `{"time":"2026-01-01T10:00:00Z","input":` + string(hookInput) + `}` + "\n" + `{"time":"x","input":"not an object"}` +
		"\n" + `{"runtime":"copilot-cli","input":` + string(copilotInput) + `}`
	array := "[\n  {\"type\": \"system\"},\n  {\"type\": \"assistant\", \"session_id\": \"s3\", \"message\": {\"content\": [" + tool("Edit", "new file line two") + "]}}\n]\n"
	for name, text := range map[string]string{"t.jsonl": transcript, "hooks.jsonl": hookLog, "exec.json": array} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]int{"t.jsonl": 1, "hooks.jsonl": 2, "exec.json": 1} {
		format := map[string]inputs.Format{"t.jsonl": claude.Transcript, "hooks.jsonl": inputs.HookLog, "exec.json": claude.StreamJSON}[name]
		n, err := readEdits(context.Background(), a, format, name, filepath.Join(dir, name))
		if err != nil || n != want {
			t.Errorf("reading the edits of %s = %d, %v; want %d", name, n, err, want)
		}
	}
	for session, want := range map[string]string{"s1": "src/b.py:1", "s2": "src/a.py:4", "s3": "src/b.py:2", "s4": "src/b.py:2"} {
		got := a.Anchor(bashEvent(session, "other.jsonl", 1, ""))
		if at := got.Location.Path + ":" + itoa(got.Location.StartLine); at != want {
			t.Errorf("session %s anchored at %s, want %s", session, at, want)
		}
	}
	if got := a.edits.of("s3"); len(got) != 1 || got[0].srcLine != 3 {
		t.Errorf("array record line = %+v, want 3", got)
	}
}

// TestAddEditOtherRuntimes: an edit tool of another runtime is read with that runtime's binding
// (Copilot's edit names its file "path" and its text "new_str"), not with Claude Code's keys.
func TestAddEditOtherRuntimes(t *testing.T) {
	root, d := sessionRepo(t)
	a := newAnchorer(t, Options{Root: root, Diff: d})
	for _, e := range []Edit{
		{Tool: "edit", Input: []byte(`{"path":"src/a.py","old_str":"x","new_str":"def added():"}`)},
		{Tool: "create", Input: []byte(`{"path":"src/b.py","file_text":"new file line one"}`)},
		{Tool: "replace", Input: []byte(`{"file_path":"src/a.py","old_string":"x","new_string":"    return 42"}`)},
	} {
		e.Session, e.Source = "s1", findings.Source{File: "t.jsonl", Line: 1}
		if !a.AddEdit(e) {
			t.Errorf("%s edit %s was not recorded", e.Tool, e.Input)
		}
	}
}
