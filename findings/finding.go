// Package findings holds the one finding type that every input produces and every output
// (SARIF, annotations, job summary) consumes, with the set that collects, merges and counts them.
package findings

import (
	"github.com/agc-sarif/agc-sarif/gates"
)

// Level is a SARIF result level.
type Level string

// The SARIF levels agc-sarif emits.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Note    Level = "note"
)

// Weight orders levels: error 3 > warning 2 > note 1; 0 when unknown.
func (l Level) Weight() int {
	switch l {
	case Error:
		return 3
	case Warning:
		return 2
	case Note:
		return 1
	}
	return 0
}

// DefaultLevel maps a verdict to its default SARIF level: block→error, repaired→warning,
// steer→note. Pass has no level ("") because it is not a result.
func DefaultLevel(v gates.Verdict) Level {
	switch v {
	case gates.Block:
		return Error
	case gates.Repaired:
		return Warning
	case gates.Steer:
		return Note
	}
	return ""
}

// Kind says what produced a finding.
type Kind string

// Finding kinds.
const (
	RuntimeGate  Kind = "runtime"  // a runtime gate's finding (hook at a tool boundary)
	JudgmentGate Kind = "judgment" // a judging agent's finding
	Contract     Kind = "contract" // a breach of AGC or its binding (rule agc/…)
	Unstructured Kind = "hook"     // a hook decision with no AGC response (rule hook/<name>)
)

// Source is where a finding was read: the input file and the 1-based line of its record.
type Source struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Location is a place in a file; Path may be absolute or repo-relative until anchored.
type Location struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	StartCol  int    `json:"start_column,omitempty"`
	EndCol    int    `json:"end_column,omitempty"`
}

// Call describes the tool call a runtime finding is about, as far as the records tell.
type Call struct {
	Runtime   string `json:"runtime,omitempty"`     // "claude-code", …
	Event     string `json:"event,omitempty"`       // "PreToolUse", "PostToolUse", …
	Tool      string `json:"tool,omitempty"`        // "Bash", "Edit", …
	ToolUseID string `json:"tool_use_id,omitempty"` // the runtime's id of the call
	SessionID string `json:"session_id,omitempty"`
	Hook      string `json:"hook,omitempty"` // the hook command as configured
	// HookIsName says Hook is the name the runtime's settings give the hook, not its command: a
	// record that names the hook that way (Gemini CLI's telemetry) knows less of it than one that
	// names its command, which names the event's unstructured rule when both are read.
	HookIsName bool `json:"-"`
	// ExitKnown says the record tells the hook's exit status.
	ExitKnown bool   `json:"-"`
	Command   string `json:"command,omitempty"`   // Bash command of the call, when any
	FilePath  string `json:"file_path,omitempty"` // file the call touched (Edit/Write/Read/…), when any
	Cwd       string `json:"cwd,omitempty"`       // the agent's working folder at the time
	// Input is the tool input as JSON, kept for anchoring (Edit old/new strings); may be nil.
	Input []byte `json:"-"`
	// Answer is the form of the hook's answer and Effect what the runtime did with it, by the
	// binding's effect table ("" when the answer had no decision or the table has no row).
	Answer gates.Answer `json:"answer,omitempty"`
	Effect gates.Effect `json:"effect,omitempty"`
	// After says the hook ran after the call (the runtime's PostToolUse), so its answer could only
	// change what the model saw of the call.
	After bool `json:"after,omitempty"`
	// Key names the call by its order where the runtime's hook input names none (Gemini CLI,
	// Copilot CLI): the key the readers hand the tool-call timeline, so that it joins the finding
	// to its call.
	Key string `json:"-"`
}

// Repair is the before and after of a rewrite.
type Repair struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Example is one occurrence kept when repeated events are merged into one finding.
type Example struct {
	Source  Source `json:"source"`
	Time    string `json:"time,omitempty"`
	Message string `json:"message"`
}

