package inputs

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/secrettest"
	"github.com/agc-sarif/agc-sarif/redact"
)

// texts are every text of the findings and problems of a set.
func texts(set *findings.Set) string {
	var b strings.Builder
	for _, f := range set.Findings {
		fmt.Fprintln(&b, f.Message)
	}
	for _, p := range set.Problems {
		fmt.Fprintln(&b, p.Message)
	}
	return b.String()
}

// TestRedactBeforeCut: a token that straddles a message's cut (the 300 bytes of a hook's stderr
// or command, the 40 bytes of a bad line's preview) is hidden whole; cut first, most of it would
// stay, too short for the redactor to know.
func TestRedactBeforeCut(t *testing.T) {
	tok := secrettest.Join("gh", "p_", secrettest.Fake(300, 36, secrettest.Alnum))
	part := tok[:12] // what a cut through the token would keep, at least
	opts := Options{Registry: testRegistry, IncludeUnstructured: true, Sink: Funcs{Redactf: redact.New(redact.Options{}).String}}
	pad := func(n int) string { return strings.Repeat("x", n) + " " }
	rec := func(cmd, stderr string, exit int) string {
		b, _ := json.Marshal(map[string]any{"time": "2026-11-30T10:00:00Z", "runtime": "claude-code",
			"command": []string{"guard.sh"}, "exit_code": exit, "stdout": "", "stderr": stderr,
			"input": map[string]any{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
				"tool_use_id": "t1", "tool_input": map[string]any{"command": cmd}}})
		return string(b) + "\n"
	}
	cases := map[string]struct {
		name, data string
	}{
		"stderr of a block":   {"hook-log.jsonl", rec("ls", pad(270)+tok, 2)},
		"stderr of a crash":   {"hook-log.jsonl", rec("ls", "Traceback: "+pad(260)+tok, 1)},
		"command of a call":   {"hook-log.jsonl", rec(pad(262)+"--token "+tok, "refused", 2)},
		"bad line of AGC":     {"responses.jsonl", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass"}` + "\nnot json " + tok + "\n"},
		"bad line, at the 40": {"responses.jsonl", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass"}` + "\n" + pad(10) + tok + "\n"},
	}
	for name, c := range cases {
		_, set := readAs(t, c.name, []byte(c.data), opts)
		got := texts(set)
		if strings.Contains(got, part) {
			t.Errorf("%s: part of the token survived the cut:\n%s", name, got)
		}
		if !strings.Contains(got, "[REDACTED") && !strings.Contains(got, "[REDAC") {
			t.Errorf("%s: no redaction where the token stood:\n%s", name, got)
		}
	}
}

// TestSchemaMessagesNeverCut: a schema message quotes an agent's value whole or not at all.
func TestSchemaMessagesNeverCut(t *testing.T) {
	tok := secrettest.Join("gh", "p_", secrettest.Fake(301, 36, secrettest.Alnum))
	data := `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"block because of the token ` + tok + ` found in the call","findings":[]}` + "\n"
	_, set := readAs(t, "responses.jsonl", []byte(data), Options{Registry: testRegistry})
	got := texts(set)
	if strings.Contains(got, tok[:10]) {
		t.Errorf("part of an over-long value was quoted:\n%s", got)
	}
	if !strings.Contains(got, "character value") {
		t.Errorf("the message does not say what the value was:\n%s", got)
	}
}
