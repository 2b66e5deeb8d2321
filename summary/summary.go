// Package summary renders findings as the GitHub job summary: GitHub Markdown of at most 1 MiB
// that opens with why the step failed, then totals per verdict and per gate, a pie of verdicts,
// every finding grouped (on this change's lines, elsewhere in the repository, session events)
// heaviest first and linked to its line, how to fix each contract finding, and what was skipped.
package summary

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/internal/plural"
)

// Limit is the largest job summary GitHub accepts from one step.
const Limit = 1 << 20

// DefaultRows is how many findings each group lists unless told otherwise.
const DefaultRows = 50

// maxListed bounds the problems, skip reasons and left-out notes listed.
const maxListed = 20

// maxFailing bounds the findings listed under "Why this step failed".
const maxFailing = 100

// maxAlert bounds a finding's full alert text in a group's details, in runes, before escaping.
const maxAlert = 1200

// maxFailSentence bounds the gate's sentence of a finding under "Why this step failed", in runes.
const maxFailSentence = 200

// maxRow is the longest table row the summary writes, in bytes: a row is one line a reader scans.
const maxRow = 400

// Input is what the summary shows.
type Input struct {
	Findings []findings.Finding
	Set      *findings.Set // reading counts, skips and problems; may be nil
	LeftOut  []string      // what was dropped to stay inside GitHub's limits
	Missing  []string      // inputs that could not be read
	Failed   []string      // fail-on outcomes found
	// ServerURL, Repo ("owner/name") and SHA make links to lines; without them paths are plain.
	ServerURL, Repo, SHA string
	SARIFFile            string // where the SARIF was written
	Upload               string // one line on the upload to code scanning ("" when none was tried)
	// Fails picks the findings that decide exit status 1 (collect.Fails); they open the summary
	// under "Why this step failed". nil: none is marked.
	Fails func(*findings.Finding) bool
	// OnChange says whether the change's diff touches a finding (the diff filter); nil when no
	// diff applies, and then the repository's findings are one group.
	OnChange func(*findings.Finding) bool
	// Filter is one line on the diff filter ("" when none).
	Filter  string
	MaxRows int // rows per group; 0 means DefaultRows
	Limit   int // size cap in bytes; 0 means Limit
	// Checks are the rows of the contract checks (runtimes.Checks()), whose fixes the summary
	// lists; nil: the shared rows only (gates.Checks()).
	Checks gates.Rows
	// Calls are the tool calls that met a hook, each once (collect's call model), which the
	// headline and the Session table count; nil: the calls of Findings (findings.CallsOf).
	Calls []findings.SessionCall
	// CallsDropped is how many calls past the model's bound are not in Calls.
	CallsDropped int
}

// inSARIF says where the findings not listed are: all in the SARIF file, or, when results were
// left out of it to stay inside GitHub's limits, only the heaviest (no claim that is not true).
func inSARIF(in Input) string {
	if len(in.LeftOut) == 0 {
		return "all of them are in the SARIF file"
	}
	return "the SARIF file holds the heaviest of them (some were left out to stay inside GitHub's limits: see below)"
}

// Render builds the summary Markdown. It never exceeds the size cap: groups stop early, and as
// a last resort the text is cut at a line and ends with a note.
func Render(in Input) string {
	limit := in.Limit
	if limit <= 0 {
		limit = Limit
	}
	rows := in.MaxRows
	if rows <= 0 {
		rows = DefaultRows
	}
	fs := append([]findings.Finding(nil), in.Findings...)
	findings.SortHeaviest(fs)

	calls := in.Calls
	if calls == nil {
		calls = findings.CallsOf(in.Findings)
	}
	var b strings.Builder
	writeTitle(&b, fs, calls)
	tail := renderTail(in, fs) // bounded: maxListed entries of bounded size
	budget := limit - len(tail) - 1024
	writeWhyFailed(&b, in, fs, budget)
	writeStatus(&b, in)
	writeTotals(&b, fs)
	writeGates(&b, fs)
	for _, g := range groups(in, fs) {
		writeGroup(&b, in, g, rows, budget)
	}
	writeSession(&b, calls, in.CallsDropped, budget, inSARIF(in))
	b.WriteString(tail)
	return capText(b.String(), limit)
}

