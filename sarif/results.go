package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
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
	// also are the findings folded into this result: same rule and line hash, lighter or later.
	also []*findings.Finding
	// Made once for the result's text, Markdown and properties (shown, verdictCounts).
	sentences, lines []string
	countKeys        []string
	counts           map[string]int
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

// span is a SARIF region: startLine always, the other fields when not 0.
type span struct{ startLine, startCol, endLine, endCol int }

// appendJSON appends the region as a JSON object.
func (r span) appendJSON(dst []byte) []byte {
	dst = appendKey(append(dst, '{'), "startLine", true)
	dst = strconv.AppendInt(dst, int64(r.startLine), 10)
	for _, kv := range [...]struct {
		k string
		v int
	}{{"startColumn", r.startCol}, {"endLine", r.endLine}, {"endColumn", r.endCol}} {
		if kv.v != 0 {
			dst = strconv.AppendInt(appendKey(dst, kv.k, false), int64(kv.v), 10)
		}
	}
	return append(dst, '}')
}

// region is the SARIF region of loc: startLine always, the rest only when consistent with itself
// and, when the file was read, with the file.
func region(loc findings.Location, fi *fileInfo) span {
	start := max(loc.StartLine, 1)
	r := span{startLine: start}
	end := start
	if loc.EndLine >= start && (!fi.ok || loc.EndLine <= fi.lines()) {
		end = loc.EndLine
		if end > start {
			r.endLine = end
		}
	}
	if loc.StartCol < 1 || (fi.ok && (start > fi.lines() || loc.StartCol > fi.lineLens[start-1]+1)) {
		return r
	}
	r.startCol = loc.StartCol
	if loc.EndCol < 1 || (end == start && loc.EndCol < loc.StartCol) ||
		(fi.ok && (end > fi.lines() || loc.EndCol > fi.lineLens[end-1]+1)) {
		return r
	}
	r.endLine = end
	r.endCol = loc.EndCol
	return r
}

// appendFindingKey appends agcFindingKey/v1 in hexadecimal: SHA-256 of gate, rule, target, path
// and the normalised subject, so that an alert keeps its identity when lines are inserted above it.
func appendFindingKey(dst []byte, it *item) []byte {
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
	var buf [256]byte
	in := buf[:0]
	for _, s := range [...]string{gate, rule, f.Target, keyPath(it), subject} {
		in = append(append(in, s...), 0)
	}
	sum := sha256.Sum256(in)
	return hex.AppendEncode(dst, sum[:])
}

// keyPath is the path the finding key is taken from: the item's, or, for a finding anchored
// away from its first related location, that location's (see findings.Finding.Related).
func keyPath(it *item) string {
	if f := it.f; f.Anchored != "" && len(f.Related) > 0 {
		if p, err := repoPath(f.Related[0].Path); err == nil {
			return p
		}
	}
	return it.path
}

