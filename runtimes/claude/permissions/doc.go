// Package permissions replays how Claude Code decides whether a tool call runs, asks or is denied
// by its permission rules, pinned to the version it was verified with (Verified), so a report can
// name the rule that decided, with its file and line, the near misses and the smallest fix. The
// rules it follows, with their evidence, are in ../../../docs/permissions.md; a new Claude Code
// version is a change of this folder only.
package permissions

// Verified is the Claude Code version whose decisions this matcher was checked against (the
// differential cases in testdata/cases.json, recorded with the real binary).
const Verified = "2.1.332"

// Decision is what Claude Code does with a call: it runs, it asks (headless: refused), or a rule,
// a hook or the mode denies it.
type Decision string

// The decisions.
const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)