// tally counts results and events per verdict, contract findings under "contract".
type tally struct{ results, events int }

func column(f findings.Finding) string {
	if f.Kind == findings.Contract {
		return "contract"
	}
	return string(f.Verdict)
}

func count(f findings.Finding) int {
	if f.Count < 1 {
		return 1
	}
	return f.Count
}

var columns = []string{string(gates.Block), string(gates.Repaired), string(gates.Steer), "contract"}

func totals(fs []findings.Finding) map[string]tally {
	t := map[string]tally{}
	for _, f := range fs {
		c := t[column(f)]
		c.results++
		c.events += count(f)
		t[column(f)] = c
	}
	return t
}

// writeTitle is the headline: what the runtime did, counted by call (a call blocked by two
// gates is one block enforced), with the gates' claims it did not carry out beside it; findings
// about no tool call (a reviewer's judgment) count as results. Contract findings are results.
func writeTitle(b *strings.Builder, fs []findings.Finding, calls []findings.SessionCall) {
	t := totals(fs)
	done, claimed := map[gates.Verdict]int{}, map[gates.Verdict]int{}
	unguarded := 0
	for i := range calls {
		c := &calls[i]
		for _, v := range []gates.Verdict{gates.Block, gates.Repaired, gates.Steer} {
			if c.Claimed(v) {
				claimed[v]++
				if c.CarriedOut(v) {
					done[v]++
				}
			}
		}
		if c.Unguarded() {
			unguarded++
		}
	}
	for i := range fs {
		if f := &fs[i]; f.Kind != findings.Contract && findings.CallKey(f) == "" {
			claimed[f.Verdict]++
			done[f.Verdict]++
		}
	}
	part := func(v gates.Verdict, one, many, did string) string {
		if claimed[v] != done[v] {
			return fmt.Sprintf("%d of %s %s", done[v], plural.N(claimed[v], one, many), did)
		}
		return plural.N(done[v], one, many) + " " + did
	}
	fmt.Fprintf(b, "## AGC gates: %s, %s, %s, %s", part(gates.Block, "block", "blocks", "enforced"),
		part(gates.Repaired, "repair", "repairs", "applied"), part(gates.Steer, "steer", "steers", "delivered"),
		plural.N(t["contract"].results, "contract finding", "contract findings"))
	if unguarded > 0 {
		fmt.Fprintf(b, ", %s", plural.N(unguarded, "call unguarded", "calls unguarded"))
	}
	b.WriteString("\n\n")
}

// writeWhyFailed opens the summary with every finding that decides exit status 1, and the
// inputs that could not be read (exit status 2), or says there is nothing to fail on.
func writeWhyFailed(b *strings.Builder, in Input, fs []findings.Finding, budget int) {
	var failing []findings.Finding
	if in.Fails != nil {
		for i := range fs {
			if in.Fails(&fs[i]) {
				failing = append(failing, fs[i])
			}
		}
	}
	if len(in.Failed) == 0 && len(failing) == 0 && len(in.Missing) == 0 {
		b.WriteString("Nothing to fail on.\n\n")
		return
	}
	b.WriteString("### Why this step failed\n\n")
	if len(in.Failed) > 0 {
		var names []string
		for _, o := range in.Failed {
			names = append(names, Text(o))
		}
		fmt.Fprintf(b, "**Failing** on: %s. ", strings.Join(names, ", "))
	}
	if len(failing) > 0 {
		fmt.Fprintf(b, "%s the exit status 1:\n\n", plural.N(len(failing), "finding makes", "findings make"))
	} else {
		b.WriteString("\n")
	}
	listed := 0
	for i, f := range failing {
		item := fmt.Sprintf("%d. **%s** %s at %s: %s\n", i+1, column(f), Text(ruleName(f)), where(in, f),
			Text(clip(findings.FirstSentence(&f), maxFailSentence)))
		if listed == maxFailing || b.Len()+len(item) > budget/2 {
			break
		}
		b.WriteString(item)
		listed++
	}
	if n := len(failing) - listed; n > 0 {
		fmt.Fprintf(b, "\n… and %s more that fail the step; %s.\n", plural.N(n, "finding", "findings"), inSARIF(in))
	}
	if len(in.Missing) > 0 {
		fmt.Fprintf(b, "\n%s could not be read (exit status 2); see \"Read and skipped\" below.\n", plural.N(len(in.Missing), "input", "inputs"))
	}
	b.WriteString("\n")
}