// appendResult appends the SARIF result of one item as compact JSON; ruleIndex is the index of
// its rule in the driver. Keys of objects that are maps in SARIF are written sorted.
func (b *builder) appendResult(dst []byte, it *item, ruleID string, ruleIndex int, markdown bool) []byte {
	f := it.f
	fi := b.files.get(it.path)
	reg := region(it.loc, fi)
	text := messageText(it)
	rel := b.related(f)
	text = linkRelated(text, rel)
	dst = jsonscan.AppendString(appendKey(append(dst, '{'), "ruleId", true), ruleID)
	dst = strconv.AppendInt(appendKey(dst, "ruleIndex", false), int64(ruleIndex), 10)
	dst = jsonscan.AppendString(appendKey(dst, "level", false), string(it.level))
	dst = jsonscan.AppendString(appendKey(append(appendKey(dst, "message", false), '{'), "text", true), text)
	if markdown {
		dst = jsonscan.AppendString(appendKey(dst, "markdown", false), messageMarkdown(it))
	}
	dst = append(dst, `},"locations":[{"physicalLocation":`...)
	uri := uriOf(it.path)
	dst = appendArtifactLocation(append(dst, `{"artifactLocation":`...), uri)
	dst = append(reg.appendJSON(append(dst, `,"region":`...)), '}')
	if f.Target != "" {
		dst = jsonscan.AppendString(append(dst, `,"logicalLocations":[{"fullyQualifiedName":`...), findings.Cut(f.Target, maxProperty))
		dst = append(dst, `,"kind":"member"}]`...)
	}
	dst = append(appendFindingKey(append(dst, `}],"partialFingerprints":{"`+fingerprintKey+`":"`...), it), '"')
	if h, ok := fi.lineHash(reg.startLine); ok {
		dst = jsonscan.AppendString(appendKey(dst, "primaryLocationLineHash", false), h)
	}
	dst = append(dst, '}')
	if len(rel) > 0 {
		dst = appendRelated(append(dst, `,"relatedLocations":`...), rel)
	}
	if b.hasFix(it, reg, fi) {
		dst = appendFix(append(dst, `,"fixes":[`...), it, uri, reg)
		dst = append(dst, ']')
	}
	dst = appendProperties(appendKey(dst, "properties", false), it)
	return append(dst, '}')
}

// maxRelated is how many related locations a result keeps (GitHub takes 1,000 locations).
const maxRelated = 10

// relatedLoc is one related location of a result, with its id in the result (1-based).
type relatedLoc struct {
	id    int
	path  string
	reg   span
	label string // "path:line", as the message names it
}

// related are the finding's related locations that are repository paths (others are left out).
func (b *builder) related(f *findings.Finding) []relatedLoc {
	var out []relatedLoc
	for _, loc := range f.Related {
		p, err := repoPath(loc.Path)
		if err != nil || len(out) == maxRelated {
			continue
		}
		reg := region(loc, b.files.get(p))
		out = append(out, relatedLoc{id: len(out) + 1, path: p, reg: reg, label: p + ":" + strconv.Itoa(reg.startLine)})
	}
	return out
}

// linkRelated links each related location from the message text, as code scanning shows related
// locations only when the message embeds a link to them ("[text](id)", SARIF §3.11.6): where the
// text names "path:line" that becomes the link, else a "Related:" sentence is added.
func linkRelated(text string, rel []relatedLoc) string {
	var extra []string
	for _, r := range rel {
		link := "[" + linkText(r.label) + "](" + strconv.Itoa(r.id) + ")"
		if i := strings.Index(text, r.label); i >= 0 {
			text = text[:i] + link + text[i+len(r.label):]
			continue
		}
		extra = append(extra, link)
	}
	if len(extra) > 0 {
		text += "\nRelated: " + strings.Join(extra, ", ") + "." // one fact per line, as in findings.AlertText
	}
	return text
}

// linkText escapes the characters that would end an embedded link's text.
func linkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// appendRelated appends the relatedLocations array.
func appendRelated(dst []byte, rel []relatedLoc) []byte {
	dst = append(dst, '[')
	for i, r := range rel {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(append(dst, `{"id":`...), int64(r.id), 10)
		dst = appendArtifactLocation(append(dst, `,"physicalLocation":{"artifactLocation":`...), uriOf(r.path))
		dst = append(r.reg.appendJSON(append(dst, `,"region":`...)), '}')
		dst = jsonscan.AppendString(append(dst, `,"message":{"text":`...), r.label)
		dst = append(dst, `}}`...)
	}
	return append(dst, ']')
}

// appendArtifactLocation appends {"uri":uri,"uriBaseId":"%SRCROOT%"}.
func appendArtifactLocation(dst []byte, uri string) []byte {
	dst = jsonscan.AppendString(append(dst, `{"uri":`...), uri)
	return append(dst, `,"uriBaseId":"`+srcRoot+`"}`...)
}

// hasFix says whether the item gets a SARIF fix: a repair that a gate stated for a region of a
// file that exists.
func (b *builder) hasFix(it *item, reg span, fi *fileInfo) bool {
	f := it.f
	return f.Repair != nil && it.own && f.Anchored == "" && fi.ok && reg.startLine <= fi.lines()
}

