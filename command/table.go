package command

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	words "github.com/agc-sarif/agc-sarif/internal/plural"
)

// printTable ends stderr with findings per gate and verdict (when there are any), and the records
// read and skipped.
func printTable(w io.Writer, res *collect.Result) {
	type row struct{ block, repaired, steer, contract, other int }
	rows := map[string]*row{}
	for _, f := range res.Findings {
		r := rows[f.Gate]
		if r == nil {
			r = &row{}
			rows[f.Gate] = r
		}
		n := f.Count
		if n < 1 {
			n = 1
		}
		switch {
		case f.Kind == findings.Contract:
			r.contract += n
		case f.Verdict == gates.Block:
			r.block += n
		case f.Verdict == gates.Repaired:
			r.repaired += n
		case f.Verdict == gates.Steer:
			r.steer += n
		default:
			r.other += n
		}
	}
	gatesSeen := make([]string, 0, len(rows))
	for g := range rows {
		gatesSeen = append(gatesSeen, g)
	}
	sort.Strings(gatesSeen)
	width := len("gate")
	for _, g := range gatesSeen {
		width = max(width, len(g))
	}
	if len(gatesSeen) > 0 { // no findings: no table of nothing
		fmt.Fprintf(w, "%-*s %8s %8s %8s %8s\n", width, "gate", "block", "repaired", "steer", "contract")
	}
	for _, g := range gatesSeen {
		r := rows[g]
		fmt.Fprintf(w, "%-*s %8d %8d %8d %8d\n", width, g, r.block, r.repaired, r.steer, r.contract)
	}
	s := res.Set
	var reasons []string
	for _, r := range s.SkipReasons() {
		reasons = append(reasons, fmt.Sprintf("%s: %d", r, s.Skips[r]))
	}
	// The accounting adds up: every record read gave findings or was skipped; of the findings, those
	// of events another record told already are kept once, and the results stand for the rest.
	line := fmt.Sprintf("records read: %d, gave findings: %d, skipped: %d", s.Records, s.Used, s.Skipped())
	if len(reasons) > 0 {
		line += " (" + strings.Join(reasons, "; ") + ")"
	}
	fmt.Fprintln(w, line)
	events := 0
	for _, f := range res.Findings {
		events += max(f.Count, 1)
	}
	if s.Duplicates > 0 {
		fmt.Fprintf(w, "of the findings those records gave, %s of events already read from another record (kept once); the results stand for %s\n",
			words.N(s.Duplicates, "was", "were"), words.N(events, "event", "events"))
	}
	if s.LeftOut > 0 {
		fmt.Fprintf(w, "distinct results not kept while reading (only the heaviest are): %d, of %d events\n", s.LeftOut, s.LeftOutEvents)
	}
	fmt.Fprintf(w, "files read: %d", res.Files.Read)
	if res.Files.Ignored > 0 {
		fmt.Fprintf(w, ", passed over (not recognised): %d", res.Files.Ignored)
	}
	fmt.Fprintln(w)
	for _, name := range res.Files.PassedOver {
		fmt.Fprintf(w, "  passed over: %s\n", name)
	}
	if n := res.Files.Ignored - len(res.Files.PassedOver); n > 0 {
		fmt.Fprintf(w, "  … and %d more passed over\n", n)
	}
}
