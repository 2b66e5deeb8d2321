// Package permit is the runtime-neutral request of the permissions command: which settings to
// read, how the workspace ran, which calls to explain and where the report goes. A runtime that
// decides calls by permission rules answers it (runtimes.Permissions); the command names none.
package permit

import (
	"context"
	"io"
)

// Options are the permissions command's inputs.
type Options struct {
	Root            string   // the repository (the project folder the run was launched in)
	Home            string   // the home folder, for "~/" paths
	UserSettings    string   // the user settings file; "" for none
	Settings        string   // the --settings file of the run; "" for none
	ManagedSettings string   // the managed (policy) settings file; "" for none
	Trusted         bool     // the workspace was trusted
	Mode            string   // the permission mode the run was started with; "" for the settings'
	Report          string   // text, md or json
	Inputs          []string // records to read calls from; "-" reads Stdin
	// Redact is the run's one redaction step (collect.NewRedactor): every text of a report that
	// holds an agent-written call goes through it.
	Redact Redactor
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Redactor replaces secrets in text and in JSON.
type Redactor interface {
	String(s string) string
	JSON(b []byte) []byte
}

// Runner explains permission decisions and lints permission settings.
type Runner interface {
	// Explain reads the calls of o.Inputs and writes, for each, the decision, the rule that
	// decided with its place, the near misses and the fix, as o.Report says.
	Explain(ctx context.Context, o Options) error
	// Lint checks the settings files for rules that do not do what they say.
	Lint(ctx context.Context, o Options) ([]Finding, error)
	// Asker explains why one call of a run asked or was denied under the settings of o.Root, in
	// one sentence (the rule and its place, no rule, a near miss); friction shows it.
	Asker(ctx context.Context, o Options) (func(tool string, input []byte, cwd string) string, error)
	// SettingsFile says whether a repository path (slash-separated) is one of the permission
	// settings files the lint reads.
	SettingsFile(path string) bool
	// Rules are the lint's rules.
	Rules() []Rule
	// Version is the runtime version the matcher was verified with.
	Version() string
}

// Rule is one lint rule: its fixed id, the title code scanning shows, and its help.
type Rule struct{ ID, Title, Help string }

// Finding is one lint result on a settings file's line.
type Finding struct {
	Rule    string
	Level   string // error or warning
	File    string // relative to the repository
	Line    int
	Message string
}
