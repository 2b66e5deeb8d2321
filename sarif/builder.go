// Package sarif turns findings into one SARIF 2.1.0 run that GitHub code scanning accepts: rules
// from the contract check table and from the gates seen, one located result per finding with
// GitHub's own line fingerprint, fixes for repairs, and GitHub's upload limits enforced.
package sarif

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/agc-sarif/agc-sarif/findings"
)

// srcRoot is the uriBaseId of every location: the repository root. It is declared in
// run.originalUriBaseIds without a uri (the producer does not know where the checkout will be;
// GitHub reads the relative uri against the repository root and ignores the base).
const srcRoot = "%SRCROOT%"

// Log is a built SARIF log, ready to write.
type Log struct {
	data    []byte // the encoded log, as Write writes it
	leftOut []string
	results int
}

// Write writes the log as indented JSON with one compact result per line (no HTML escaping;
// invalid UTF-8 in any string is replaced by U+FFFD, so the output is always valid UTF-8).
func (l *Log) Write(w io.Writer) error {
	if _, err := w.Write(l.data); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}

// WriteFile writes the log to name, replacing any earlier file as a whole (written beside it,
// then renamed, so a reader never sees a half-written or longer older file).
func (l *Log) WriteFile(name string) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("writing SARIF %s: %w", name, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(l.data); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing SARIF %s: %w", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing SARIF %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing SARIF %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("writing SARIF %s: %w", name, err)
	}
	return nil
}

// Bytes returns the encoded log, as Write writes it, without a copy: it is not to be changed.
func (l *Log) Bytes() []byte { return l.data }

// LeftOut returns one human line per thing dropped to stay within GitHub's limits.
func (l *Log) LeftOut() []string { return append([]string(nil), l.leftOut...) }

// Results is the number of results in the log.
func (l *Log) Results() int { return l.results }

// Report decodes the written SARIF document, for readers that want more than the bytes.
func (l *Log) Report() (*gosarif.Report, error) {
	var rep gosarif.Report
	if err := json.Unmarshal(l.data, &rep); err != nil {
		return nil, fmt.Errorf("decoding SARIF: %w", err)
	}
	return &rep, nil
}

// builder holds what one Build call needs.
type builder struct {
	opts    Options
	files   *repoFiles
	notes   []*gosarif.Notification // the builder's own notifications (limits, root)
	leftOut []string
}

// Build turns findings into a SARIF log of one run. Findings are expected anchored (repo-relative
// Location with StartLine ≥ 1) and redacted; one without a usable location is placed at
// opts.Fallback, and left out (and named in LeftOut) when the fallback is unusable too.
func Build(fs []findings.Finding, opts Options) (*Log, error) {
	return build(fs, opts, MaxGzipBytes)
}

func build(fs []findings.Finding, opts Options, maxGzip int) (*Log, error) {
	b := &builder{opts: opts}
	files, err := openRepoFiles(opts.Root)
	if err != nil {
		b.note("warning", fmt.Sprintf("%v; results have no primaryLocationLineHash and no fixes", err))
	}
	b.files = files
	defer files.close()

	items := b.fold(b.place(fs))
	files.buf = nil // the files the results stand in are read: let the buffer go before rendering
	items = b.limitResults(items)
	return b.fit(items, maxGzip)
}

// note adds one of the builder's own notifications.
func (b *builder) note(level, text string) {
	n := gosarif.NewNotification()
	n.Level = level
	n.Message = gosarif.NewTextMessage(text)
	b.notes = append(b.notes, n)
}

// place gives every finding its level and repository path, using the fallback where needed.
func (b *builder) place(fs []findings.Finding) []*item {
	items := make([]*item, 0, len(fs))
	all := make([]item, len(fs)) // one allocation for all of them
	var lost []string
	for i := range fs {
		f := &fs[i]
		it := &all[i]
		*it = item{f: f, order: i, level: resultLevel(f)}
		var why string
		if f.Location == nil {
			why = "the finding has no location"
		} else if p, err := repoPath(f.Location.Path); err != nil {
			why = err.Error()
		} else {
			it.path, it.loc, it.own = p, *f.Location, true
		}
		if !it.own {
			if b.opts.Fallback.Path == "" {
				lost = append(lost, fmt.Sprintf("%s: %s: %s", findings.SourceString(f.Source), f.RuleID, why))
				continue
			}
			p, err := repoPath(b.opts.Fallback.Path)
			if err != nil {
				lost = append(lost, fmt.Sprintf("%s: %s: no location (%s) and no usable fallback (%v)",
					findings.SourceString(f.Source), f.RuleID, why, err))
				continue
			}
			it.path, it.loc, it.fallback = p, b.opts.Fallback, why
		}
		it.loc.StartLine = max(it.loc.StartLine, 1)
		items = append(items, it)
	}
	if len(lost) > 0 {
		what := "no file location and no usable fallback location"
		if b.opts.Fallback.Path == "" {
			what = "they name no file in the repository, and the root holds none of the files they would be placed on instead (no fallback file)"
		}
		b.drop(fmt.Sprintf("%s left out: %s", plural.N(len(lost), "finding", "findings"), what), lost)
	}
	return items
}

