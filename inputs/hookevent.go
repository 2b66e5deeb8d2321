package inputs

import (
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// hookEvent is one hook invocation at a tool call, as any record format tells it.
type hookEvent struct {
	Answer gates.HookAnswer
	Call   findings.Call // runtime, event, tool, tool_use_id, session, hook, command, file path, cwd, input
	Source findings.Source
	Time   string
}

// addHookEvent checks the answer against its binding and adds the findings it yields to set
// (gate findings, contract breaches, and an unstructured decision when opts allow). It reports
// whether any finding was added (new or a duplicate of an event already seen); the caller counts
// the record with set.Use or set.Skip accordingly.
// STUB: replaced by the Claude Code binding work.
func addHookEvent(ev hookEvent, opts Options, set *findings.Set) bool { return false }
