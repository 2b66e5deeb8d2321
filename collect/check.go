package collect

import (
	"cmp"
	"context"
	"slices"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// Checked is what Check gives: every contract breach and every record that could not be read,
// each apart (repeats are not merged: a gate author fixes each), in document order.
type Checked struct {
	Lines        []CheckLine // breaches and problems, by file in the order read, then line
	Records      int         // records read
	GateFindings int         // findings of gates (not contract breaches)
	FilesRead    int
	Ignored      int      // files found by walking that no reader recognised (passed over)
	Missing      []string // arguments that matched nothing or could not be read (exit 2)
	Unreadable   []string // named files that could not be read at all (exit 2)
	Unrecognised []string // files named explicitly in which nothing was recognised (exit 2)
	Warnings     []string
	Notices      []string
}

// CheckLine is one line of the check report: a contract breach (Finding set) or a record that
// could not be read (Problem set).
type CheckLine struct {
	Finding *findings.Finding
	Problem *findings.Problem
}

// Failed reports whether some named input could not be read (exit status 2).
func (c *Checked) Failed() bool {
	return len(c.Missing)+len(c.Unreadable)+len(c.Unrecognised) > 0
}

// Check reads the inputs of cfg with Run's read loop (readAll), one file at a time, for
// `agc-sarif check`: it anchors nothing, merges nothing and writes no SARIF; every breach and
// problem is kept apart.
func Check(ctx context.Context, cfg Config) (*Checked, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	stdin, cleanup, err := spoolStdin(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	ex := expandFor(cfg, stdin)
	out := &Checked{Notices: dropEmpty(&ex)}
	var noFileWarns []string
	out.Missing, noFileWarns = noFiles(cfg.IfNoFilesFound, ex)
	out.Missing = append(ex.Missing, out.Missing...)
	red := NewRedactor(cfg.Redact)
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: cfg.IncludeUnstructured, MaxRecord: cfg.MaxRecord, Sink: inputs.Funcs{Redactf: red.String}}
	// Run's read loop, one file at a time, into sets that keep every finding apart.
	set, st := readAll(ctx, ex.Files, cfg.Format, opts, parallel{jobs: 1}, findings.NewSet, nil)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out.Warnings = append(noFileWarns, folderWarnings(ex, st.read)...)
	out.Unrecognised = unrecognisedNamed(ex, st.said(), set)
	red.Set(set)
	out.Records, out.FilesRead, out.Ignored, out.Unreadable = set.Records, st.Read, st.Ignored, st.Unreadable
	for _, l := range [][]string{out.Missing, out.Unreadable, out.Unrecognised, out.Warnings, out.Notices} {
		copy(l, red.Strings(l))
	}
	order := map[string]int{}
	for i, f := range ex.Files {
		order[f.Name] = i
	}
	for i := range set.Findings {
		f := red.Finding(set.Findings[i])
		if f.Kind != findings.Contract {
			out.GateFindings++
			continue
		}
		out.Lines = append(out.Lines, CheckLine{Finding: &f})
	}
	for i, p := range set.Problems {
		if p.Message == passedOverText { // passed over, as collect passes it over: a warning
			out.Warnings = append(out.Warnings, p.String())
			continue
		}
		out.Lines = append(out.Lines, CheckLine{Problem: &set.Problems[i]})
	}
	slices.SortStableFunc(out.Lines, func(a, b CheckLine) int {
		sa, sb := a.source(), b.source()
		return cmp.Or(cmp.Compare(order[sa.File], order[sb.File]), cmp.Compare(sa.Line, sb.Line))
	})
	return out, nil
}

// source is where the line's breach or problem stands.
func (l CheckLine) source() findings.Source {
	if l.Finding != nil {
		return l.Finding.Source
	}
	return l.Problem.Source
}