func writeStatus(b *strings.Builder, in Input) {
	if in.SARIFFile != "" {
		fmt.Fprintf(b, "SARIF: %s. ", Text(in.SARIFFile))
	}
	if in.Upload != "" {
		fmt.Fprintf(b, "Code scanning: %s", Text(in.Upload))
	}
	if in.SARIFFile != "" || in.Upload != "" {
		b.WriteString("\n\n")
	}
	if in.Filter != "" {
		fmt.Fprintf(b, "%s\n\n", Text(in.Filter))
	}
}

func writeTotals(b *strings.Builder, fs []findings.Finding) {
	if len(fs) == 0 {
		b.WriteString("No findings: every gate passed, or no AGC responses were found.\n\n")
		return
	}
	t := totals(fs)
	b.WriteString("| Verdict | Results | Events |\n|---|--:|--:|\n")
	for _, c := range columns {
		fmt.Fprintf(b, "| %s | %d | %d |\n", c, t[c].results, t[c].events)
	}
	b.WriteString("\n```mermaid\npie showData title Events by verdict\n")
	for _, c := range columns {
		if t[c].events > 0 {
			fmt.Fprintf(b, "    %q : %d\n", c, t[c].events)
		}
	}
	b.WriteString("```\n\n")
}

func writeGates(b *strings.Builder, fs []findings.Finding) {
	if len(fs) == 0 {
		return
	}
	per := map[string]map[string]int{}
	kind := map[string]string{}
	var names []string
	for _, f := range fs {
		g := f.Gate
		if g == "" {
			g = f.RuleID
		}
		if per[g] == nil {
			per[g] = map[string]int{}
			names = append(names, g)
			kind[g] = string(f.Kind)
		}
		per[g][column(f)] += count(f)
	}
	sort.Strings(names)
	b.WriteString("### By gate (events)\n\n| Gate | Kind | block | repaired | steer | contract |\n|---|---|--:|--:|--:|--:|\n")
	for i, g := range names {
		if i == maxListed*5 {
			fmt.Fprintf(b, "| … %d more gates | | | | | |\n", len(names)-i)
			break
		}
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d |\n", Cell(g), Cell(kind[g]),
			per[g]["block"], per[g]["repaired"], per[g]["steer"], per[g]["contract"])
	}
	b.WriteString("\n")
}

// group is one titled list of findings.
type group struct {
	title, about string
	fs           []findings.Finding
}

// sessionEvent reports whether anchoring put a finding on a hook's configuration line, the file a
// gate's answer was read from, or the fallback file: it is about the agent's session, not about a
// line of code. A finding in the file its call touched, or beside the session's edit in the change,
// stands on code and is grouped with it.
func sessionEvent(f *findings.Finding) bool { return f.Placed.OffCode() }

// groups splits findings: on this change's lines (when a diff applies), elsewhere in the
// repository, and session events.
func groups(in Input, fs []findings.Finding) []group {
	change := group{title: "On this change's lines"}
	repo := group{title: "Elsewhere in the repository"}
	session := group{title: "Session events", about: "About the agent's session rather than a line of code: each is placed on the line " +
		"of the hook's configuration, the file the gate's answer was read from, or the fallback file, and its text says why."}
	if in.OnChange == nil {
		repo.title = "In the repository"
	}
	for i := range fs {
		f := &fs[i]
		switch {
		case sessionEvent(f):
			session.fs = append(session.fs, *f)
		case in.OnChange != nil && in.OnChange(f):
			change.fs = append(change.fs, *f)
		default:
			repo.fs = append(repo.fs, *f)
		}
	}
	if in.OnChange == nil {
		return []group{repo, session}
	}
	return []group{change, repo, session}
}