// Finding is one normalised finding: a gate's finding, a contract breach or an unstructured hook
// decision. Every input produces these; every output consumes them.
type Finding struct {
	RuleID  string        `json:"rule_id"` // "<gate>/<rule>", "agc/<check>" or "hook/<name>"
	Gate    string        `json:"gate"`    // gate id ("agc" for contract findings)
	Rule    string        `json:"rule"`
	Target  string        `json:"target,omitempty"` // "Tool.field", when stated
	Kind    Kind          `json:"kind"`
	Verdict gates.Verdict `json:"verdict,omitempty"` // the finding's verdict ("" for contract findings)
	// Level is the output level (SARIF result level, annotation kind). Readers set a default;
	// collect sets the final one from --fail-on and --level, so it may change per run.
	Level Level `json:"level"`
	// Severity is the finding's own weight, which the output level does not change: a contract
	// check's level from the check table, or the severity an AGC finding states ("" if none).
	// --fail-on contract tests it.
	Severity Level     `json:"severity,omitempty"`
	Message  string    `json:"message"`
	HelpURI  string    `json:"help_uri,omitempty"`
	Location *Location `json:"location,omitempty"` // as stated or anchored; nil until anchored
	Repair   *Repair   `json:"repair,omitempty"`
	Call     *Call     `json:"call,omitempty"`
	Source   Source    `json:"source"`
	Time     string    `json:"time,omitempty"` // RFC 3339, when known
	// Anchored says why Location is not where the event happened ("" when it is).
	Anchored string `json:"anchored,omitempty"`
	// Placed is the step of the anchor chain that gave Location, so that outputs can tell code
	// from session events without reading Anchored's sentence.
	Placed Placement `json:"placed,omitempty"`
	// Related are other places the finding concerns, shown as SARIF relatedLocations. When
	// Anchored is set, the first is where the finding stands without the change's diff (the
	// hook's settings line) and the finding's line-independent identity is taken from it, so
	// that anchoring it beside the session's edit does not make it a new alert.
	Related []Location `json:"related,omitempty"`
	// EventKey identifies the event the finding came from, so that one event seen through several
	// records (hook log and transcript, hook_success and hook_additional_context) is kept once.
	EventKey string `json:"-"`
	// Count is how many events this finding stands for (1 unless repeats were merged).
	Count     int       `json:"count"`
	FirstTime string    `json:"first_time,omitempty"`
	LastTime  string    `json:"last_time,omitempty"`
	Examples  []Example `json:"examples,omitempty"`
	// Sources names the input files that reported the finding's event when more than one did
	// (hook log, transcript, an agent-written file); the heaviest verdict among them is kept.
	Sources []string `json:"sources,omitempty"`
	// Named says the finding was read from a file the user named as a reviewer's output
	// (--judgment): of one judgment's records, it is the one "Recorded at" names.
	Named bool `json:"-"`
	// Aliases are the other rule ids one event's records gave this finding (a hook named by its
	// settings name in one record and by its program in another).
	Aliases []string `json:"aliases,omitempty"`
	// Trusted says the finding was read from a file the user named as a reviewer's output
	// (--judgment, action input judgments), which the agent under review cannot write: it ranks
	// ahead of every agent-writable input before every cap, and never merges with their findings.
	Trusted bool `json:"trusted,omitempty"`
}

// Placement is the step of the anchor chain that placed a finding.
type Placement string

// The anchor chain's steps, in order.
const (
	PlacedOwn      Placement = ""         // the finding's own location: where the event happened
	PlacedFile     Placement = "file"     // in the file the call touched
	PlacedEdit     Placement = "edit"     // beside the session's edit in the change
	PlacedHook     Placement = "hook"     // on the hook's line (or the "hooks" line) of its configuration
	PlacedInput    Placement = "input"    // on the line of the input the gate's answer was read from
	PlacedFallback Placement = "fallback" // on line 1 of the fallback file
)

// OffCode reports whether p puts a finding away from the code it is about: it is then an event
// of the agent's session rather than a remark on a line.
func (p Placement) OffCode() bool {
	return p == PlacedHook || p == PlacedInput || p == PlacedFallback
}

// Skip is a record that was read but produced no finding, with the reason.
type Skip struct {
	Source Source `json:"source"`
	Reason string `json:"reason"`
}
