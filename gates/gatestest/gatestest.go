// Package gatestest builds hook answers and AGC responses for the tests of the runtime bindings.
package gatestest

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// AGCJSON builds an AGC response with one finding, as a gate would send it.
func AGCJSON(verdict, gate, kind string) string {
	b, _ := json.Marshal(map[string]any{
		"agc": "0.1", "gate": map[string]string{"id": gate, "kind": kind}, "verdict": verdict,
		"findings": []map[string]string{{"rule": "r1", "message": "m", "target": "Bash.command"}},
	})
	return string(b)
}

// HookJSON builds a hook's stdout: top-level fields plus hookSpecificOutput.
func HookJSON(top map[string]any, hso map[string]any) string {
	m := map[string]any{}
	for k, v := range top {
		m[k] = v
	}
	if hso != nil {
		m["hookSpecificOutput"] = hso
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// BashInput is the tool input of the answers Pre and Post build.
var BashInput = json.RawMessage(`{"command":"git push --force"}`)

// Pre is a PreToolUse answer of hook /h/guard.sh for a Bash call, with its exit status and stdout.
func Pre(exit int, stdout string) gates.HookAnswer {
	return gates.HookAnswer{Event: "PreToolUse", Tool: "Bash", Hook: "/h/guard.sh", HasExit: true, ExitCode: exit,
		HasStdout: true, Stdout: stdout, HasStderr: true, ToolInput: BashInput}
}

// Post is Pre's answer under PostToolUse, exit 0.
func Post(stdout string) gates.HookAnswer {
	a := Pre(0, stdout)
	a.Event = "PostToolUse"
	return a
}

// CheckBreaches runs b's CheckHook on a and fails unless its breaches are exactly want (sorted),
// each with a message and each a check b lists or one that holds for any runtime.
func CheckBreaches(t *testing.T, b gates.Binding, a gates.HookAnswer, want []string) gates.HookResult {
	t.Helper()
	res := b.CheckHook(a)
	var got []string
	for _, br := range res.Breaches {
		got = append(got, br.Check)
		if br.Message == "" {
			t.Errorf("breach %s has no message", br.Check)
		}
		if !gates.HoldsFor(b)(br.Check) {
			t.Errorf("breach %s is not a check %s lists", br.Check, b.Runtime())
		}
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("breaches %v, want %v", got, want)
	}
	return res
}