// appendFix appends the SARIF fix of the item's repair: its region replaced by the repair's after.
func appendFix(dst []byte, it *item, uri string, reg span) []byte {
	gate, rule := ruleParts(it.f)
	dst = jsonscan.AppendString(append(dst, `{"description":{"text":`...), "Apply the repair of gate "+gate+", rule "+rule+".")
	dst = appendArtifactLocation(append(dst, `},"artifactChanges":[{"artifactLocation":`...), uri)
	dst = reg.appendJSON(append(dst, `,"replacements":[{"deletedRegion":`...))
	dst = jsonscan.AppendString(append(dst, `,"insertedContent":{"text":`...), it.f.Repair.After)
	return append(dst, `}}]}]}`...)
}

// messageText is the alert body GitHub shows: findings.AlertText, then why the fallback
// location was used, then what was folded into the result.
func messageText(it *item) string {
	text := findings.AlertText(it.f)
	if it.fallback != "" {
		text += "\n" + findings.Sentence("anchored at the fallback location: "+findings.Cut(it.fallback, maxProperty))
	}
	if len(it.also) == 0 {
		return text
	}
	// One buffer for the text and what was folded into it (not a string of each, then joined).
	var b strings.Builder
	b.Grow(len(text) + foldedTextSize(it))
	b.WriteString(text)
	writeFolded(&b, it)
	return b.String()
}

