package sarif

import (
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

// foldID is what GitHub merges alerts on: the rule and primaryLocationLineHash (value and
// count), or, when the file cannot be read (no hash), the rule, path and line.
type foldID struct {
	rule   string
	hashed bool
	value  uint64
	nth    uint32
	path   string
	line   int
}

// foldKey is the foldID of an item.
func (b *builder) foldKey(it *item) foldID {
	fi := b.files.get(it.path)
	line := region(it.loc, fi).startLine
	if fi.ok && line >= 1 && line <= fi.hashes.len() {
		return foldID{rule: resultRuleID(it.f), hashed: true, value: fi.hashes.values[line-1], nth: fi.hashes.nth[line-1]}
	}
	return foldID{rule: resultRuleID(it.f), path: it.path, line: line}
}

// fold makes one result of the items that GitHub would merge into one alert (same ruleId and
// primaryLocationLineHash), so that which verdict wins is not left to GitHub: the heaviest item
// stands for the group, at its level and in the place of the group's first item; the others are
// kept in its also and named in its text and properties.
func (b *builder) fold(items []*item) []*item {
	idx := make(map[foldID]int, len(items))
	group := make([]int, len(items)) // the group of each item
	var heads []*item                // each group's first item, then its head
	sizes := []int{}
	for i, it := range items {
		k := b.foldKey(it)
		g, ok := idx[k]
		if !ok {
			g = len(heads)
			idx[k] = g
			heads = append(heads, it)
			sizes = append(sizes, 0)
		}
		group[i] = g
		sizes[g]++
	}
	firsts := make([]int, len(heads))
	for g, it := range heads {
		firsts[g] = it.order
	}
	for i, it := range items { // the head: the first that leads all before it
		if g := group[i]; it != heads[g] && leads(it, heads[g]) {
			heads[g] = it
		}
	}
	for g, head := range heads {
		if sizes[g] > 1 {
			head.also = make([]*findings.Finding, 0, sizes[g]-1)
		}
	}
	for i, it := range items {
		if head := heads[group[i]]; it != head {
			head.also = append(head.also, it.f)
		}
	}
	for g, head := range heads {
		head.order = firsts[g]
	}
	return ownItems(heads, len(items))
}

// ownItems moves the heads into an array of their own when they are fewer than half of the n
// items place made in one array, so that the folded items (their findings are kept in also) do
// not stay live through rendering: on 25,000 AGC responses, 2,198 of 15,000 items, 3 MB less.
func ownItems(heads []*item, n int) []*item {
	if len(heads) >= n/2 {
		return heads
	}
	own := make([]item, len(heads))
	for i, head := range heads {
		own[i] = *head
		heads[i] = &own[i]
	}
	return heads
}

// leads says whether a should stand for a group instead of b: trusted (a reviewer's) first,
// then heavier level, then heavier verdict, then more events; b (the earlier) otherwise.
func leads(a, b *item) bool {
	if a.f.Trusted != b.f.Trusted {
		return a.f.Trusted
	}
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

// writeFolded writes to t the part of message.text that names what was folded into the result
// (nothing when nothing was): a newline, the count per verdict, then one line per folded finding
// (its verdict, first sentence, tool call or repair, and where it was recorded).
func writeFolded(t *strings.Builder, it *item) {
	if len(it.also) == 0 {
		return
	}
	keys, counts := verdictCounts(it)
	total := 0
	for _, k := range keys {
		total += counts[k]
	}
	_, shown := it.shown()
	w := func(parts ...string) {
		for _, p := range parts {
			t.WriteString(p)
		}
	}
	w("\nThis alert stands for ", strconv.Itoa(total), " events of this rule on this line: ")
	for i, k := range keys {
		if i > 0 {
			w(", ")
		}
		w(k, " ", strconv.Itoa(counts[k]))
	}
	w(".")
	for _, l := range shown {
		w("\nAlso ", l)
	}
	if len(it.also) > len(shown) {
		w("\n… and ", strconv.Itoa(len(it.also)-len(shown)), " more (in the result's properties, folded)")
	}
}

// foldedTextSize is about the bytes writeFolded writes (a little more, for the counts).
func foldedTextSize(it *item) int {
	if len(it.also) == 0 {
		return 0
	}
	_, shown := it.shown()
	size := 160
	for _, l := range shown {
		size += len(l) + 6
	}
	return size
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
