package inputs

import (
	"fmt"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Registry is what the readers take from the runtime registry (package runtimes), which sits
// above this package: the formats in detection order and the runtimes' bindings. The callers
// fill it (runtimes.Inputs) and hand it down in Options.
type Registry struct {
	// Formats are the formats detection tries, in order: the first whose Sniff matches wins.
	Formats []FormatSpec
	// Binding returns the binding of a runtime id; "" is the default runtime.
	Binding func(runtime string) gates.Binding
	// Bindings are the registered bindings, whose edit tools the edit scan looks for.
	Bindings []gates.Binding
}

// FormatSpec is one input format: its --format name, how detection recognises it, its reader.
type FormatSpec struct {
	Name Format
	// Sniff reports whether h (the first bytes of a file, up to SniffSize) looks like this format.
	Sniff  func(h *Head) bool
	Reader Reader
	// FinalMessage says the reader reads the final message of a file named as a reviewing agent's
	// output (Input.Judgment) itself; any other such file is read as a judgment message.
	FinalMessage bool
}

// Names lists the names --format accepts, auto first.
func (r Registry) Names() []Format {
	out := []Format{Auto}
	for _, f := range r.Formats {
		out = append(out, f.Name)
	}
	return out
}

// Parse checks a --format value.
func (r Registry) Parse(s string) (Format, error) {
	for _, f := range r.Names() {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q (want one of %v)", s, r.Names())
}

// Detect names the format of a file from its first bytes, or "" when nothing recognises it.
func (r Registry) Detect(b []byte) Format {
	h := NewHead(b)
	for _, f := range r.Formats {
		if f.Sniff(h) {
			return f.Name
		}
	}
	return ""
}

// ReaderFor returns the reader of a format.
func (r Registry) ReaderFor(f Format) (Reader, error) {
	for _, g := range r.Formats {
		if g.Name == f {
			return g.Reader, nil
		}
	}
	return nil, fmt.Errorf("no reader for format %q", f)
}

// ReadsFinalMessage reports whether the reader of f reads a judged file's final message itself
// (FormatSpec.FinalMessage).
func (r Registry) ReadsFinalMessage(f Format) bool {
	for _, g := range r.Formats {
		if g.Name == f {
			return g.FinalMessage
		}
	}
	return false
}

// binding is the binding of a runtime id, "" the default one.
func (o Options) binding(runtime string) gates.Binding {
	o.Registry.mustBeSet()
	return o.Registry.Binding(runtime)
}

// mustBeSet stops a caller that forgot the registry: a reader without bindings would read every
// record under none, and find nothing rather than fail.
func (r Registry) mustBeSet() {
	if r.Binding == nil {
		panic("inputs: Options.Registry is not set (the callers fill it from runtimes.Inputs())")
	}
}

// defaultRuntime is the runtime of records that name none.
func (o Options) defaultRuntime() string { return o.binding("").Runtime() }

// keysByOrder reports whether runtime's events are keyed by order: its hook input names no tool
// call, so its events are matched across files by session, event, tool, arguments and the order
// of the calls with those arguments (OrdinalKeys).
func (o Options) keysByOrder(runtime string) bool { return o.binding(runtime).KeysCallsByOrder() }