// messageMarkdown is the alert body: the message and everything the records say about it.
func messageMarkdown(it *item) string {
	f := it.f
	gate, rule := ruleParts(f)
	var b strings.Builder
	size := 768 + len(f.Message)
	_, shown := it.shown()
	for _, l := range shown {
		size += len(l) + 8
	}
	b.Grow(size) // most results fit, without growing the builder a few times
	w := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	w(mdEscape(findings.FirstSentence(f)), "\n\n")
	if f.Verdict != "" {
		w("**Verdict:** ", mdEscape(string(f.Verdict)), " · ")
	}
	w("**Gate:** ", mdCode(gate), " (", mdEscape(string(f.Kind)), ")", " · **Rule:** ", mdCode(rule))
	if f.Target != "" {
		w(" · **Target:** ", mdCode(findings.Cut(f.Target, maxProperty)))
	}
	w("\n")
	if c := f.Call; c != nil {
		sep := "\n**Tool call:** "
		for _, kv := range [...][2]string{{"runtime", c.Runtime}, {"event", c.Event}, {"tool", c.Tool}, {"hook", c.Hook}} {
			if kv[1] != "" {
				w(sep, kv[0], " ", mdCode(findings.Cut(kv[1], maxProperty)))
				sep = ", "
			}
		}
		if sep == ", " {
			w("\n")
		}
		if c.FilePath != "" {
			w("\n**File:** ", mdCode(findings.Cut(c.FilePath, maxProperty)), "\n")
		}
		if c.Command != "" {
			w("\n**Command:**\n\n", mdBlock(findings.Cut(c.Command, maxCodeBlock)), "\n")
		}
	}
	if r := f.Repair; r != nil {
		w("\n**Repair, before:**\n\n", mdBlock(findings.Cut(r.Before, maxCodeBlock)), "\n")
		w("\n**Repair, after:**\n\n", mdBlock(findings.Cut(r.After, maxCodeBlock)), "\n")
	}
	if why := anchoredWhy(it); why != "" {
		w("\n**Why here:** ", mdEscape(why), "\n")
	}
	if f.Count > 1 || f.FirstTime != "" || f.Time != "" {
		w("\n**Seen:** ", seenLine(f), "\n")
	}
	if len(f.Examples) > 0 {
		w("\n**Examples:**\n\n")
		for i, e := range f.Examples {
			if i == maxExamples {
				fmt.Fprintf(&b, "- … %d more\n", len(f.Examples)-maxExamples)
				break
			}
			w("- ", mdCode(findings.SourceString(e.Source)))
			if e.Time != "" {
				w(" ", mdEscape(e.Time))
			}
			if e.Message != "" {
				w(": ", mdEscape(findings.Clip(e.Message, maxMessage)))
			}
			w("\n")
		}
	}
	if f.Source.File != "" {
		w("\n**Source:** ", mdCode(findings.SourceString(f.Source)), "\n")
	}
	if len(it.also) > 0 {
		w("\n**Folded into this alert:**\n\n")
		for _, l := range shown {
			w("- ", mdEscape(l), "\n")
		}
		if len(it.also) > len(shown) {
			fmt.Fprintf(&b, "- … %d more\n", len(it.also)-len(shown))
		}
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
	return findings.Cut(strings.Join(why, "; "), maxProperty)
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

// appendProperties appends the property bag of a result: verdict, gate, kind, count, times, call
// and source, empty values left out, keys sorted.
func appendProperties(dst []byte, it *item) []byte {
	f := it.f
	gate, _ := ruleParts(f)
	first := f.FirstTime
	if first == "" {
		first = f.Time
	}
	var c findings.Call
	if f.Call != nil {
		c = *f.Call
	}
	source := ""
	if f.Source.File != "" {
		source = findings.SourceString(f.Source)
	}
	dst = append(dst, '{')
	n := 0
	put := func(k, v string, always bool) {
		if v == "" && !always {
			return
		}
		if !always {
			v = findings.Cut(v, maxProperty)
		}
		dst = jsonscan.AppendString(appendKey(dst, k, n == 0), v)
		n++
	}
	// In the order of the keys.
	put("aliases", strings.Join(f.Aliases, ", "), false) // other rule ids records of its events gave
	put("anchored", anchoredWhy(it), false)
	put("command", c.Command, false)
	dst = strconv.AppendInt(appendKey(dst, "count", n == 0), int64(max(f.Count, 1)), 10)
	n++
	put("event", c.Event, false)
	put("filePath", c.FilePath, false)
	put("firstTime", first, false)
	if len(it.also) > 0 {
		dst = appendFolded(appendKey(dst, "folded", n == 0), it)
		n++
	}
	put("gate", gate, true)
	put("hook", c.Hook, false)
	put("kind", string(f.Kind), true)
	put("lastTime", f.LastTime, false)
	put("runtime", c.Runtime, false)
	put("sessionId", c.SessionID, false)
	put("severity", string(f.Severity), false)
	put("source", source, false)
	put("sources", strings.Join(f.Sources, ", "), false) // files that reported the same event
	put("target", f.Target, false)
	put("tool", c.Tool, false)
	put("toolUseId", c.ToolUseID, false)
	put("verdict", string(f.Verdict), false)
	if len(it.also) > 0 {
		dst = append(appendKey(dst, "verdictCounts", false), '{')
		keys, counts := verdictCounts(it)
		keys = slices.Sorted(slices.Values(keys))
		for i, k := range keys {
			dst = strconv.AppendInt(appendKey(dst, k, i == 0), int64(counts[k]), 10)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// appendFolded appends the findings folded into a result as an array of objects: count, level,
// message (the first sentence), source, verdict; at most maxFoldedExamples of them.
func appendFolded(dst []byte, it *item) []byte {
	dst = append(dst, '[')
	sentences, _ := it.shown()
	for i, f := range it.also[:len(sentences)] {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(appendKey(append(dst, '{'), "count", true), int64(max(f.Count, 1)), 10)
		dst = jsonscan.AppendString(appendKey(dst, "level", false), string(f.Level))
		dst = jsonscan.AppendString(appendKey(dst, "message", false), findings.Cut(sentences[i], maxProperty))
		dst = jsonscan.AppendString(appendKey(dst, "source", false), findings.Cut(findings.SourceString(f.Source), maxProperty))
		dst = append(jsonscan.AppendString(appendKey(dst, "verdict", false), foldedVerdict(f)), '}')
	}
	return append(dst, ']')
}
