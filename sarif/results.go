package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agc-sarif/agc-sarif/findings"
)

// Caps on text taken from findings, so that one hostile record cannot fill the upload.
const (
	maxMessage   = 1000 // runes of message.text taken from the finding
	maxCodeBlock = 4000 // runes of a command, repair side or example in message.markdown
	maxProperty  = 1000 // runes of a property value
	maxExamples  = 3
)

// fingerprintKey names our own line-independent partial fingerprint.
const fingerprintKey = "agcFindingKey/v1"

// item is one finding on its way to becoming a result.
type item struct {
	f        *findings.Finding
	order    int            // position in the input
	level    findings.Level // level of the result
	path     string         // clean repository-relative path
	loc      findings.Location
	own      bool   // loc is the finding's own location, not the fallback
	fallback string // why the fallback was used ("" when own)
}

// resultLevel is the finding's level, else its verdict's, else its check's, else warning.
func resultLevel(f *findings.Finding) findings.Level {
	if f.Level.Weight() > 0 {
		return f.Level
	}
	if l := findings.DefaultLevel(f.Verdict); l != "" {
		return l
	}
	return findings.Warning
}

// region is the SARIF region of loc: startLine always, the rest only when consistent with itself
// and, when the file was read, with the file.
func region(loc findings.Location, fi *fileInfo) *gosarif.Region {
	r := gosarif.NewRegion().WithStartLine(max(loc.StartLine, 1))
	start := max(loc.StartLine, 1)
	end := start
	if loc.EndLine >= start && (!fi.ok || loc.EndLine <= fi.lines()) {
		end = loc.EndLine
		if end > start {
			r.WithEndLine(end)
		}
	}
	if loc.StartCol < 1 || (fi.ok && (start > fi.lines() || loc.StartCol > fi.lineLens[start-1]+1)) {
		return r
	}
	r.WithStartColumn(loc.StartCol)
	if loc.EndCol < 1 || (end == start && loc.EndCol < loc.StartCol) ||
		(fi.ok && (end > fi.lines() || loc.EndCol > fi.lineLens[end-1]+1)) {
		return r
	}
	if end == start {
		r.WithEndLine(end)
	}
	return r.WithEndColumn(loc.EndCol)
}

// findingKey is agcFindingKey/v1: SHA-256 of gate, rule, target, path and the normalised subject,
// so that an alert keeps its identity when lines are inserted above it.
func findingKey(it *item) string {
	f := it.f
	gate, rule := ruleParts(f)
	subject := ""
	if c := f.Call; c != nil {
		what := c.Command
		if what == "" {
			what = c.FilePath
		}
		subject = strings.Join(strings.Fields(c.Tool+" "+what), " ")
	}
	h := sha256.New()
	for _, s := range []string{gate, rule, f.Target, it.path, subject} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// result builds the SARIF result of one item; ruleIndex is the index of its rule in the driver.
func (b *builder) result(it *item, ruleID string, ruleIndex int, markdown bool) *gosarif.Result {
	f := it.f
	fi := b.files.get(it.path)
	reg := region(it.loc, fi)
	res := gosarif.NewRuleResult(ruleID).WithRuleIndex(ruleIndex).WithLevel(string(it.level))
	msg := &gosarif.Message{}
	text := messageText(f)
	if why := anchoredWhy(it); why != "" {
		text += " " + sentence(why) // GitHub shows only message.text: say why the alert stands here
	}
	msg.Text = &text
	if markdown {
		md := messageMarkdown(it)
		msg.Markdown = &md
	}
	res.WithMessage(msg)
	al := gosarif.NewSimpleArtifactLocation(uriOf(it.path)).WithUriBaseId(srcRoot)
	loc := gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().WithArtifactLocation(al).WithRegion(reg))
	if f.Target != "" {
		loc.WithLogicalLocations([]*gosarif.LogicalLocation{
			gosarif.NewLogicalLocation().WithFullyQualifiedName(cut(f.Target, maxProperty)).WithKind("member")})
	}
	res.WithLocations([]*gosarif.Location{loc})
	fps := map[string]interface{}{fingerprintKey: findingKey(it)}
	if line := *reg.StartLine; fi.ok && line <= len(fi.hashes) {
		fps["primaryLocationLineHash"] = fi.hashes[line-1]
	}
	res.WithPartialFingerPrints(fps)
	res.Properties = resultProperties(it)
	if fix := b.fix(it, reg, fi); fix != nil {
		res.Fixes = []*gosarif.Fix{fix}
	}
	return res
}

// fix is the SARIF fix of a repair that a gate stated for a region of a file that exists.
func (b *builder) fix(it *item, reg *gosarif.Region, fi *fileInfo) *gosarif.Fix {
	f := it.f
	if f.Repair == nil || !it.own || f.Anchored != "" || !fi.ok || *reg.StartLine > fi.lines() {
		return nil
	}
	gate, rule := ruleParts(f)
	deleted := *reg
	text := f.Repair.After
	change := gosarif.NewArtifactChange(gosarif.NewSimpleArtifactLocation(uriOf(it.path)).WithUriBaseId(srcRoot)).
		WithReplacement(gosarif.NewReplacement(&deleted).WithInsertedContent(gosarif.NewArtifactContent().WithText(text)))
	return gosarif.NewFix().
		WithDescriptionText(fmt.Sprintf("Apply the repair of gate %s, rule %s.", gate, rule)).
		WithArtifactChanges([]*gosarif.ArtifactChange{change})
}

