package gates

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Binding is one agent runtime's hook binding (docs/runtimes.md): everything that differs from one
// runtime to the next. Each runtime's folder under runtimes/ has one, and package runtimes lists them.
type Binding interface {
	// Runtime is the runtime id, as the recorder's log and findings name it ("codex", …).
	Runtime() string
	// Events are the hook events the binding checks, in the runtime's own spelling.
	Events() []string
	// CheckHook checks one hook answer against the binding's rules (see CheckAnswer).
	CheckHook(a HookAnswer) HookResult
	// Checks are the ids of the hook checks CheckHook can report besides the generic ones (see
	// GenericCheck); each is shown by the binding's testdata.
	Checks() []string
	// Rows are the table rows of the binding's own checks, those of Checks that are not shared
	// rows of this package (Checks()); a binding with no checks of its own has none.
	Rows() Rows
	// ToolCall reads what a call was about from its tool name and input; an empty tool reads
	// any field that one of the runtime's tools uses.
	ToolCall(tool string, input json.RawMessage) ToolCall
	// CallFields are the tool-input fields ToolCall reads: a reader that cannot keep a big input
	// keeps these.
	CallFields() []string
	// EditTools are the tools whose calls edit a file named in their input.
	EditTools() []string
	// ConfigFiles are the project files that configure the runtime's hooks, searched in order; a
	// '*' in the last element matches the files of that folder (".github/hooks/*.json").
	ConfigFiles() []string
	// CommandKeys are the keys of a ConfigFiles file under "hooks" whose string values are hook
	// commands, each with the least depth (objects and arrays, the file's own object counted) it
	// stands at.
	CommandKeys() []CommandKey
	// HookInput reads the call a hook's stdin names, when the runtime does not send Claude
	// Code's snake_case fields (hook_event_name, tool_name, tool_input, …); false: it does.
	HookInput(stdin []byte) (HookCall, bool)
	// ToolNames is ToolCall's Command and FilePath, read without decoding the texts the call
	// wrote when the binding can (a call that yields findings needs them).
	ToolNames(tool string, input json.RawMessage) (command, filePath string)
	// KeysCallsByOrder says the runtime's hook input names no tool call, so its events are
	// matched across files by session, event, tool, arguments and the order of calls with those
	// arguments.
	KeysCallsByOrder() bool
	// Allow is the allowlist entry, in the runtime's own syntax, that lets a prompted or denied
	// call through without asking, and where it goes.
	Allow(c AllowCall) Allowlist
	// RepairAnswer is the hook answer that makes a gate run r.Command instead of the call, with
	// r.Context as its additionalContext; "" when the runtime applies no rewrite a hook answers.
	RepairAnswer(r Rewrite) string
	// Effects is what the runtime does with each answer form, as observed with its real build:
	// the facts findings report (see EffectTable).
	Effects() EffectTable
}

// AllowCall is a prompted or denied call an allowlist entry would let through (Binding.Allow).
type AllowCall struct {
	Rule   string   // the rule that allows the call in Claude Code's permission syntax, made from it
	Prefix []string // a shell command's program and subcommand words; none for a file tool
	File   bool     // the call is a file tool's
	// Calls are the calls of the pattern, as the runtime's hooks saw them: a binding that can
	// replay its runtime's matching checks the entry against each (Allowlist.Checked).
	Calls []HookCall
}

// Allowlist is an allowlist entry and where it goes; with no Entry, In is "none: " and why.
// Checked says what replaying the runtime's matching on AllowCall.Calls found ("" when the
// binding does not replay it).
type Allowlist struct{ Entry, In, Checked string }

// Rewrite is a gate's rewrite of a shell call: the command it runs instead and the AGC response
// (verdict repaired) that says so, as the answer's additionalContext (Binding.RepairAnswer).
type Rewrite struct{ Command, Context string }

// JSONLine is v as one line of JSON without HTML escapes, as a hook writes its answer.
func JSONLine(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// HookCall is the call a hook's stdin names.
type HookCall struct {
	Event, Tool, ToolUseID, SessionID, Cwd string
	Input                                  json.RawMessage
}

// CommandKey is a key of a runtime's config file that holds a hook command (Binding.CommandKeys).
// With File set, the key is read only in that config file, whose top-level keys are the events
// themselves (no "hooks" object: Factory Droid's hooks.json).
type CommandKey struct {
	Key   string
	Depth int
	File  string
}

// ToolCall is what a tool call was about, read from its input by its binding.
type ToolCall struct {
	Command  string   // the shell command, for a shell tool
	FilePath string   // the file the call reads or writes
	NewTexts []string // the texts an edit wrote, to be found in the file afterwards
}

// GenericCheck reports whether a check holds for a hook of any runtime: the response's own
// contract, its gate kind, and a hook that failed open. A check that is not a shared row is a
// binding's own, which holds for that binding only.
func GenericCheck(id string) bool {
	if c, ok := LookupCheck(id); ok {
		return c.Binding == "any" || id == CheckRuntimeWrongKind || id == CheckHookFailedOpen
	}
	return false
}

// HoldsFor returns whether a check holds for b's hooks: one that holds for any runtime
// (GenericCheck) or one b lists in Checks, so that Checks is the one list of what b keeps.
func HoldsFor(b Binding) func(string) bool {
	own := b.Checks()
	return func(id string) bool { return GenericCheck(id) || slices.Contains(own, id) }
}

// KeepBreaches keeps the breaches whose check passes keep.
func KeepBreaches(bs []Breach, keep func(string) bool) []Breach {
	var out []Breach
	for _, b := range bs {
		if keep(b.Check) {
			out = append(out, b)
		}
	}
	return out
}

// NotBlank reports whether s holds more than white space.
func NotBlank(s string) bool { return strings.TrimSpace(s) != "" }

// FastMembers reads the values of the members names of the JSON object data, as
// json.Unmarshal into a map[string]json.RawMessage would keep them (the last of duplicates), in
// one pass that checks the grammar as encoding/json does. ok is false when data is not plainly an
// object (null, another value, a member name with escapes or non-ASCII bytes, a value nested
// deeper than fastMaxDepth) or is not valid JSON: the caller then decodes it with encoding/json.
func FastMembers(data []byte, names []string) ([]json.RawMessage, bool) {
	r := jsonscan.NewReader(data)
	r.Space()
	if !r.Take('{') {
		return nil, false
	}
	vals := make([]json.RawMessage, len(names))
	r.Space()
	if r.Peek() == '}' {
		r.Take('}')
	} else {
		for r.OK() {
			key := r.PlainString()
			r.Space()
			r.Take(':')
			r.Space()
			v := r.Value(fastMaxDepth)
			if k := nameIndex(names, key); k >= 0 && r.OK() {
				vals[k] = v
			}
			r.Space()
			if !r.OK() || r.Sep('}') {
				break
			}
		}
	}
	r.Space()
	return vals, r.OK() && r.Offset() == len(data)
}