// writeGroup lists a group's findings as a table of one line each, then their full text in one
// collapsed details block.
func writeGroup(b *strings.Builder, in Input, g group, rows, budget int) {
	if len(g.fs) == 0 {
		return
	}
	fmt.Fprintf(b, "### %s (%d)\n\n", g.title, len(g.fs))
	if g.about != "" {
		b.WriteString(g.about + "\n\n")
	}
	b.WriteString("| Verdict | Rule | Where | What the agent did → what the gate did | Times |\n|---|---|---|---|--:|\n")
	var full strings.Builder
	shown := 0
	for _, f := range g.fs {
		if shown == rows {
			break
		}
		row := findingRow(in, f)
		item := fmt.Sprintf("%d. **%s** %s at %s<br>%s\n", shown+1, column(f), Text(ruleName(f)), where(in, f),
			Lines(clip(findings.AlertText(&f), maxAlert)))
		if b.Len()+len(row)+full.Len()+len(item) > budget {
			break
		}
		b.WriteString(row)
		full.WriteString(item)
		shown++
	}
	if shown > 0 {
		fmt.Fprintf(b, "\n<details><summary>Full text of %s</summary>\n\n%s\n</details>\n",
			map[bool]string{true: "this finding", false: fmt.Sprintf("these %d findings", shown)}[shown == 1], full.String())
	}
	if n := len(g.fs) - shown; n > 0 {
		events := 0
		for _, f := range g.fs[shown:] {
			events += count(f)
		}
		fmt.Fprintf(b, "\n… %s (%s) more findings are not listed here; %s.\n",
			fmt.Sprint(n), plural.N(events, "event", "events"), inSARIF(in))
	}
	b.WriteString("\n")
}

// findingRow is a finding's table row, at most maxRow bytes: the what cell is cut until it fits.
func findingRow(in Input, f findings.Finding) string {
	var row string
	for n := 160; ; n -= 20 {
		row = fmt.Sprintf("| %s | %s | %s | %s | %d |\n", column(f), Text(clip(ruleName(f), 60)), where(in, f), whatCell(f, n), count(f))
		if len(row) <= maxRow || n <= 20 {
			return row
		}
	}
}

// whatCell is "what the agent did → what the gate did" in about n runes, escaped.
func whatCell(f findings.Finding, n int) string {
	did := callShort(f.Call, n/2)
	var gate string
	switch {
	case f.Kind == findings.Contract:
		gate = "contract: " + findings.FirstSentence(&f)
	case f.Verdict == gates.Repaired && f.Repair != nil:
		gate = "repaired to " + orEmpty(findings.Clip(f.Repair.After, n/2)) + ": " + findings.FirstSentence(&f)
	default:
		gate = string(f.Verdict) + ": " + findings.FirstSentence(&f)
	}
	if did == "" {
		return Text(clip(gate, n))
	}
	return Text(clip(did+" → "+gate, n))
}

// callShort is the tool and its command or file on one line in about n runes, "" without a call.
func callShort(c *findings.Call, n int) string {
	if c == nil || (c.Tool == "" && c.Command == "" && c.FilePath == "") {
		return ""
	}
	tool := c.Tool
	if tool == "" {
		tool = "call"
	}
	what := c.Command
	if what == "" {
		what = c.FilePath
	}
	if what == "" {
		return findings.Clip(tool, n)
	}
	return findings.Clip(tool, 30) + " " + findings.Clip(what, n)
}

func orEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

func ruleName(f findings.Finding) string {
	if f.Target != "" {
		return f.RuleID + "/" + f.Target
	}
	return f.RuleID
}

