// Package runtimes is the registry of agent runtimes: one line per runtime, each a folder below
// this one holding everything that runtime does differently. The packages that read and place
// findings ask this registry, never a runtime's folder.
package runtimes

import (
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes/claude"
	"github.com/agc-sarif/agc-sarif/runtimes/cline"
	"github.com/agc-sarif/agc-sarif/runtimes/codex"
	"github.com/agc-sarif/agc-sarif/runtimes/copilot"
	"github.com/agc-sarif/agc-sarif/runtimes/crush"
	"github.com/agc-sarif/agc-sarif/runtimes/droid"
	"github.com/agc-sarif/agc-sarif/runtimes/gemini"
	"github.com/agc-sarif/agc-sarif/runtimes/opencode"
	"github.com/agc-sarif/agc-sarif/runtimes/qwen"
)

// bindings are the registered runtime bindings; the first is the default for records that name
// no runtime.
var bindings = []gates.Binding{
	claude.Binding{},
	codex.Binding{},
	gemini.Binding{},
	copilot.Binding{},
	qwen.Binding{},
	cline.Binding{},
	opencode.Binding{},
	opencode.Binding{Kilo: true},
	droid.Binding{},
	crush.Binding{},
}

// formats are the input formats, in the order detection tries them (the first match wins), as
// --format lists them. Adding a runtime's log format adds one line.
func formats() []inputs.FormatSpec {
	return []inputs.FormatSpec{
		droid.StreamFormat(), // before Claude Code's stream-json, whose first line it shares
		claude.StreamJSONFormat(),
		claude.TranscriptFormat(),
		inputs.HookLogFormat(),
		codex.RolloutFormat(),
		copilot.EventsFormat(),
		codex.EventsFormat(),
		gemini.SessionFormat(),
		gemini.StreamFormat(),
		gemini.TelemetryFormat(),
		cline.MessagesFormat(),
		cline.StreamFormat(),
		opencode.ExportFormat(),
		opencode.StreamFormat(),
		droid.SessionFormat(),
		crush.MessagesFormat(),
		crush.StoreFormat(),
		inputs.AGCFormat(),
		inputs.JudgmentFormat(),
	}
}

// Inputs is what the readers of package inputs need from this registry: the formats and the
// bindings. The commands hand it down in inputs.Options.
func Inputs() inputs.Registry {
	return inputs.Registry{Formats: formats(), Binding: For, Bindings: Bindings()}
}

// Bindings returns the registered bindings, the default first.
func Bindings() []gates.Binding { return append([]gates.Binding(nil), bindings...) }

// Default is the binding of records that name no runtime.
func Default() gates.Binding { return bindings[0] }

// For returns the binding of a runtime id. A runtime without a binding of its own is read as the
// default one, keeping only the checks that hold for any runtime (see gates.GenericCheck); "" is
// the default runtime.
func For(runtime string) gates.Binding {
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
	gates.Binding
	runtime string
}

func (u unbound) Runtime() string { return u.runtime }

func (u unbound) CheckHook(a gates.HookAnswer) gates.HookResult {
	res := u.Binding.CheckHook(a)
	res.Breaches = gates.KeepBreaches(res.Breaches, gates.GenericCheck)
	return res
}

// Checks: a runtime without a binding is held only to the generic checks.
func (unbound) Checks() []string { return []string{gates.CheckHookFailedOpen} }

// Rows: a runtime without a binding has no checks of its own.
func (unbound) Rows() gates.Rows { return nil }

// Checks are the rows of every contract check: the shared ones, then each binding's own, in the
// order of bindings. The outputs (SARIF rules, the summary, the messages of `check`) look rows up
// here, handed down by the commands.
func Checks() gates.Rows {
	out := gates.Checks()
	for _, b := range bindings {
		out = append(out, b.Rows()...)
	}
	return out
}
