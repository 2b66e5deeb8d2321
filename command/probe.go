package command

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/probe"
	"github.com/agc-sarif/agc-sarif/sarif"
)

func probeCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "probe",
		Usage:     "run a guard as every runtime would, hostile input included, and report whether it fails open, never hangs, answers the contract and stays fast: exit 0 ok, 1 an error-level finding, 2 usage",
		ArgsUsage: "-- COMMAND [ARG...]",
		Description: "Runs COMMAND (no shell: write `-- sh -c '…'` for one) on each runtime's real hook inputs (PreToolUse and\n" +
			"PostToolUse of its shell, edit and write tools), on hostile inputs (empty, closed, not JSON, cut, 10 MB, unknown\n" +
			"tool or event, missing and mistyped fields, non-UTF-8), on the events of --event and the calls of --replay;\n" +
			"each run has the project folder as its working folder and in only the project-folder variables its\n" +
			"runtime sets (some of $" + strings.Join(agent.ProjectDirVars(), ", $") + ", …),\n" +
			"and is killed at its runtime's hook timeout, or at --timeout for every runtime when given\n" +
			"(probe/events/<runtime>/runtime.json; docs/probe.md lists them). Findings:\n" +
			"probe/hang, probe/crash, probe/fails-closed, probe/slow, probe/stdout-not-json, probe/changed,\n" +
			"probe/decision-without-agc, and every contract finding of `check --event` (agc/…). docs/probe.md.",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "runtime", Usage: "probe only this runtime `ID` (repeatable; default: every one: " + runtimeList() + ")"},
			&cli.StringSliceFlag{Name: "event", Usage: "also run the hook input(s) in `FILE` (one JSON input or JSON lines; repeatable)"},
			&cli.StringSliceFlag{Name: "replay", Usage: "re-run every call of a recorder's hook `LOG` and report the answers that changed (repeatable)"},
			&cli.IntFlag{Name: "runs", Value: probe.DefaultRuns, Usage: "`N` runs of each real input; the slowest is held to --budget"},
			&cli.DurationFlag{Name: "budget", Value: probe.DefaultBudget, Usage: "the most a guard's slowest run may take: a `DURATION` such as 500ms or 2s"},
			&cli.DurationFlag{Name: "timeout", Usage: "kill the guard and its process group after this `DURATION`, for every runtime", DefaultText: "each runtime's own hook timeout, 30s to 120s"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write SARIF to `FILE` (results on the guard's file, else its hook line)"},
			&cli.StringFlag{Name: "root", Usage: "repository root `DIR`, the guard's working folder (default: git top level, else GITHUB_WORKSPACE, else .)"},
			&cli.StringFlag{Name: "category", Value: "agc-probe/", Usage: "runAutomationDetails.id `NAME` of the SARIF run"},
		},
		Action: func(c *cli.Context) error { return runProbe(c, env) },
	}
}

// runProbe parses and reads everything the command line names, then runs the probe and writes
// the report and the SARIF.
func runProbe(c *cli.Context, env *Env) error {
	start := time.Now()
	argv := c.Args().Slice()
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return usageErrorf("probe: no guard command given (usage: agc-sarif probe [flags] -- COMMAND [ARG...])")
	}
	if c.Int("runs") < 1 || (c.IsSet("timeout") && c.Duration("timeout") <= 0) || c.Duration("budget") <= 0 {
		return usageErrorf("probe: --runs, --budget and --timeout must be positive")
	}
	rts := c.StringSlice("runtime")
	for _, rt := range rts {
		if !slices.Contains(strings.Split(runtimeList(), ", "), rt) {
			return usageErrorf("probe: unknown runtime %q (want one of %s)", rt, runtimeList())
		}
	}
	out := c.String("output")
	if out != "" {
		if !isAbs(out) {
			out = join(env.Dir, out)
		}
		if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
			return usageErrorf("probe: -o %s: no folder %s to write it in", c.String("output"), filepath.Dir(out))
		}
	}
	root, err := collect.FindRoot(c.Context, collect.Config{Root: c.String("root"), Dir: env.Dir, Getenv: env.Getenv})
	if err != nil {
		return usageErrorf("probe: %v", err)
	}
	one := ""
	if len(rts) == 1 {
		one = rts[0]
	}
	opts := probe.Options{Argv: argv, Runtimes: rts, Runs: c.Int("runs"), Budget: c.Duration("budget"),
		Timeout: c.Duration("timeout"), Dir: root, Env: os.Environ()}
	for _, name := range c.StringSlice("event") {
		b, err := readNamed(env, name)
		if err != nil {
			return exit(ExitUsage, err)
		}
		cs, err := probe.ReadEvents(name, b, one)
		if err != nil {
			return usageErrorf("probe: --event %v", err)
		}
		opts.Events = append(opts.Events, cs...)
	}
	var notes []sarif.Notification
	w := env.actionsLog().Stdout()
	for _, name := range c.StringSlice("replay") {
		b, err := readNamed(env, name)
		if err != nil {
			return exit(ExitUsage, err)
		}
		calls, skipped, err := probe.ReadLog(name, strings.NewReader(string(b)))
		if err != nil {
			return usageErrorf("probe: --replay %v", err)
		}
		if len(calls) == 0 {
			return usageErrorf("probe: --replay %s: no hook-log record to replay", name)
		}
		for _, s := range skipped {
			fmt.Fprintf(w, "%s\n", withLevel(s, "warning"))
			notes = append(notes, sarif.Notification{Level: "warning", Message: s})
		}
		opts.Replay = append(opts.Replay, calls...)
	}
	rep, err := probe.Probe(c.Context, opts)
	if err != nil {
		return exit(ExitUsage, fmt.Errorf("probe: %w", err))
	}
	red := collect.NewRedactor(true).String
	guard := probe.GuardFile(root, env.Dir, argv)
	if guard == "" {
		guard = strings.Join(argv, " ") // a command on the PATH or a file outside the repository
	}
	probe.WriteText(w, rep, guard, red)
	if out != "" {
		log, err := probe.BuildSARIF(rep, probe.SARIFOptions{Root: root, Dir: env.Dir, Argv: argv, Version: Version,
			Start: start, End: time.Now(), Redact: red, Notes: notes, Category: c.String("category")})
		if err != nil {
			return exit(ExitUsage, err)
		}
		if err := log.WriteFile(out); err != nil {
			return exit(ExitUsage, err)
		}
	}
	if rep.Errors() > 0 {
		return exit(ExitFail, nil)
	}
	return nil
}
