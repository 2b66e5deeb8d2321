package collect

import (
	"context"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/redact"
)

// Reading is what Read gives: every finding read, one per event (not anchored, not merged; with
// cfg.Redact, problems and names redacted but findings not: the caller redacts what it outputs),
// and what happened to the files.
type Reading struct {
	Set        *findings.Set
	Root       string   // the repository root
	Missing    []string // arguments that matched nothing or could not be opened
	Unreadable []string // named files that could not be read at all
	Read       int      // files read by a reader
	Ignored    int      // files found by walking whose content no reader recognised
}

// Read reads the inputs of cfg as Run does, one file at a time, and gives each reader's
// tool-call timeline to calls (inputs.Options.Calls); it anchors nothing, merges no repeats (the
// friction ladder needs every event with its tool call) and writes no SARIF.
func Read(ctx context.Context, cfg Config, calls func(inputs.CallEvent)) (*Reading, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	root, err := findRoot(ctx, cfg)
	if err != nil {
		return nil, err
	}
	ex := expandInputs(cfg.Dir, cfg.Paths, cfg.Judgments)
	red := redact.New(redact.Options{Disabled: !cfg.Redact})
	opts := inputs.Options{IncludeUnstructured: cfg.IncludeUnstructured, MaxRecord: cfg.MaxRecord, Redact: red.String, Calls: calls}
	rd := &Reading{Set: findings.NewSet(), Root: root}
	st := newReadStats(len(ex.Files))
	var bufs readBuffers
	for i, f := range ex.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		format, ignored, unreadable := readFile(ctx, f, cfg.Format, opts, rd.Set, &bufs, parallel{jobs: 1, fileJobs: 1})
		st.note(i, format, ignored, unreadable)
	}
	rd.Read, rd.Ignored, rd.Unreadable = st.Read, st.Ignored, st.Unreadable
	// Problems, skip reasons and names quote what was read: redacted as Run redacts them.
	red.Set(rd.Set)
	rd.Missing, rd.Unreadable = red.Strings(ex.Missing), red.Strings(rd.Unreadable)
	return rd, nil
}
