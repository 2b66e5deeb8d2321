package runtimes

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/gates/gatestest"
)

func TestBindingFor(t *testing.T) {
	if For("").Runtime() != agent.ClaudeCode || For(agent.Codex).Runtime() != agent.Codex {
		t.Fatal("registered bindings not found by runtime id")
	}
	u := For("cursor")
	if u.Runtime() != "cursor" {
		t.Fatalf("unbound runtime named %q", u.Runtime())
	}
	// A Claude-only breach is not held against a runtime without a binding.
	a := gatestest.Pre(0, gatestest.HookJSON(nil, map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow",
		"updatedInput": map[string]any{"command": "x"}, "additionalContext": gatestest.AGCJSON("repaired", "ws", "runtime")}))
	if bs := u.CheckHook(a).Breaches; len(bs) != 0 {
		t.Errorf("unbound runtime got breaches %v", bs)
	}
	if bs := For(agent.ClaudeCode).CheckHook(a).Breaches; len(bs) != 1 || bs[0].Check != gates.CheckRepairWithAllow {
		t.Errorf("Claude Code breaches %v, want repair-with-allow", bs)
	}
	if _, ok := For(agent.ClaudeCode).HookInput([]byte(`{}`)); ok {
		t.Error("Claude Code's stdin is read by the default reader")
	}
	seen := map[string]bool{}
	for _, b := range Bindings() {
		if seen[b.Runtime()] {
			t.Errorf("runtime %q registered twice", b.Runtime())
		}
		seen[b.Runtime()] = true
		// A runtime whose hook files are scripts named after their event (Cline) has no command
		// keys: anchor reads such a file's lines as its commands.
		if len(b.ConfigFiles()) == 0 || len(b.Events()) == 0 || len(b.CommandKeys()) == 0 && b.Runtime() != agent.Cline {
			t.Errorf("binding %q names no config file, event or command key", b.Runtime())
		}
	}
}

func TestToolCall(t *testing.T) {
	c := For(agent.ClaudeCode)
	tests := []struct {
		b     gates.Binding
		tool  string
		input string
		want  gates.ToolCall
	}{
		{c, "Bash", `{"command":"ls"}`, gates.ToolCall{Command: "ls"}},
		{c, "Edit", `{"file_path":"a.go","new_string":"x := 1"}`, gates.ToolCall{FilePath: "a.go", NewTexts: []string{"x := 1"}}},
		{c, "NotebookEdit", `{"notebook_path":"n.ipynb","new_source":"print()"}`, gates.ToolCall{FilePath: "n.ipynb", NewTexts: []string{"print()"}}},
		{c, "", `{"notebook_path":"n.ipynb"}`, gates.ToolCall{FilePath: "n.ipynb"}},
		{c, "Grep", `{"file_path":"a.go"}`, gates.ToolCall{}},
		{c, "Bash", `not json`, gates.ToolCall{}},
		{For(agent.Codex), "Bash", `{"command":"ls"}`, gates.ToolCall{Command: "ls"}},
		{For(agent.Codex), "apply_patch", `{"command":"ls"}`, gates.ToolCall{}},
	}
	for _, tt := range tests {
		if got := tt.b.ToolCall(tt.tool, json.RawMessage(tt.input)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s %s: %+v, want %+v", tt.b.Runtime(), tt.tool, tt.input, got, tt.want)
		}
	}
}

// TestChecksRows: the rows of every check are one table, with unique ids; every check a binding
// can report (its Checks, and the generic ones) has exactly one row there; a binding's own rows
// are among the checks it reports, are not shared rows, and are rows of no other binding.
func TestChecksRows(t *testing.T) {
	rows := Checks()
	count := map[string]int{}
	for _, c := range rows {
		count[c.ID]++
		if c.ID == "" || c.Name == "" || c.Level == "" || c.Short == "" || c.Fix == "" {
			t.Errorf("row %q lacks a field: %+v", c.ID, c)
		}
	}
	for id, n := range count {
		if n != 1 {
			t.Errorf("check %s has %d rows, want 1", id, n)
		}
	}
	emits := []string{gates.CheckHookFailedOpen, gates.CheckRuntimeWrongKind}
	for _, b := range append(Bindings(), For("cursor")) {
		emits = append(emits, b.Checks()...)
		for _, c := range b.Rows() {
			if _, shared := gates.LookupCheck(c.ID); shared {
				t.Errorf("binding %q has a row of shared check %s", b.Runtime(), c.ID)
			}
			if !slices.Contains(b.Checks(), c.ID) {
				t.Errorf("binding %q has a row of %s, which its Checks does not name", b.Runtime(), c.ID)
			}
		}
	}
	for _, id := range emits {
		if count[id] != 1 {
			t.Errorf("check %s, which a binding can report, has %d rows, want 1", id, count[id])
		}
	}
	want := len(gates.Checks())
	for _, b := range Bindings() {
		want += len(b.Rows())
	}
	if len(rows) != want {
		t.Errorf("Checks has %d rows, want %d: the shared ones and each binding's", len(rows), want)
	}
}