// messageText is the alert title: the finding's message, then the count when it stands for
// several events.
func messageText(f *findings.Finding) string {
	text := strings.Join(strings.Fields(f.Message), " ")
	if text == "" {
		gate, rule := ruleParts(f)
		text = fmt.Sprintf("Gate %s reported rule %s.", gate, rule)
	}
	text = cut(text, maxMessage)
	if f.Count > 1 {
		text += fmt.Sprintf(" (seen %d times)", f.Count)
	}
	return text
}

// messageMarkdown is the alert body: the message and everything the records say about it.
func messageMarkdown(it *item) string {
	f := it.f
	gate, rule := ruleParts(f)
	var b strings.Builder
	b.WriteString(mdEscape(cut(strings.Join(strings.Fields(f.Message), " "), maxMessage)))
	if f.Message == "" {
		b.WriteString(mdEscape(messageText(f)))
	}
	b.WriteString("\n\n")
	head := []string{}
	if f.Verdict != "" {
		head = append(head, "**Verdict:** "+mdEscape(string(f.Verdict)))
	}
	head = append(head, "**Gate:** "+mdCode(gate)+" ("+mdEscape(string(f.Kind))+")", "**Rule:** "+mdCode(rule))
	if f.Target != "" {
		head = append(head, "**Target:** "+mdCode(cut(f.Target, maxProperty)))
	}
	b.WriteString(strings.Join(head, " · ") + "\n")
	if c := f.Call; c != nil {
		var parts []string
		for _, kv := range [][2]string{{"runtime", c.Runtime}, {"event", c.Event}, {"tool", c.Tool}, {"hook", c.Hook}} {
			if kv[1] != "" {
				parts = append(parts, kv[0]+" "+mdCode(cut(kv[1], maxProperty)))
			}
		}
		if len(parts) > 0 {
			b.WriteString("\n**Tool call:** " + strings.Join(parts, ", ") + "\n")
		}
		if c.FilePath != "" {
			b.WriteString("\n**File:** " + mdCode(cut(c.FilePath, maxProperty)) + "\n")
		}
		if c.Command != "" {
			b.WriteString("\n**Command:**\n\n" + mdBlock(cut(c.Command, maxCodeBlock)) + "\n")
		}
	}
	if r := f.Repair; r != nil {
		b.WriteString("\n**Repair, before:**\n\n" + mdBlock(cut(r.Before, maxCodeBlock)) + "\n")
		b.WriteString("\n**Repair, after:**\n\n" + mdBlock(cut(r.After, maxCodeBlock)) + "\n")
	}
	if why := anchoredWhy(it); why != "" {
		b.WriteString("\n**Why here:** " + mdEscape(why) + "\n")
	}
	if f.Count > 1 || f.FirstTime != "" || f.Time != "" {
		b.WriteString("\n**Seen:** " + seenLine(f) + "\n")
	}
	if len(f.Examples) > 0 {
		b.WriteString("\n**Examples:**\n\n")
		for i, e := range f.Examples {
			if i == maxExamples {
				fmt.Fprintf(&b, "- … %d more\n", len(f.Examples)-maxExamples)
				break
			}
			line := "- " + mdCode(sourceString(e.Source))
			if e.Time != "" {
				line += " " + mdEscape(e.Time)
			}
			if e.Message != "" {
				line += ": " + mdEscape(cut(strings.Join(strings.Fields(e.Message), " "), maxMessage))
			}
			b.WriteString(line + "\n")
		}
	}
	if f.Source.File != "" {
		b.WriteString("\n**Source:** " + mdCode(sourceString(f.Source)) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// anchoredWhy says why the result stands where it stands, when that is not where the event was.
func anchoredWhy(it *item) string {
	var why []string
	if it.f.Anchored != "" {
		why = append(why, it.f.Anchored)
	}
	if it.fallback != "" {
		why = append(why, "anchored at the fallback location: "+it.fallback)
	}
	return cut(strings.Join(why, "; "), maxProperty)
}

// sentence makes s start with a capital letter and end with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func seenLine(f *findings.Finding) string {
	s := fmt.Sprintf("%d time", max(f.Count, 1))
	if f.Count > 1 {
		s += "s"
	}
	first, last := f.FirstTime, f.LastTime
	if first == "" {
		first = f.Time
	}
	if first != "" {
		s += ", first " + mdEscape(first)
	}
	if last != "" && last != first {
		s += ", last " + mdEscape(last)
	}
	return s
}

func sourceString(s findings.Source) string {
	if s.Line > 0 {
		return s.File + ":" + strconv.Itoa(s.Line)
	}
	return s.File
}

// resultProperties is the property bag of a result: verdict, gate, kind, count, times, call and
// source, empty values left out.
func resultProperties(it *item) gosarif.Properties {
	f := it.f
	gate, _ := ruleParts(f)
	p := gosarif.Properties{"gate": gate, "kind": string(f.Kind), "count": max(f.Count, 1)}
	set := func(k, v string) {
		if v != "" {
			p[k] = cut(v, maxProperty)
		}
	}
	set("verdict", string(f.Verdict))
	set("target", f.Target)
	first := f.FirstTime
	if first == "" {
		first = f.Time
	}
	set("firstTime", first)
	set("lastTime", f.LastTime)
	if c := f.Call; c != nil {
		set("runtime", c.Runtime)
		set("event", c.Event)
		set("tool", c.Tool)
		set("toolUseId", c.ToolUseID)
		set("sessionId", c.SessionID)
		set("hook", c.Hook)
		set("command", c.Command)
		set("filePath", c.FilePath)
	}
	set("anchored", anchoredWhy(it))
	if f.Source.File != "" {
		set("source", sourceString(f.Source))
	}
	return p
}
