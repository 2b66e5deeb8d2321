package sarif

import (
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// FindingKey is the finding's agcFindingKey/v1, as its SARIF result carries it in
// partialFingerprints, for a finding whose location is a repository path; "" otherwise.
func FindingKey(f *findings.Finding) string {
	if f.Location == nil {
		return ""
	}
	p, err := repoPath(f.Location.Path)
	if err != nil {
		return ""
	}
	return string(appendFindingKey(nil, &item{f: f, path: p, own: true}))
}

// RuleTitle is the shortDescription of the finding's rule, as the SARIF's rules[] states it when
// built with Options.Checks checks.
func RuleTitle(checks gates.Rows, f *findings.Finding) string {
	id := resultRuleID(f)
	if c, ok := lookupCheck(checks, id); ok {
		return findings.Cut(plain(c.Short), maxDescription)
	}
	gate, rule := ruleParts(f)
	s := &ruleStats{id: id, gate: gate, rule: rule, kind: f.Kind}
	if s.kind == "" {
		s.kind = findings.RuntimeGate
	}
	return findings.Cut(shortText(s), maxDescription)
}
