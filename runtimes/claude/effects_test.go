package claude

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// TestEffectsAgreeWithReplays reads, for each effect row whose evidence is a replay of
// testdata/claude, what the real Claude Code told the model of the scenario's first call: a
// refusal by the hook ("PreToolUse:<Tool> hook error") when the table says the call did not
// run, the call's own result otherwise.
func TestEffectsAgreeWithReplays(t *testing.T) {
	for _, r := range effects {
		if !strings.HasPrefix(r.Evidence, "testdata/claude/") {
			continue
		}
		t.Run(string(r.Answer), func(t *testing.T) {
			refused, ok := firstResultRefused(t, filepath.Join("..", "..", r.Evidence, "session.jsonl"))
			if !ok {
				t.Fatalf("%s: the transcript holds no tool result", r.Evidence)
			}
			if want := r.Effect == gates.EffectNotRun || r.Effect == gates.EffectHalted; refused != want {
				t.Errorf("%s: the runtime refused the call: %v; the table says %s", r.Evidence, refused, r.Effect)
			}
		})
	}
}

// firstResultRefused reports whether the transcript's first tool result is a PreToolUse hook's
// refusal.
func firstResultRefused(t *testing.T, path string) (refused, ok bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Type != "user" {
			continue
		}
		var blocks []struct {
			Type    string          `json:"type"`
			IsError bool            `json:"is_error"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(rec.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				return b.IsError && strings.Contains(string(b.Content), "PreToolUse:") && strings.Contains(string(b.Content), "hook error"), true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return false, false
}
