package sarif

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// GitHub's limits on rule metadata.
const (
	maxRuleName    = 255
	maxDescription = 1024
	maxTags        = 10
)

// ruleStats is what the kept results of one rule id say about it.
type ruleStats struct {
	id       string
	gate     string
	rule     string
	kind     findings.Kind
	level    findings.Level // heaviest level among its results
	verdicts map[gates.Verdict]int
	helpURI  string
}

func (s *ruleStats) add(f *findings.Finding, lvl findings.Level) {
	if lvl.Weight() > s.level.Weight() {
		s.level = lvl
	}
	if f.Verdict.Valid() {
		s.verdicts[f.Verdict] += max(f.Count, 1)
	}
	if s.helpURI == "" && validHelpURI(f.HelpURI) {
		s.helpURI = f.HelpURI
	}
}

// validHelpURI accepts only absolute http and https URLs.
func validHelpURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && validUTF8(s) &&
		!strings.ContainsFunc(s, unicode.IsSpace) && !strings.ContainsAny(s, "<>\"`")
}

// ruleParts splits a rule id "<gate>/<rule>" when the finding does not name its gate and rule.
func ruleParts(f *findings.Finding) (gate, rule string) {
	gate, rule = f.Gate, f.Rule
	g, r, ok := strings.Cut(f.RuleID, "/")
	if gate == "" {
		gate = g
	}
	if rule == "" && ok {
		rule = r
	}
	if rule == "" {
		rule = f.RuleID
	}
	return gate, rule
}

// descriptor builds the reportingDescriptor of one rule: contract rules from the check table,
// gate and hook rules from what their results say.
func descriptor(s *ruleStats) *gosarif.ReportingDescriptor {
	if c, ok := gates.LookupCheck(s.id); ok {
		return contractDescriptor(c)
	}
	d := gosarif.NewRule(s.id).
		WithName(pascalCase(s.id)).
		WithShortDescription(gosarif.NewMultiformatMessageString(cut(shortText(s), maxDescription))).
		WithFullDescription(gosarif.NewMultiformatMessageString(cut(fullText(s), maxDescription))).
		WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel(string(s.level)))
	text, md := helpText(s)
	d.WithTextHelp(text).WithMarkdownHelp(md)
	if s.helpURI != "" {
		d.WithHelpURI(s.helpURI)
	}
	d.WithProperties(ruleProperties(s.level, string(s.kind), s.gate))
	return d
}

func contractDescriptor(c gates.Check) *gosarif.ReportingDescriptor {
	d := gosarif.NewRule(c.ID).
		WithName(cut(c.Name, maxRuleName)).
		WithShortDescription(gosarif.NewMultiformatMessageString(cut(c.Short, maxDescription))).
		WithFullDescription(gosarif.NewMultiformatMessageString(cut(c.Full, maxDescription))).
		WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel(c.Level))
	text := c.Short + "\n\n" + c.Full + "\n\nFix: " + c.Fix + "\n\nBinding: " + c.Binding + ". Source: " + c.SpecNote
	md := "**" + c.Short + "**\n\n" + c.Full + "\n\n**How to fix.** " + c.Fix +
		"\n\n_Binding: " + c.Binding + ". Source: " + c.SpecNote + "_"
	d.WithTextHelp(text).WithMarkdownHelp(md)
	d.WithProperties(ruleProperties(findings.Level(c.Level), string(findings.Contract), c.Binding))
	return d
}

