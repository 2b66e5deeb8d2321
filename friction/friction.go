// Package friction ranks what the guards and permission prompts cost a coding agent, by pattern
// of call, and says which rung of the ladder (block, steer, rewrite; allowlist, guard rule) each
// pattern should move to — the friction loop of the seed essay "Block, Steer, Rewrite".
package friction

// Suggested moves, as Pattern.Suggest spells them.
const (
	SuggestRewrite   = "rewrite"    // the agent corrected a block the same way every time: the hook can run the correction
	SuggestSteer     = "steer"      // the corrections varied: say what to do instead of refusing
	SuggestAllowlist = "allowlist"  // a read-only pattern refused or prompted by permissions: allow it
	SuggestGuardRule = "guard-rule" // a pattern permissions refused or prompted that is not read-only: a guard should decide it
	SuggestFixHook   = "fix-hook"   // a hook failed open on it: the call ran unguarded
	SuggestNone      = "none"       // the ladder working (repaired, steered) or a block the agent gave up on
)

// Rungs counts the calls of a pattern that met each rung (a call counts once per rung).
type Rungs struct {
	Block      int `json:"block"`
	Steer      int `json:"steer"`
	Repaired   int `json:"repaired"`
	Prompted   int `json:"prompted"`
	Denied     int `json:"denied"`
	FailedOpen int `json:"failed_open"`
}

// Example is one call of a pattern: where it was read and what it ran (redacted).
type Example struct {
	Source  string `json:"source"`
	Line    int    `json:"line"`
	Command string `json:"command"`
}

// Pattern is one shape of call with what the ladder did to it and the move suggested.
type Pattern struct {
	Pattern  string    `json:"pattern"` // the call's shape: "python <path>", "Read src/*.py"
	Tool     string    `json:"tool"`
	Count    int       `json:"count"` // calls of this shape that met a rung
	Rungs    Rungs     `json:"rungs"`
	Retries  int       `json:"retries"` // calls the agent made after a refusal until one of the same intent went through
	Turns    int       `json:"turns"`   // model turns those retries took
	Suggest  string    `json:"suggest"`
	Before   string    `json:"before"` // the part of the command the agent's correction replaced
	After    string    `json:"after"`  // what it replaced it with (a rewrite runs this)
	Allow    string    `json:"allow"`  // the permissions.allow entry for .claude/settings.json
	Examples []Example `json:"examples"`
}

// Report is the friction of the records read: recurring patterns heaviest first (by retries,
// then count), and patterns seen once, apart.
type Report struct {
	Patterns []Pattern `json:"patterns"`
	Once     []Pattern `json:"once"`
	// Calls counts the tool calls read; Unmatched the findings that named no call read here.
	Calls     int `json:"calls"`
	Unmatched int `json:"unmatched_findings"`
}
