package sarif

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"bytes"
	"fmt"
	"sort"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// semver is SemVer 2.0 (semanticVersion must be one; version may be anything).
var semver = lazyre.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// resultsKey is how the empty results array appears in the indented run, where the results are
// spliced in.
const resultsKey = `"results": []`

// render writes the SARIF log of the items: the run without results is built and encoded
// indented (rules first, so every ruleIndex is right), then the results are written into it,
// one compact JSON object per line.
func (b *builder) render(items []*item, markdown bool) ([]byte, error) {
	rep, err := gosarif.New(gosarif.Version210, true)
	if err != nil {
		return nil, fmt.Errorf("creating SARIF log: %w", err)
	}
	run := gosarif.NewRun(gosarif.Tool{Driver: b.driver()})
	run.WithAutomationDetails(gosarif.NewRunAutomationDetails().WithID(normalCategory(b.opts.Category)))
	run.WithOriginalUriBaseIds(map[string]*gosarif.ArtifactLocation{
		srcRoot: gosarif.NewArtifactLocation().WithDescriptionText("The root of the repository the results are about."),
	})
	run.WithColumnKind("utf16CodeUnits")

	stats := map[string]*ruleStats{}
	ids := make([]string, len(items))
	for i, it := range items {
		id := resultRuleID(it.f)
		ids[i] = id
		s := stats[id]
		if s == nil {
			gate, rule := ruleParts(it.f)
			s = &ruleStats{id: id, gate: gate, rule: rule, kind: it.f.Kind}
			if s.kind == "" {
				s.kind = findings.RuntimeGate
			}
			stats[id] = s
		}
		s.add(it.f)
	}
	ruleIDs := make([]string, 0, len(stats))
	for id := range stats {
		ruleIDs = append(ruleIDs, id)
	}
	sort.Strings(ruleIDs)
	index := make(map[string]int, len(ruleIDs))
	for i, id := range ruleIDs {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, descriptor(stats[id], b.opts.Checks))
		index[id] = i
	}
	run.Results = []*gosarif.Result{}
	run.Invocations = []*gosarif.Invocation{b.invocation()}
	if err := checkRules(run); err != nil {
		return nil, err
	}
	rep.AddRun(run)
	head, err := encode(rep)
	if err != nil {
		return nil, err
	}
	at := bytes.Index(head, []byte(resultsKey))
	if at < 0 || bytes.Count(head, []byte(resultsKey)) != 1 {
		return nil, fmt.Errorf("encoding SARIF: no single place for the results in the run")
	}
	const indent = "\n        "
	out := make([]byte, 0, len(head)+b.resultsSize(items, ids, index, markdown)+len(items)*len(indent))
	out = append(out, head[:at+len(resultsKey)-1]...)
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, indent...)
		out = b.appendResult(out, it, ids[i], index[ids[i]], markdown)
	}
	if len(items) > 0 {
		out = append(out, "\n      "...)
	}
	return append(out, head[at+len(resultsKey)-1:]...), nil
}

// sampledResults is how many results resultsSize renders to estimate the size of all of them.
const sampledResults = 32

// resultsSize estimates the bytes of the items' results from sampledResults of them spread
// over the list (the heaviest come first and say more), so that the log is written into one
// buffer allocated once: growing a buffer of megabytes copied it and kept the old one and the
// new one live at once, which on 25,000 AGC responses pushed the heap to the memory limit
// (extra GC cycles and pages returned and taken again). A short estimate only costs a growth.
func (b *builder) resultsSize(items []*item, ids []string, index map[string]int, markdown bool) int {
	if len(items) <= sampledResults {
		per := 1200
		if markdown {
			per = 2400
		}
		return len(items) * per
	}
	var scratch []byte
	sum := 0
	for k := range sampledResults {
		i := k * len(items) / sampledResults
		scratch = b.appendResult(scratch[:0], items[i], ids[i], index[ids[i]], markdown)
		sum += len(scratch)
	}
	return sum/sampledResults*len(items) + sum/sampledResults*len(items)/16
}

func (b *builder) driver() *gosarif.ToolComponent {
	name := b.opts.ToolName
	if name == "" {
		name = "agc-sarif"
	}
	d := gosarif.NewDriver(name)
	if v := b.opts.ToolVersion; v != "" {
		d.WithVersion(v)
		if semver.MatchString(v) {
			d.WithSemanticVersion(v)
		} else if len(v) > 1 && v[0] == 'v' && semver.MatchString(v[1:]) {
			d.WithSemanticVersion(v[1:])
		}
	}
	if u := b.opts.InformationURI; validHelpURI(u) {
		d.WithInformationURI(u)
	}
	return d
}

// invocation carries the run's success, times and notifications.
func (b *builder) invocation() *gosarif.Invocation {
	inv := gosarif.NewInvocation().WithExecutionSuccess(b.opts.ExecutionSuccessful)
	if !b.opts.Start.IsZero() {
		inv.WithStartTimeUTC(b.opts.Start.UTC())
	}
	if !b.opts.End.IsZero() {
		inv.WithEndTimeUTC(b.opts.End.UTC())
	}
	var notes []*gosarif.Notification
	for i, n := range b.opts.Notifications {
		if i == MaxNotifications {
			extra := gosarif.NewNotification()
			extra.Level = "note"
			extra.Message = gosarif.NewTextMessage(fmt.Sprintf("%s left out (at most %d are written)",
				plural.N(len(b.opts.Notifications)-MaxNotifications, "more notification", "more notifications"), MaxNotifications))
			notes = append(notes, extra)
			break
		}
		notes = append(notes, notification(n))
	}
	notes = append(notes, b.notes...)
	if len(notes) > 0 {
		inv.ToolExecutionNotifications = notes
	}
	return inv
}

func notification(n Notification) *gosarif.Notification {
	out := gosarif.NewNotification()
	switch n.Level {
	case "error", "warning", "note":
		out.Level = n.Level
	default:
		out.Level = "warning"
	}
	text := findings.Cut(n.Message, maxCodeBlock)
	if text == "" {
		text = "(no message)"
	}
	switch {
	case n.File != "" && n.Line > 0:
		text = fmt.Sprintf("%s:%d: %s", n.File, n.Line, text)
	case n.File != "":
		text = n.File + ": " + text
	}
	out.Message = gosarif.NewTextMessage(text)
	return out
}

// checkRules refuses a run whose rules lack what GitHub needs: a name, descriptions and help.
// (Every result is written with a rule id, rule index, level, message and physical location.)
func checkRules(run *gosarif.Run) error {
	for i, r := range run.Tool.Driver.Rules {
		if r.ShortDescription == nil || r.FullDescription == nil || r.Help == nil || r.Name == nil {
			return fmt.Errorf("rule %d (%s): missing name, description or help", i, r.ID)
		}
	}
	return nil
}
