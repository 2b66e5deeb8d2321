package gates

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Binding is one agent runtime's hook binding (docs/runtimes.md): everything that differs from one
// runtime to the next. Adding a runtime is one Binding file and one line in bindings.
type Binding interface {
	// Runtime is the runtime id, as the recorder's log and findings name it ("codex", …).
	Runtime() string
	// Events are the hook events the binding checks, in the runtime's own spelling.
	Events() []string
	// CheckHook checks one hook answer against the binding's rules (see CheckClaudeHook).
	CheckHook(a HookAnswer) HookResult
	// Checks are the ids of the hook checks CheckHook can report besides the generic ones (see
	// GenericCheck); each is shown by the binding's testdata.
	Checks() []string
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
	// HookInput reads the call a hook's stdin names, when the runtime does not send Claude
	// Code's snake_case fields (hook_event_name, tool_name, tool_input, …); false: it does.
	HookInput(stdin []byte) (HookCall, bool)
}

// HookCall is the call a hook's stdin names.
type HookCall struct {
	Event, Tool, ToolUseID, SessionID, Cwd string
	Input                                  json.RawMessage
}

// ToolCall is what a tool call was about, read from its input by its binding.
type ToolCall struct {
	Command  string   // the shell command, for a shell tool
	FilePath string   // the file the call reads or writes
	NewTexts []string // the texts an edit wrote, to be found in the file afterwards
}

// bindings are the registered runtime bindings; the first is the default for records that name
// no runtime.
var bindings = []Binding{
	claudeCode{},
	codexCLI{},
	geminiCLI{},
	copilotCLI{},
}

// Bindings returns the registered bindings, the default first.
func Bindings() []Binding { return append([]Binding(nil), bindings...) }

// DefaultBinding is the binding of records that name no runtime.
func DefaultBinding() Binding { return bindings[0] }

// BindingFor returns the binding of a runtime id. A runtime without a binding of its own is read
// as the default one, keeping only the checks that hold for any runtime (see GenericCheck); ""
// is the default runtime.
func BindingFor(runtime string) Binding {
	if runtime == "" {
		return bindings[0]
	}
	for _, b := range bindings {
		if b.Runtime() == runtime {
			return b
		}
	}
	return unbound{Binding: bindings[0], runtime: runtime}
}

// unbound is a runtime without a binding: the default binding's reading, generic checks only.
type unbound struct {
	Binding
	runtime string
}

func (u unbound) Runtime() string { return u.runtime }

func (u unbound) CheckHook(a HookAnswer) HookResult {
	res := u.Binding.CheckHook(a)
	res.Breaches = keepBreaches(res.Breaches, GenericCheck)
	return res
}

// GenericCheck reports whether a check holds for a hook of any runtime: the response's own
// contract, its gate kind, and a hook that failed open.
func GenericCheck(id string) bool {
	if c, ok := LookupCheck(id); ok {
		return c.Binding == "any" || id == CheckRuntimeWrongKind || id == CheckHookFailedOpen
	}
	return true
}

// holdsFor returns whether a check holds for b's hooks: one that holds for any runtime
// (GenericCheck) or one b lists in Checks, so that Checks is the one list of what b keeps.
func holdsFor(b Binding) func(string) bool {
	own := b.Checks()
	return func(id string) bool { return GenericCheck(id) || slices.Contains(own, id) }
}

// keepBreaches keeps the breaches whose check passes keep.
func keepBreaches(bs []Breach, keep func(string) bool) []Breach {
	var out []Breach
	for _, b := range bs {
		if keep(b.Check) {
			out = append(out, b)
		}
	}
	return out
}

// notBlank reports whether s holds more than white space.
func notBlank(s string) bool { return strings.TrimSpace(s) != "" }

// Checks: a runtime without a binding is held only to the generic checks.
func (unbound) Checks() []string { return []string{CheckHookFailedOpen} }

// restate rewrites the messages of breaches a binding borrowed from Claude Code's checks so that
// they name its own runtime and event (Claude Code's event names become event).
func restate(bs []Breach, runtime, claudeEvent, event string) {
	for i := range bs {
		m := strings.ReplaceAll(bs[i].Message, "Claude Code", runtime)
		if event != "" && claudeEvent != event {
			m = strings.ReplaceAll(m, claudeEvent, event)
		}
		bs[i].Message = m
	}
}

// ToolNames is b.ToolCall(tool, input)'s Command and FilePath, without decoding the texts the
// call wrote when the binding can read the names alone (a call that yields findings needs them).
func ToolNames(b Binding, tool string, input json.RawMessage) (command, filePath string) {
	if n, ok := b.(interface {
		toolNames(string, json.RawMessage) (string, string)
	}); ok {
		return n.toolNames(tool, input)
	}
	tc := b.ToolCall(tool, input)
	return tc.Command, tc.FilePath
}

// fastMembers reads the values of the members names of the JSON object data, as
// json.Unmarshal into a map[string]json.RawMessage would keep them (the last of duplicates), in
// one pass that checks the grammar as encoding/json does. ok is false when data is not plainly an
// object (null, another value, a member name with escapes or non-ASCII bytes, a value nested
// deeper than fastMaxDepth) or is not valid JSON: the caller then decodes it with encoding/json.
func fastMembers(data []byte, names []string) ([]json.RawMessage, bool) {
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
