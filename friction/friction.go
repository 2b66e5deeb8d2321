// Package friction ranks what the guards and permission prompts cost a coding agent, by what
// matched (the gate's rule, the permission rule that would allow the call, the hook that failed),
// and hands back the exact fix for each: a rewrite with the repair the gate should send, a steer,
// an allowlist entry in the runtime's own syntax, a guard rule or a habit — the friction loop of
// the seed essay "Block, Steer, Rewrite".
package friction

// Suggested moves, as Pattern.Suggest spells them.
const (
	SuggestRewrite   = "rewrite"    // blocked ≥ 2 times, corrected the same way each time: the gate can run the correction
	SuggestSteer     = "steer"      // blocked ≥ 2 times, corrected in varied ways: say what to do instead of refusing
	SuggestAllowlist = "allowlist"  // prompted or denied, read-only or confined to the repository: allow it
	SuggestGuardRule = "guard-rule" // prompted or denied and neither: a guard should decide it, not a person
	SuggestHabit     = "habit"      // blocked once and corrected: change the habit, or make it a rewrite if it recurs
	SuggestFixHook   = "fix-hook"   // a hook failed open on it: the call ran unguarded
	SuggestNone      = "none"       // the ladder working (repaired, steered), or a block the agent did not retry
)

// Pattern kinds: what matched the calls of a pattern.
const (
	KindGate       = "gate"       // a gate's rule decided the calls (block, steer, repair)
	KindPermission = "permission" // the runtime's permissions prompted or denied them
	KindHook       = "hook"       // a hook failed open on them
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

// Example is one call of a pattern: where it was read and what it ran (redacted, paths relative
// to the repository).
type Example struct {
	Source  string `json:"source"`
	Line    int    `json:"line"`
	Command string `json:"command"`
}

// Correction is one real refused call and the call of the same intent that went through after it.
type Correction struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Repair is the hook answer a gate sends on a runtime to run the correction instead of refusing.
type Repair struct {
	Runtime string `json:"runtime"`
	Answer  string `json:"answer"`
}

// Pattern is what a guard or the permission system matched, the calls it caught, what that cost
// the agent, and the fix.
type Pattern struct {
	Kind     string `json:"kind"`     // KindGate, KindPermission or KindHook
	Pattern  string `json:"pattern"`  // "shell-ladder/python3-only", "Edit(*.md)", the hook command
	Tool     string `json:"tool"`     // the tool of its calls ("Bash"), or "*" when they differ
	Commands string `json:"commands"` // what its calls ran, summarised: "python …", "Write *.md"
	Runtime  string `json:"runtime"`  // the runtime of most of its calls, whose syntax Allow is in
	Count    int    `json:"count"`    // calls (one call seen in several records counts once)
	Sessions int    `json:"sessions"` // sessions it appeared in
	Rungs    Rungs  `json:"rungs"`
	Retries  int    `json:"retries"` // calls the agent made after a refusal until one of the same intent went through
	Turns    int    `json:"turns"`   // model turns those retries took
	Suggest  string `json:"suggest"`
	Why      string `json:"why"`
	// Before and After are the rewrite common to the agent's corrections ("python" → "python3"),
	// Example one real refused call and its correction.
	Before  string      `json:"before,omitempty"`
	After   string      `json:"after,omitempty"`
	Example *Correction `json:"example,omitempty"`
	// Repairs are the hook answers, with their AGC response, that make the gate run the
	// correction, one for each runtime the pattern's calls came from (for a rewrite).
	Repairs []Repair `json:"repairs,omitempty"`
	// Allow is the allowlist entry in the runtime's own syntax, AllowIn where it goes (for an
	// allowlist; AllowIn alone says when the runtime has none).
	Allow   string `json:"allow,omitempty"`
	AllowIn string `json:"allow_in,omitempty"`
	// AllowChecked is what replaying the runtime's matching of Allow on every call of the
	// pattern found; Asked why its calls asked (the rule and its line, no rule, a near miss).
	AllowChecked string    `json:"allow_checked,omitempty"`
	Asked        []string  `json:"asked,omitempty"`
	Examples     []Example `json:"examples"`
}

// Report is the friction of the records read: patterns heaviest first (total retries across
// sessions, then calls), the ladder working last.
type Report struct {
	Patterns []Pattern `json:"patterns"`
	// Calls counts the tool calls read, Sessions the sessions they came from; Unmatched the
	// findings that named no call read here.
	Calls     int `json:"calls"`
	Sessions  int `json:"sessions"`
	Unmatched int `json:"unmatched_findings"`
}
