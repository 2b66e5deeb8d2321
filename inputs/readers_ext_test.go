package inputs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/inputs/inputstest"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// These tests read through the registry and check with inputstest, as the runtimes' readers'
// tests do: the package's own tests cannot import inputstest, which imports the package.

// fence is a backtick fence, kept out of line starts in this source (see gates/judgment_test.go).
const fence = "```"

// reviewAnswer is a reviewer's AGC response.
const reviewAnswer = `{"agc": "0.1", "gate": {"id": "code-review", "kind": "judgment"}, "verdict": "block", "findings": [
 {"rule": "sql-injection", "message": "Query built from the request.", "location": {"path": "src/db.go", "line": 12}}]}`

// FuzzHookLog: the recorder's log reader keeps every reader's promises on any bytes.
func FuzzHookLog(f *testing.F) {
	reg := runtimes.Inputs()
	hookLog, err := reg.ReaderFor(inputs.HookLog)
	if err != nil {
		f.Fatal(err)
	}
	if seeds, _ := filepath.Glob("../testdata/claude/*/hook-log.jsonl"); len(seeds) > 0 {
		for _, s := range seeds[:3] {
			if b, err := os.ReadFile(s); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"command":["a"],"exit_code":2,"stdout":"{\"decision\":\"block\"}","stderr":"x","input":{"hook_event_name":"PostToolUse"}}`))
	f.Add([]byte(`{"command":["a"],"exit_code":2,"stdout":"","stderr":"x","input":"eyJob29rX2V2ZW50X25hbWUiOiJQcmVUb29sVXNlIn0=","input_encoding":"base64"}`))
	f.Add([]byte(`{"command":["a"],"exit_code":0,"stdout":"{","stderr":"","input":"{\"hook_event_name\":\"Pre","input_cut":{"kept":30,"size":99,"sha256":"ab"},"stdout_cut":{"kept":1,"size":9,"sha256":"cd"}}`))
	f.Fuzz(func(t *testing.T, data []byte) { inputstest.ReadFuzzed(t, reg, hookLog, data) })
}

// TestFinalMessageQuotingAGCBlock: a run's final message that only shows an agc block inside
// another fenced block (an example) is no judgment: no fail-closed breach, skipped as holding none.
func TestFinalMessageQuotingAGCBlock(t *testing.T) {
	reg := runtimes.Inputs()
	stream, err := reg.ReaderFor("stream-json")
	if err != nil {
		t.Fatal(err)
	}
	text := "A reviewer answers like this:\n\n````markdown\n" + fence + "agc\n" + reviewAnswer + "\n" + fence + "\n````\n"
	line, err := json.Marshal(map[string]any{"type": "result", "subtype": "success", "result": text, "session_id": "S"})
	if err != nil {
		t.Fatal(err)
	}
	set := inputstest.ReadFuzzed(t, reg, stream, append(line, '\n'))
	if len(set.Findings) != 0 || set.Skips[inputs.SkipNoAGCBlock] != 1 {
		t.Errorf("findings %+v skips %v, want none and one %q", set.Findings, set.Skips, inputs.SkipNoAGCBlock)
	}
}