// drop records a thing left out: a summary line (also a notification) and detail lines.
func (b *builder) drop(summary string, details []string) {
	b.leftOut = append(b.leftOut, summary)
	for _, d := range details {
		b.leftOut = append(b.leftOut, "  "+d)
	}
	b.note("warning", summary)
}

// heavier orders items for keeping: as leads (level, verdict, count), then input order. It is
// the order fold picks a group's head by and collect's Bound keeps groups by, so a result kept
// while reading is not the first one dropped here.
func heavier(a, b *item) bool {
	if leads(a, b) || leads(b, a) {
		return leads(a, b)
	}
	return a.order < b.order
}

// limitResults keeps the heaviest MaxResults items, in input order.
func (b *builder) limitResults(items []*item) []*item {
	limit := b.opts.MaxResults
	if limit <= 0 {
		limit = DefaultMaxResults
	}
	limit = min(limit, HardMaxResults, MaxRules)
	if len(items) <= limit {
		return items
	}
	kept := b.keepHeaviest(items, limit,
		fmt.Sprintf("%d of %d results left out to stay within GitHub's limit of %d results per run (the lightest by level, verdict, then count)",
			len(items)-limit, len(items), limit))
	return kept
}

// keepHeaviest keeps the n heaviest items (the trusted first, then the heaviest of each gate,
// then heavier: findings.Spread) in input order and records the others by rule.
func (b *builder) keepHeaviest(items []*item, n int, summary string) []*item {
	byWeight := append([]*item(nil), items...)
	// heavier is a total order (input order breaks ties), so an unstable sort is enough.
	slices.SortFunc(byWeight, func(a, b *item) int {
		if heavier(a, b) {
			return -1
		}
		if heavier(b, a) {
			return 1
		}
		return 0
	})
	// The reviewer's results first, then one of each gate before a second of any.
	byWeight = findings.Spread(byWeight, func(it *item) (bool, string) { return it.f.Trusted, it.f.Gate })
	kept, gone := byWeight[:n], byWeight[n:]
	slices.SortFunc(kept, func(a, b *item) int { return cmp.Compare(a.order, b.order) })
	b.drop(summary, perRule(gone))
	return kept
}

// perRule counts dropped items by the ruleId their results would have had, and level:
// "rule g/r: 12 results (note)".
func perRule(gone []*item) []string {
	type key struct {
		rule  string
		level findings.Level
	}
	counts := map[key]int{}
	for _, it := range gone {
		counts[key{resultRuleID(it.f), it.level}]++
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].rule != keys[j].rule {
			return keys[i].rule < keys[j].rule
		}
		return keys[i].level.Weight() > keys[j].level.Weight()
	})
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, fmt.Sprintf("rule %s: %d results (%s)", k.rule, counts[k], k.level))
	}
	return out
}

// fit renders the items and, while the gzipped log is over maxGzip, first drops the Markdown
// bodies of the results, then the lightest results.
func (b *builder) fit(items []*item, maxGzip int) (*Log, error) {
	markdown := true
	for {
		data, err := b.render(items, markdown)
		if err != nil {
			return nil, err
		}
		size, err := gzipSize(data, maxGzip)
		if err != nil {
			return nil, err
		}
		if size <= maxGzip {
			return &Log{data: data, leftOut: b.leftOut, results: len(items)}, nil
		}
		if markdown {
			markdown = false
			b.drop(fmt.Sprintf("message.markdown of all %d results left out: the gzipped SARIF was about %d bytes, over GitHub's limit of %d",
				len(items), size, maxGzip), nil)
			continue
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("SARIF without results is %d bytes gzipped, over the limit of %d", size, maxGzip)
		}
		n := min(len(items)-1, int(float64(len(items))*float64(maxGzip)/float64(size)*0.95))
		items = b.keepHeaviest(items, max(n, 0),
			fmt.Sprintf("%d of %d results left out: the gzipped SARIF was about %d bytes, over GitHub's limit of %d (the lightest by level, verdict, then count)",
				len(items)-max(n, 0), len(items), size, maxGzip))
	}
}

// encode writes rep as indented JSON without HTML escaping.
func encode(rep *gosarif.Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return nil, fmt.Errorf("encoding SARIF: %w", err)
	}
	return buf.Bytes(), nil
}

// normalCategory is the runAutomationDetails.id for a category: "agc/" by default, and with a
// trailing "/" when it has none, so that GitHub reads it as a category and not a run id.
func normalCategory(c string) string {
	c = strings.TrimSpace(c)
	if c == "" {
		return DefaultCategory
	}
	if !strings.Contains(c, "/") {
		c += "/"
	}
	return c
}
