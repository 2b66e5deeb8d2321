package collect

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/plural"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// maxExamples is how many occurrences a merged finding keeps.
const maxExamples = 5

// finish turns the findings read — anchored, redacted, and repeats of one rule at one place
// merged as they were read — into the final findings and the SARIF log: what merging added (the
// files that reported each event) is redacted, and the heaviest come first.
func finish(ctx context.Context, cfg Config, res *Result, start time.Time, snk *sink) error {
	// In place: the set's findings are handed over to res.Findings (no copy of them is kept).
	fs := res.Set.Findings
	res.Set.Findings = nil
	if err := ctx.Err(); err != nil {
		return err
	}
	// Every field was redacted as it was read, but Sources names the raw input files that
	// reported the event, gathered while merging: the sink's output step redacts them, with the
	// problems, skip reasons and names of inputs, which reach stderr, the summary and the SARIF.
	snk.output(fs, res)
	setLevels(cfg.FailOn, cfg.Levels, fs)
	// The level is part of a group's key: groups read apart (a gate's severity error and
	// warning of one rule at one place) can have one output level now, and merge.
	fs = findings.AggregateOver(fs, maxExamples)
	findings.SortWeight(fs) // the capped outputs spread the gates on this order
	res.Findings = fs

	log, err := sarif.Build(fs, sarif.Options{
		ToolName:            "agc-sarif",
		ToolVersion:         cfg.Version,
		InformationURI:      "https://github.com/agc-sarif/agc-sarif",
		Category:            res.Category,
		Root:                res.Root,
		Fallback:            snk.fallbackLocation(),
		Notifications:       snk.notifications(append(notifications(res), leftOutNote(cfg, res.Set)...)),
		ExecutionSuccessful: true, // an unreadable input is an error notification, not a failed run
		Start:               start,
		End:                 cfg.Now(),
		Checks:              runtimes.Checks(),
	})
	if err != nil {
		return fmt.Errorf("building SARIF: %w", err)
	}
	res.SARIF = log.Bytes() // the log is not used again: its bytes need no copy
	res.LeftOut = log.LeftOut()
	if l := leftOutLine(cfg, res.Set); l != "" {
		res.LeftOut = append([]string{l}, res.LeftOut...)
	}
	return nil
}

// projectDirs are the folders the agent worked in, besides the root: the project folder a
// runtime names (agent.ProjectDirVars) and GITHUB_WORKSPACE when set, so absolute paths from
// those machines map back.
func projectDirs(cfg Config) []string {
	var out []string
	for _, k := range append(agent.ProjectDirVars(), "GITHUB_WORKSPACE") {
		if v := cfg.Getenv(k); v != "" && filepath.IsAbs(v) {
			out = append(out, v)
		}
	}
	return out
}

// notifications names every problem, unreadable input and skip reason for the SARIF
// invocation, so that nothing read is silently dropped.
func notifications(res *Result) []sarif.Notification {
	var ns []sarif.Notification
	for _, m := range res.Missing {
		ns = append(ns, sarif.Notification{Level: "error", Message: m})
	}
	for _, m := range res.Files.Unreadable {
		ns = append(ns, sarif.Notification{Level: "error", Message: m})
	}
	for _, m := range res.Unrecognised {
		ns = append(ns, sarif.Notification{Level: "error", Message: m})
	}
	for _, m := range res.Notes {
		ns = append(ns, sarif.Notification{Level: "note", Message: m})
	}
	for _, p := range res.Set.Problems {
		ns = append(ns, sarif.Notification{Level: "warning", Message: p.Message, File: p.Source.File, Line: p.Source.Line})
	}
	for _, r := range res.Set.SkipReasons() {
		ns = append(ns, sarif.Notification{Level: "note", Message: fmt.Sprintf("%s skipped: %s", plural.N(res.Set.Skips[r], "record", "records"), r)})
	}
	if res.Set.Duplicates > 0 {
		ns = append(ns, sarif.Notification{Level: "note", Message: plural.N(res.Set.Duplicates, "finding was the same event as one read from another record, and is kept once",
			"findings were the same event as one read from another record, and are kept once")})
	}
	return ns
}
