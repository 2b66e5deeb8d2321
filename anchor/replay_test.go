package anchor

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// copyTree copies a folder of test data.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReplayTranscript anchors the findings of a real Claude Code session (see
// testdata/replay/README.md) in a checkout at another path than the one the agent used.
func TestReplayTranscript(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	copyTree(t, "testdata/replay/project", root)
	f, err := os.Open("testdata/replay/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type rec struct {
		Cwd        string          `json:"cwd"`
		Type       string          `json:"type"`
		Attachment json.RawMessage `json:"attachment"`
		Message    struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	calls := map[string]*findings.Call{} // tool_use id → call
	var hookCmd, refusal, refusedID string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r rec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		switch r.Type {
		case "assistant":
			var cs []struct {
				Type, ID, Name string
				Input          json.RawMessage
			}
			if err := json.Unmarshal(r.Message.Content, &cs); err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				if c.Type == "tool_use" {
					calls[c.ID] = &findings.Call{Runtime: "claude-code", Event: "PreToolUse", Tool: c.Name, ToolUseID: c.ID, Cwd: r.Cwd, Input: c.Input}
				}
			}
		case "attachment":
			var a struct {
				Type, Command, ToolUseID string
			}
			if err := json.Unmarshal(r.Attachment, &a); err != nil {
				t.Fatal(err)
			}
			if a.Type == "hook_success" {
				hookCmd = a.Command
				if c := calls[a.ToolUseID]; c != nil {
					c.Hook = a.Command
				}
			}
		case "user":
			var cs []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
				Content   string `json:"content"`
			}
			if err := json.Unmarshal(r.Message.Content, &cs); err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				if c.Type == "tool_result" {
					refusal, refusedID = c.Content, c.ToolUseID
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// "PreToolUse:Bash hook error: [<command as configured>]: <stderr>"
	i, j := strings.Index(refusal, "["), strings.Index(refusal, "]: ")
	if hookCmd == "" || i < 0 || j < i || calls[refusedID] == nil {
		t.Fatalf("records not as expected: hook %q, refusal %q", hookCmd, refusal)
	}
	calls[refusedID].Hook = refusal[i+1 : j]

	a := newAnchorer(t, Options{Root: root})
	var edit, bash *findings.Call
	for _, c := range calls {
		switch c.Tool {
		case "Edit":
			edit = c
		case "Bash":
			bash = c
		}
	}
	got := a.Anchor(findings.Finding{RuleID: "guard/edit-review", Kind: findings.RuntimeGate, Call: edit})
	if *got.Location != (findings.Location{Path: "src/a.go", StartLine: 4}) || got.Anchored != "" {
		t.Errorf("edit anchored at %+v (%q), want src/a.go:4", *got.Location, got.Anchored)
	}
	got = a.Anchor(findings.Finding{RuleID: "guard/no-secrets", Kind: findings.RuntimeGate, Call: bash})
	if *got.Location != (findings.Location{Path: ".claude/settings.json", StartLine: 7}) ||
		got.Anchored != "Anchored to the hook's line in .claude/settings.json: the call touched no file." {
		t.Errorf("bash anchored at %+v (%q), want .claude/settings.json:7", *got.Location, got.Anchored)
	}
}
