package sarif

import (
	"fmt"
	"net/url"
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

// ContractTableURI is the helpUri of every agc/* rule: the README's table of contract checks.
const ContractTableURI = "https://github.com/agc-sarif/agc-sarif#contract-checks"

// LevelTableURI is the README's table of how verdicts become levels, named in gate rules' help.
const LevelTableURI = "https://github.com/agc-sarif/agc-sarif#levels"

// ruleStats is what the results of one rule id say about it. It holds nothing that changes from
// run to run but the gate's own help link, so the rule's metadata is stable.
type ruleStats struct {
	id      string
	gate    string
	rule    string
	kind    findings.Kind
	helpURI string
}

func (s *ruleStats) add(f *findings.Finding) {
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

// lookupCheck is the row of check id in checks (Options.Checks); nil checks are the shared rows.
func lookupCheck(checks gates.Rows, id string) (gates.Check, bool) {
	if checks == nil {
		return gates.LookupCheck(id)
	}
	return checks.Lookup(id)
}

// descriptor builds the reportingDescriptor of one rule: contract rules from their row in
// checks, gate and hook rules from their gate, rule and kind.
func descriptor(s *ruleStats, checks gates.Rows) *gosarif.ReportingDescriptor {
	if c, ok := lookupCheck(checks, s.id); ok {
		return contractDescriptor(c)
	}
	lvl := kindLevel(s.kind)
	d := gosarif.NewRule(s.id).
		WithName(pascalCase(s.id)).
		WithShortDescription(gosarif.NewMultiformatMessageString(findings.Cut(shortText(s), maxDescription))).
		WithFullDescription(gosarif.NewMultiformatMessageString(findings.Cut(fullText(s), maxDescription))).
		WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel(string(lvl)))
	text, md := helpText(s)
	d.WithTextHelp(text).WithMarkdownHelp(md)
	if s.helpURI != "" {
		d.WithHelpURI(s.helpURI)
	}
	d.WithProperties(ruleProperties(lvl, string(s.kind), s.gate))
	return d
}

// kindLevel is the defaultConfiguration.level of a gate or hook rule, fixed by its kind: the
// level its block gets under the default --fail-on (a judgment block fails the step, a runtime
// or hook block does not). Every result states its own level, which GitHub shows.
func kindLevel(k findings.Kind) findings.Level {
	if k == findings.JudgmentGate {
		return findings.Error
	}
	return findings.Warning
}

// contractDescriptor is the rule of a contract check: plain-text title and description, help
// that stands alone, and a link to the README's table of all checks.
func contractDescriptor(c gates.Check) *gosarif.ReportingDescriptor {
	d := gosarif.NewRule(c.ID).
		WithName(findings.Cut(c.Name, maxRuleName)).
		WithShortDescription(gosarif.NewMultiformatMessageString(findings.Cut(plain(c.Short), maxDescription))).
		WithFullDescription(gosarif.NewMultiformatMessageString(findings.Cut(plain(c.Full), maxDescription))).
		WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel(c.Level)).
		WithHelpURI(ContractTableURI)
	applies := "Applies to: " + bindingText(c.Binding) + ". Severity: " + c.Level +
		" (with the default --fail-on, a breach of severity error fails the step)."
	text := plain(c.Short) + "\n\n" + plain(c.Full) + "\n\nHow to fix: " + plain(c.Fix) + "\n\n" + applies +
		"\n\nAll contract checks: " + ContractTableURI
	md := "**" + c.Short + "**\n\n" + c.Full + "\n\n**How to fix.** " + c.Fix + "\n\n_" + applies +
		"_ All contract checks: <" + ContractTableURI + ">"
	d.WithTextHelp(text).WithMarkdownHelp(md)
	d.WithProperties(ruleProperties(findings.Level(c.Level), string(findings.Contract), c.Binding))
	return d
}

// bindingText says in words where a check applies.
func bindingText(b string) string {
	switch b {
	case "any":
		return "every AGC response"
	case "judgment":
		return "the final message of a judging agent (reviewer, auditor)"
	case "hook":
		return "a guard hook's answer to the runtime"
	}
	return "a " + b + " hook's answer to the runtime"
}

// plain drops the backticks of Markdown code spans, for fields GitHub shows as plain text.
func plain(s string) string { return strings.ReplaceAll(s, "`", "") }

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
	return findings.Cut(b.String(), maxRuleName)
}

// gatePhrase names a gate with its kind: "the runtime gate g (a hook at a tool boundary)";
// code marks the gate's name (Markdown) or not (plain text).
func gatePhrase(k findings.Kind, gate string, code func(string) string) string {
	switch k {
	case findings.JudgmentGate:
		return "the judgment gate " + code(gate) + " (a reviewer, auditor or other judging agent)"
	case findings.Contract:
		return "the contract checks " + code(gate) + " of agc-sarif"
	}
	return "the runtime gate " + code(gate) + " (a hook at a tool boundary)"
}

func asIs(s string) string { return s }

// shortText is the alert title: "code-review: sql-injection", "hook guard.sh: decision without
// an AGC response".
func shortText(s *ruleStats) string {
	if s.kind == findings.Unstructured {
		return "hook " + s.rule + ": decision without an AGC response"
	}
	return s.gate + ": " + s.rule
}

func fullText(s *ruleStats) string {
	if s.kind == findings.Unstructured {
		return "The hook " + s.rule + " refused, rewrote or commented on an AI coding agent's tool call " +
			"without an AGC response (a plain exit-2 block, a bare deny), so no gate or rule is named."
	}
	return "Rule " + s.rule + " of " + gatePhrase(s.kind, s.gate, asIs) +
		": each alert is a verdict it gave on an AI coding agent's work."
}

var verdictHelp = []struct {
	v    gates.Verdict
	text string
}{
	{gates.Block, "block: the gate refused the tool call or the change; the agent had to find another way."},
	{gates.Repaired, "repaired: the gate rewrote the tool call and let the rewritten call run; check the rewrite (the alert shows before and after)."},
	{gates.Steer, "steer: the gate let the call run and told the agent how to go on."},
}

// helpText is the rule's help, the same for every run: what the rule's alerts are, what each
// verdict means, what an alert shows, and how levels are chosen.
func helpText(s *ruleStats) (text, md string) {
	who, whoMD := gatePhrase(s.kind, s.gate, asIs), gatePhrase(s.kind, s.gate, mdCode)
	if s.kind == findings.Unstructured {
		who, whoMD = "the hook "+s.rule+" (no AGC response)", "the hook "+mdCode(s.rule)+" (no AGC response)"
	}
	lead := "Alerts of this rule record decisions that %s took about an AI coding agent's actions."
	var tl, ml []string
	for _, h := range verdictHelp {
		tl = append(tl, "- "+h.text)
		ml = append(ml, "- **"+strings.Replace(h.text, ":", ":**", 1))
	}
	tail := "Each alert names the verdict, the tool call and its command or file, any repair's before and after, " +
		"and the input record it was read from. An alert's level is error when its verdict fails the agc-sarif step " +
		"(the --fail-on option), else warning for a block or repair and note for a steer: " + LevelTableURI
	text = fmt.Sprintf(lead, who) + "\n\n" + strings.Join(tl, "\n") + "\n\n" + tail
	md = fmt.Sprintf(lead, whoMD) + "\n\n" + strings.Join(ml, "\n") + "\n\n" + tail
	if s.helpURI != "" {
		text += "\n\nMore from the gate: " + s.helpURI
		md += "\n\nMore from the gate: <" + s.helpURI + ">"
	}
	return text, md
}
