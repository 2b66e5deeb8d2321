package collect

import (
	"fmt"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// MaxGroups is how many distinct results (event groups) are kept while reading: GitHub keeps at
// most sarif.HardMaxResults (25,000) results of a run and the SARIF holds at most that many, so
// holding more only costs memory when every record is a distinct result. A set grows to twice as
// many before the lightest are dropped and counted.
const MaxGroups = sarif.HardMaxResults

// bound is the Bound of the sets read with cfg: groups weigh as the outputs order them (a
// reviewer's first, then those that fail the step, then heavier), with the levels setLevels will
// give them.
func bound(cfg Config) findings.Bound {
	return findings.Bound{
		Max: maxGroups(cfg),
		Weigh: func(f *findings.Finding) uint64 {
			g := leveled(cfg, *f)
			var w uint64
			if g.Trusted { // a reviewer's finding is never dropped for agent-written ones
				w = 1 << 56
			}
			if Fails(cfg.FailOn, &g) {
				w |= 1 << 48
			}
			w |= uint64(max(g.Level.Weight()+1, 0)) << 40
			w |= uint64(max(g.Verdict.Weight()+1, 0)) << 32
			return w | uint64(min(max(g.Count, 0), 1<<32-1))
		},
		Must: func(f *findings.Finding) bool { g := leveled(cfg, *f); return Fails(cfg.FailOn, &g) },
	}
}

// aggregating makes the sets Run reads into: repeats of one rule at one place merged as they come
// (maxExamples kept), the lightest groups dropped past b.
func aggregating(b findings.Bound) func() *findings.Set {
	return func() *findings.Set {
		s := findings.NewAggregateSet(maxExamples)
		s.Limit(b)
		return s
	}
}

// leveled is f as setLevels will leave it.
func leveled(cfg Config, f findings.Finding) findings.Finding {
	setLevel(cfg.FailOn, cfg.Levels, &f)
	return f
}

// failedAll lists the fail-on outcomes among the findings kept and those left out while reading.
func failedAll(cfg Config, res *Result) []Outcome {
	must := make([]findings.Finding, len(res.Set.LeftOutMust))
	for i, f := range res.Set.LeftOutMust {
		must[i] = leveled(cfg, f)
	}
	return failed(cfg.FailOn, res.Findings, must)
}

// leftOutLine says how many results were left out while reading, "" when none were.
func leftOutLine(cfg Config, s *findings.Set) string {
	if s.LeftOut == 0 {
		return ""
	}
	return fmt.Sprintf("%d results (%d events) not kept while reading: only the %d heaviest distinct results are", s.LeftOut, s.LeftOutEvents, maxGroups(cfg))
}

// maxGroups is how many distinct results cfg keeps while reading: cfg.MaxGroups, else MaxGroups.
func maxGroups(cfg Config) int {
	if cfg.MaxGroups > 0 {
		return cfg.MaxGroups
	}
	return MaxGroups
}

// leftOutNote is the SARIF notification for the results left out while reading, if any.
func leftOutNote(cfg Config, s *findings.Set) []sarif.Notification {
	if l := leftOutLine(cfg, s); l != "" {
		return []sarif.Notification{{Level: "warning", Message: "left out: " + l}}
	}
	return nil
}
