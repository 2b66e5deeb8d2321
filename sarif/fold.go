package sarif

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// maxFoldedExamples is how many folded findings a result names in its text and properties.
const maxFoldedExamples = 10

// resultRuleID is the ruleId of a finding's result: its RuleID, else "<gate>/<rule>", else
// "agc/unknown".
func resultRuleID(f *findings.Finding) string {
	if f.RuleID != "" {
		return f.RuleID
	}
	gate, rule := ruleParts(f)
	if gate == "" || rule == "" {
		return "agc/unknown"
	}
	return gate + "/" + rule
}

// foldKey is what GitHub merges alerts on: the rule and primaryLocationLineHash, or, when the
// file cannot be read (no hash), the rule, path and line.
func (b *builder) foldKey(it *item) string {
	fi := b.files.get(it.path)
	line := region(it.loc, fi).startLine
	if h, ok := fi.lineHash(line); ok {
		return resultRuleID(it.f) + "\x00hash\x00" + h
	}
	return fmt.Sprintf("%s\x00at\x00%s\x00%d", resultRuleID(it.f), it.path, line)
}

// fold makes one result of the items that GitHub would merge into one alert (same ruleId and
// primaryLocationLineHash), so that which verdict wins is not left to GitHub: the heaviest item
// stands for the group, at its level and in the place of the group's first item; the others are
// kept in its also and named in its text and properties.
func (b *builder) fold(items []*item) []*item {
	idx := map[string]int{}
	var groups [][]*item
	for _, it := range items {
		k := b.foldKey(it)
		if i, ok := idx[k]; ok {
			groups[i] = append(groups[i], it)
			continue
		}
		idx[k] = len(groups)
		groups = append(groups, []*item{it})
	}
	out := make([]*item, 0, len(groups))
	for _, g := range groups {
		head := g[0]
		for _, it := range g[1:] {
			if leads(it, head) {
				head = it
			}
		}
		for _, it := range g {
			if it != head {
				head.also = append(head.also, it.f)
			}
		}
		head.order = g[0].order
		out = append(out, head)
	}
	return out
}

// leads says whether a should stand for a group instead of b: heavier level, then heavier
// verdict, then more events; b (the earlier) otherwise.
func leads(a, b *item) bool {
	if wa, wb := a.level.Weight(), b.level.Weight(); wa != wb {
		return wa > wb
	}
	if a.f.Verdict != b.f.Verdict {
		return a.f.Verdict.Heavier(b.f.Verdict)
	}
	return a.f.Count > b.f.Count
}

// verdictCounts counts the events of a folded result per verdict ("contract" for breaches),
// heaviest first: "block 1, repaired 2". It is counted once per item; keys is not to be changed.
func verdictCounts(it *item) (keys []string, counts map[string]int) {
	if it.counts != nil {
		return it.countKeys, it.counts
	}
	counts = map[string]int{}
	for i := -1; i < len(it.also); i++ {
		f := it.f
		if i >= 0 {
			f = it.also[i]
		}
		k := string(f.Verdict)
		switch {
		case f.Kind == findings.Contract:
			k = "contract"
		case k == "":
			k = "unstated"
		}
		if counts[k] == 0 {
			keys = append(keys, k)
		}
		counts[k] += max(f.Count, 1)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		return gates.Verdict(keys[i]).Weight() > gates.Verdict(keys[j]).Weight()
	})
	it.countKeys, it.counts = keys, counts
	return keys, counts
}

// shown is what the result says of the folded findings it names (at most maxFoldedExamples):
// the first sentence of each and its line (foldedLine), made once for the text, the Markdown
// and the properties alike.
func (it *item) shown() (sentences, lines []string) {
	if it.sentences == nil && len(it.also) > 0 {
		n := min(len(it.also), maxFoldedExamples)
		it.sentences, it.lines = make([]string, n), make([]string, n)
		for i, f := range it.also[:n] {
			it.sentences[i] = findings.FirstSentence(f)
			it.lines[i] = foldedLine(f, it.sentences[i])
		}
	}
	return it.sentences, it.lines
}

// foldedText is the part of message.text that names what was folded into the result: the count
// per verdict, then one line per folded finding (its verdict, first sentence, tool call or
// repair, and where it was recorded).
func foldedText(it *item) string {
	if len(it.also) == 0 {
		return ""
	}
	keys, counts := verdictCounts(it)
	parts := make([]string, len(keys))
	total := 0
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
		total += counts[k]
	}
	lines := []string{fmt.Sprintf("This alert stands for %d events of this rule on this line: %s.", total, strings.Join(parts, ", "))}
	_, shown := it.shown()
	for _, l := range shown {
		lines = append(lines, "Also "+l)
	}
	if len(it.also) > len(shown) {
		lines = append(lines, fmt.Sprintf("… and %d more (in the result's properties, folded)", len(it.also)-len(shown)))
	}
	return strings.Join(lines, "\n")
}

// foldedLine describes one folded finding on one line; sentence is its findings.FirstSentence.
func foldedLine(f *findings.Finding, sentence string) string {
	b := make([]byte, 0, 64+len(sentence))
	b = append(append(append(b, foldedVerdict(f)...), ": "...), sentence...)
	if r := findings.RepairLine(f.Repair); r != "" {
		b = append(append(append(b, ' '), r...), '.')
	} else if c := findings.CallLine(f.Call); c != "" {
		b = append(append(append(b, ' '), c...), '.')
	}
	if f.Count > 1 {
		b = append(strconv.AppendInt(append(b, " Seen "...), int64(f.Count), 10), " times."...)
	}
	if f.Source.File != "" {
		b = append(append(b, " Recorded at "...), f.Source.File...)
		if f.Source.Line > 0 { // as findings.SourceString
			b = strconv.AppendInt(append(b, ':'), int64(f.Source.Line), 10)
		}
		b = append(b, '.')
	}
	return string(b)
}

// foldedVerdict names a folded finding's verdict, or its kind when it has none (a contract
// breach), in its text line and its properties alike.
func foldedVerdict(f *findings.Finding) string {
	if f.Verdict == "" {
		return string(f.Kind)
	}
	return string(f.Verdict)
}
