// Package probe runs a guard (a hook command) the way every runtime would run it — its real
// hook inputs, hostile inputs, a recorder's log replayed — and judges each run: does the guard
// fail open, never hang, answer the AGC contract and stay fast.
package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/agc-sarif/agc-sarif/runtimes"
)

// Defaults of the command line.
const (
	DefaultRuns   = 5
	DefaultBudget = 500 * time.Millisecond
	// DefaultTimeout is the timeout of a runtime probe has no facts of (no runtime.json).
	DefaultTimeout = 10 * time.Second
)

// Options say what to probe and how.
type Options struct {
	Argv     []string      // the guard's command line
	Runtimes []string      // runtime ids to probe; none: every registered binding
	Events   []Case        // the user's own inputs (--event), run besides the built-in ones
	Replay   []Call        // recorded calls to re-run (--replay)
	Runs     int           // runs of each real input for the time budget (0: DefaultRuns)
	Budget   time.Duration // the most the slowest run of a real input may take (0: DefaultBudget)
	Timeout  time.Duration // when a run is killed, for every runtime (0: each runtime's own, RuntimeFacts)
	Dir      string        // the project folder: the guard's working folder and project-folder variables
	Env      []string      // the environment the guard inherits
}

// Row is one line of the table of events: an input and what the guard did with it.
type Row struct {
	Case  Case
	Run   Run           // the last run (the first that went wrong, when one did)
	Worst time.Duration // the slowest of the runs
	Runs  int
}

// Report is everything probe found.
type Report struct {
	Findings []Finding
	Rows     []Row
	Changed  int // replayed calls whose answer changed
	Replayed int // replayed calls
}

// Errors reports whether a finding is at error level.
func (r *Report) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Level == "error" {
			n++
		}
	}
	return n
}

// Cases are the inputs probe gives the guard for the runtimes of opts: each runtime's built-in
// events and the hostile inputs made from its first one, then the user's events.
func Cases(opts Options) ([]Case, error) {
	var out []Case
	for _, b := range runtimes.Bindings() {
		if len(opts.Runtimes) > 0 && !slices.Contains(opts.Runtimes, b.Runtime()) {
			continue
		}
		s, err := Samples(b.Runtime())
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
		if len(s) > 0 {
			base := s[0]
			for _, c := range s {
				if ev := b.Events(); len(ev) > 0 && c.Event == ev[0] {
					base = c // the hostile inputs go to the first event (PreToolUse): it can block
					break
				}
			}
			out = append(out, Hostile(base)...)
		}
	}
	return append(out, opts.Events...), nil
}

// Probe runs the guard on every case and every replayed call and judges each run.
func Probe(ctx context.Context, opts Options) (*Report, error) {
	if len(opts.Argv) == 0 {
		return nil, fmt.Errorf("probe: no guard command")
	}
	if opts.Runs < 1 {
		opts.Runs = DefaultRuns
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	cases, err := Cases(opts)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, c := range cases {
		row, fs, err := probeCase(ctx, opts, c)
		if err != nil {
			return nil, err
		}
		rep.Rows = append(rep.Rows, row)
		rep.Findings = append(rep.Findings, fs...)
	}
	for _, call := range opts.Replay {
		row, fs, err := replay(ctx, opts, call)
		if err != nil {
			return nil, err
		}
		rep.Replayed++
		rep.Rows = append(rep.Rows, row)
		for _, f := range fs {
			if f.Rule == RuleChanged {
				rep.Changed++
			}
		}
		rep.Findings = append(rep.Findings, fs...)
	}
	return rep, nil
}

// probeCase runs the guard on one case: a hostile input once, a real one up to opts.Runs times
// (fewer when a run goes wrong or is already over the budget, which the worst run then is).
func probeCase(ctx context.Context, opts Options, c Case) (Row, []Finding, error) {
	row := Row{Case: c}
	runs := opts.Runs
	if c.Hostile {
		runs = 1
	}
	for i := 0; i < runs; i++ {
		r, err := run(ctx, opts, c)
		if err != nil {
			return row, nil, err
		}
		row.Run, row.Runs, row.Worst = r, row.Runs+1, max(row.Worst, r.Duration)
		if fs := Judge(c, r, shellJoin(opts.Argv)); len(fs) > 0 || r.Duration > opts.Budget {
			return row, append(fs, slow(c, row, opts.Budget)...), nil
		}
	}
	return row, slow(c, row, opts.Budget), nil
}

// slow is the probe/slow finding of a real input whose worst run went over the budget.
func slow(c Case, row Row, budget time.Duration) []Finding {
	if c.Hostile || row.Run.TimedOut || row.Worst <= budget {
		return nil
	}
	return []Finding{{Rule: RuleSlow, Level: level(RuleSlow), Case: c, Did: Did(row.Run),
		Message: fmt.Sprintf("the slowest of %d runs on %s took %s, over the budget of %s.", row.Runs, c.What(), row.Worst.Round(millisecond), budget)}}
}

// run runs the guard once on c as c's runtime would (RuntimeFacts): c's stdin, the project
// folder as the working folder and in the project-folder variables that runtime sets, and its
// timeout unless opts.Timeout overrides it. The cwd of a built-in or user's event is set to the
// project folder; hostile inputs and recorded calls go as they are.
func run(ctx context.Context, opts Options, c Case) (Run, error) {
	facts, err := RuntimeFacts(c.Runtime)
	if err != nil {
		return Run{}, err
	}
	env := slices.Clone(opts.Env)
	for _, v := range facts.ProjectDirVars {
		env = append(env, v+"="+opts.Dir)
	}
	timeout := facts.Timeout
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	stdin := c.Stdin
	if !c.Hostile && !c.Replayed {
		stdin = withCwd(stdin, opts.Dir)
	}
	return Exec(ctx, Spec{Argv: opts.Argv, Dir: opts.Dir, Env: env, Stdin: stdin, Closed: c.Closed, Timeout: timeout})
}

// withCwd sets the input's cwd member, when it has one, to the project folder the guard runs in:
// the recordings name folders of the machine they were made on.
func withCwd(stdin []byte, dir string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(stdin, &m) != nil {
		return stdin
	}
	if _, ok := m["cwd"]; !ok {
		return stdin
	}
	m["cwd"], _ = json.Marshal(dir)
	return encode(m)
}
