package command

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// bindingTestdata is where the real-runtime records of each registered binding are kept.
var bindingTestdata = map[string]string{
	agent.ClaudeCode: "testdata/claude",
	agent.Codex:      "testdata/codex",
	agent.Gemini:     "testdata/gemini",
	agent.Copilot:    "testdata/copilot",
	agent.Qwen:       "testdata/qwen",
	agent.Cline:      "testdata/cline",
	agent.OpenCode:   "testdata/opencode",
	agent.Kilo:       "testdata/kilo",
	agent.Droid:      "testdata/droid",
	agent.Crush:      "testdata/crush",
}

// TestBindingsHaveTestdata: every registered binding has testdata from its real runtime, and
// collecting it reports every check the binding can report.
func TestBindingsHaveTestdata(t *testing.T) {
	for _, b := range runtimes.Bindings() {
		t.Run(b.Runtime(), func(t *testing.T) {
			dir, ok := bindingTestdata[b.Runtime()]
			if !ok {
				t.Fatalf("binding %q has no testdata (add its replays and a line to bindingTestdata)", b.Runtime())
			}
			seen := map[string]bool{}
			for _, r := range goldenRun(t, dir) {
				seen[r.RuleID] = true
			}
			for _, id := range b.Checks() {
				if _, ok := runtimes.Checks().Lookup(id); !ok {
					t.Errorf("binding %q names check %q, which is not in the checks table", b.Runtime(), id)
				}
				if !seen[id] {
					t.Errorf("binding %q: no testdata in %s shows check %s", b.Runtime(), dir, id)
				}
			}
		})
	}
}