// ruleProperties is the property bag GitHub reads: tags (at most 10), precision, problem.severity.
func ruleProperties(lvl findings.Level, tags ...string) gosarif.Properties {
	ts := []string{"agc"}
	for _, t := range tags {
		if t != "" && !contains(ts, t) && len(ts) < maxTags {
			ts = append(ts, t)
		}
	}
	return gosarif.Properties{
		"tags":             ts,
		"precision":        "very-high",
		"problem.severity": problemSeverity(lvl),
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func problemSeverity(l findings.Level) string {
	switch l {
	case findings.Error:
		return "error"
	case findings.Warning:
		return "warning"
	}
	return "recommendation"
}

// pascalCase names a rule id for reportingDescriptor.name: "gate/some-rule" → "GateSomeRule".
func pascalCase(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "Rule"
	}
	return cut(b.String(), maxRuleName)
}

// gatePhrase names a gate with its kind: "the runtime gate `g` (a hook at a tool boundary)".
func gatePhrase(k findings.Kind, gate string) string {
	switch k {
	case findings.JudgmentGate:
		return "the judgment gate " + mdCode(gate) + " (a reviewer, auditor or other judging agent)"
	case findings.Contract:
		return "the contract checks " + mdCode(gate) + " of agc-sarif"
	}
	return "the runtime gate " + mdCode(gate) + " (a hook at a tool boundary)"
}

func shortText(s *ruleStats) string {
	if s.kind == findings.Unstructured {
		return fmt.Sprintf("Decisions of hook %s that carried no AGC response.", mdCode(s.rule))
	}
	return fmt.Sprintf("Findings of gate %s, rule %s.", mdCode(s.gate), mdCode(s.rule))
}

func fullText(s *ruleStats) string {
	seen := verdictList(s.verdicts)
	if s.kind == findings.Unstructured {
		return fmt.Sprintf("The hook %s refused or changed an agent's tool call without an AGC response "+
			"(a plain exit-2 block, a bare deny), so no gate or rule is named. Verdicts seen: %s.", mdCode(s.rule), seen)
	}
	return fmt.Sprintf("Rule %s of %s. Verdicts seen: %s.", mdCode(s.rule), gatePhrase(s.kind, s.gate), seen)
}

// verdictList renders the verdicts seen, heaviest first, with counts: "block (3), steer (1)".
func verdictList(vs map[gates.Verdict]int) string {
	keys := make([]gates.Verdict, 0, len(vs))
	for v := range vs {
		keys = append(keys, v)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Heavier(keys[j]) })
	parts := make([]string, 0, len(keys))
	for _, v := range keys {
		parts = append(parts, fmt.Sprintf("%s (%d)", v, vs[v]))
	}
	if len(parts) == 0 {
		return "none stated"
	}
	return strings.Join(parts, ", ")
}

var verdictHelp = []struct {
	v    gates.Verdict
	text string
}{
	{gates.Block, "block: the gate refused the tool call; the agent had to find another way."},
	{gates.Repaired, "repaired: the gate rewrote the tool call and let the rewritten call run; check the rewrite (before and after are in the alert)."},
	{gates.Steer, "steer: the gate let the call run and told the agent how to go on."},
}

func helpText(s *ruleStats) (text, md string) {
	who := gatePhrase(s.kind, s.gate)
	if s.kind == findings.Unstructured {
		who = fmt.Sprintf("the hook %s (no AGC response)", mdCode(s.rule))
	}
	lead := fmt.Sprintf("Alerts of this rule record decisions that %s took about an AI coding agent's actions.", who)
	var tl, ml []string
	for _, h := range verdictHelp {
		if s.verdicts[h.v] > 0 {
			tl = append(tl, "- "+h.text)
			ml = append(ml, "- **"+strings.Replace(h.text, ":", ":**", 1))
		}
	}
	tail := "Each alert names the tool call, the command or file, any repair, and the input record it was read from."
	text = lead + "\n\n" + strings.Join(tl, "\n") + "\n\n" + tail
	md = lead + "\n\n" + strings.Join(ml, "\n") + "\n\n" + tail
	if len(tl) == 0 {
		text, md = lead+"\n\n"+tail, lead+"\n\n"+tail
	}
	if s.helpURI != "" {
		text += "\n\nMore: " + s.helpURI
		md += "\n\nMore: <" + s.helpURI + ">"
	}
	return text, md
}