// where is a finding's location as a link to the line at the commit, or plain text.
func where(in Input, f findings.Finding) string {
	loc := f.Location
	if loc == nil || loc.Path == "" {
		return "—"
	}
	text := loc.Path
	if loc.StartLine > 0 {
		text = fmt.Sprintf("%s:%d", loc.Path, loc.StartLine)
	}
	link := ghenv.BlobURL(in.ServerURL, in.Repo, in.SHA, loc.Path, loc.StartLine)
	if link == "" {
		return Cell(text)
	}
	// BlobURL escapes every path segment, so the link holds no ")" or space to end it early
	link = strings.NewReplacer("(", "%28", ")", "%29").Replace(link)
	return "[" + Cell(text) + "](" + link + ")"
}

// renderTail renders the contract fixes and what was skipped; its size is bounded.
func renderTail(in Input, fs []findings.Finding) string {
	var b strings.Builder
	writeContract(&b, in.Checks, fs)
	writeSkipped(&b, in)
	return b.String()
}

func writeContract(b *strings.Builder, checks gates.Rows, fs []findings.Finding) {
	if checks == nil {
		checks = gates.Checks()
	}
	per := map[string]int{}
	var ids []string
	for _, f := range fs {
		if f.Kind != findings.Contract {
			continue
		}
		if per[f.RuleID] == 0 {
			ids = append(ids, f.RuleID)
		}
		per[f.RuleID] += count(f)
	}
	if len(ids) == 0 {
		return
	}
	sort.Strings(ids)
	b.WriteString("### Contract findings: how to fix\n\n")
	for _, id := range ids {
		c, ok := checks.Lookup(id)
		if !ok {
			fmt.Fprintf(b, "- **%s** (%d)\n", Text(id), per[id])
			continue
		}
		// Short and Fix are the project's own Markdown, not agent text
		fmt.Fprintf(b, "- **%s** (%d): %s  \n  Fix: %s\n", c.ID, per[id], c.Short, c.Fix)
	}
	b.WriteString("\n")
}

func writeSkipped(b *strings.Builder, in Input) {
	s := in.Set
	if s == nil && len(in.LeftOut) == 0 && len(in.Missing) == 0 {
		return
	}
	b.WriteString("### Read and skipped\n\n")
	if s != nil {
		fmt.Fprintf(b, "%s read, %d used, %d skipped, %d duplicates dropped.\n\n",
			plural.N(s.Records, "record", "records"), s.Used, s.Skipped(), s.Duplicates)
		reasons := s.SkipReasons()
		for i, r := range reasons {
			if i == maxListed {
				fmt.Fprintf(b, "- … %d more reasons\n", len(reasons)-i)
				break
			}
			fmt.Fprintf(b, "- skipped %d: %s\n", s.Skips[r], Cell(r))
		}
		if len(reasons) > 0 {
			b.WriteString("\n")
		}
		list(b, "Problems", len(s.Problems), func(i int) string { return s.Problems[i].String() })
	}
	list(b, "Not read", len(in.Missing), func(i int) string { return in.Missing[i] })
	list(b, "Left out to stay inside GitHub's limits", len(in.LeftOut), func(i int) string { return in.LeftOut[i] })
}

func list(b *strings.Builder, title string, n int, item func(int) string) {
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "**%s** (%d):\n\n", title, n)
	for i := 0; i < n; i++ {
		if i == maxListed {
			fmt.Fprintf(b, "- … %d more\n", n-i)
			break
		}
		fmt.Fprintf(b, "- %s\n", Cell(item(i)))
	}
	b.WriteString("\n")
}

// capText cuts s to at most limit bytes at a line end, with a closing note, when it is longer.
func capText(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	const note = "\n\n… the summary was cut here to stay under GitHub's 1 MiB limit; the SARIF file has everything.\n"
	cut := limit - len(note)
	if cut < 0 {
		return ""
	}
	if i := strings.LastIndexByte(s[:cut], '\n'); i >= 0 {
		cut = i
	}
	return s[:cut] + note
}
