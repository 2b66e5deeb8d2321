package gates

// Response is one AGC 0.1 response as a gate sends it. Unknown fields are ignored.
type Response struct {
	AGC      string    `json:"agc"`
	Gate     Gate      `json:"gate"`
	Verdict  Verdict   `json:"verdict"`
	Findings []Finding `json:"findings"`
	Subject  *Subject  `json:"subject,omitempty"`
	At       string    `json:"at,omitempty"`
}

// Gate names the gate that answered.
type Gate struct {
	ID      string `json:"id"`
	Kind    Kind   `json:"kind"`
	Version string `json:"version,omitempty"`
	URI     string `json:"uri,omitempty"`
}

// Finding is one thing a gate found; its identity is gate.id/rule/target.
type Finding struct {
	Rule     string    `json:"rule"`
	Message  string    `json:"message"`
	Verdict  Verdict   `json:"verdict,omitempty"`
	Target   string    `json:"target,omitempty"`
	Severity string    `json:"severity,omitempty"`
	Location *Location `json:"location,omitempty"`
	Repair   *Repair   `json:"repair,omitempty"`
	HelpURI  string    `json:"help_uri,omitempty"`
}

// Location is a place in a file as a gate states it; lines and columns are 1-based.
type Location struct {
	Path      string `json:"path"`
	Line      int    `json:"line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Column    int    `json:"column,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
}

// Repair is the value of a finding's target before and after a gate rewrote it.
type Repair struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// Subject is what the gate says it judged, when it says so.
type Subject struct {
	Runtime   string `json:"runtime,omitempty"`
	Event     string `json:"event,omitempty"`
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
}

// FindingVerdict is a finding's own verdict, or the response's when the finding states none.
func (r *Response) FindingVerdict(f Finding) Verdict {
	if f.Verdict != "" {
		return f.Verdict
	}
	return r.Verdict
}

// Heaviest is the heaviest verdict among the response's findings (pass when it has none).
func (r *Response) Heaviest() Verdict {
	h := Pass
	for _, f := range r.Findings {
		if v := r.FindingVerdict(f); v.Heavier(h) {
			h = v
		}
	}
	return h
}
