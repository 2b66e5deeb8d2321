package findings

import (
	"github.com/agc-sarif/agc-sarif/gates"
)

// FromResponse turns an AGC response into findings, one per gate finding whose verdict is not
// pass. base carries what the reader knows of the record (Source, Call, EventKey, Time); its
// Kind, rule and verdict fields are overwritten.
func FromResponse(r *gates.Response, base Finding) []Finding {
	return AppendFromResponse(nil, r, base)
}

// AppendFromResponse is FromResponse appending to out, for a reader that reuses one slice from
// record to record (a Finding is 384 bytes: a slice made per response was a third of what
// reading 25,000 AGC responses allocated outside the set).
func AppendFromResponse(out []Finding, r *gates.Response, base Finding) []Finding {
	kind := RuntimeGate
	if r.Gate.Kind == gates.Judgment {
		kind = JudgmentGate
	}
	if base.Time == "" {
		base.Time = r.At
	}
	for _, gf := range r.Findings {
		v := r.FindingVerdict(gf)
		if v == gates.Pass || !v.Valid() {
			continue
		}
		f := base
		f.Gate, f.Rule, f.Target = r.Gate.ID, gf.Rule, gf.Target
		f.RuleID = r.Gate.ID + "/" + gf.Rule
		f.Kind = kind
		f.Verdict = v
		f.Level = DefaultLevel(v)
		f.Severity = ""
		if l := Level(gf.Severity); l.Weight() > 0 {
			f.Level, f.Severity = l, l
		}
		f.Message = gf.Message
		f.HelpURI = gf.HelpURI
		if gf.Location != nil && gf.Location.Path != "" {
			f.Location = &Location{Path: gf.Location.Path, StartLine: gf.Location.Line,
				EndLine: gf.Location.EndLine, StartCol: gf.Location.Column, EndCol: gf.Location.EndColumn}
		}
		if gf.Repair != nil {
			f.Repair = &Repair{Before: gf.Repair.Before, After: gf.Repair.After}
		}
		if r.Subject != nil {
			c := Call{}
			if base.Call != nil {
				c = *base.Call
			}
			fill(&c.Runtime, r.Subject.Runtime)
			fill(&c.Event, r.Subject.Event)
			fill(&c.Tool, r.Subject.Tool)
			fill(&c.ToolUseID, r.Subject.ToolUseID)
			fill(&c.SessionID, r.Subject.SessionID)
			f.Call = &c
		}
		out = append(out, f)
	}
	return out
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// FromBreach turns a contract breach into a finding under rule agc/<check>, at the check's
// default level: the level of its shared row, or of its row in own, the rows of the binding that
// reported it (Binding.Rows). base carries Source, Call, EventKey and Time as in FromResponse.
func FromBreach(b gates.Breach, base Finding, own ...gates.Rows) Finding {
	f := base
	f.RuleID = b.Check
	f.Gate = "agc"
	f.Rule = b.Check[len("agc/"):]
	f.Target = ""
	f.Kind = Contract
	f.Verdict = ""
	f.Level = Error
	if c, ok := gates.LookupCheck(b.Check); ok {
		f.Level = Level(c.Level)
	}
	for _, rows := range own {
		if c, ok := rows.Lookup(b.Check); ok {
			f.Level = Level(c.Level)
		}
	}
	f.Severity = f.Level
	f.Message = b.Message
	if b.Line > 0 {
		f.Source.Line += b.Line - 1
	}
	f.Repair = nil
	return f
}
