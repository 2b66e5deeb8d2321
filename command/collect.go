package command

import (
	words "github.com/agc-sarif/agc-sarif/internal/plural"

	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/annotate"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/friction"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/safewrite"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// collectFlags are the flags collect and check share.
func collectFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: string(inputs.Auto), Usage: "input format: " + formatList()},
		&cli.StringFlag{Name: "root", Usage: "repository root (default: git top level, else GITHUB_WORKSPACE, else .)"},
		&cli.BoolFlag{Name: "include-unstructured", Value: true, Usage: "report hook decisions that carry no AGC response (rule hook/<name>)"},
		&cli.BoolFlag{Name: "redact", Value: true, Usage: "redact secrets before any output (--redact=false only for private debugging)"},
		&cli.IntFlag{Name: "max-record-size", Value: inputs.DefaultMaxRecord, Usage: "largest record (line or document) parsed whole, in bytes"},
		&cli.IntFlag{Name: "jobs", Usage: "files, or chunks of one big hook log, read at once", DefaultText: "number of CPUs"},
		&cli.StringFlag{Name: "if-no-files-found", Value: collect.NoFilesWarn, Usage: "what a glob or folder that matches no file means: warn, error (exit status 2) or ignore"},
		&cli.GenericFlag{Name: "judgment", Value: &pathList{}, Usage: "a reviewing agent's output (`PATH`: file, folder or glob; repeatable), read fail-closed whatever its format: no final message ending in one agc block is a breach"},
	}
}

// pathList is a repeatable flag of paths; unlike cli.StringSliceFlag it does not split a value
// on commas, which globs ({a,b}) and file names may hold.
type pathList struct{ paths []string }

func (p *pathList) Set(v string) error { p.paths = append(p.paths, v); return nil }
func (p *pathList) String() string     { return strings.Join(p.paths, ", ") }

// judgmentPaths are the values of --judgment.
func judgmentPaths(c *cli.Context) []string {
	if p, ok := c.Generic("judgment").(*pathList); ok {
		return p.paths
	}
	return nil
}

// minMaxRecord is the smallest --max-record-size: below it ordinary hook records (a tool output of
// a few hundred KiB) would be skipped as too long.
const minMaxRecord = 1 << 20

// checkLimits rejects --jobs below 1 and --max-record-size below 1 MiB as bad usage. Left unset,
// --jobs is the number of CPUs. Every command that reads inputs (collect, check, friction) calls it.
func checkLimits(c *cli.Context) error {
	if c.IsSet("jobs") && c.Int("jobs") < 1 {
		return usageErrorf("%s: --jobs %d: want at least 1 (leave it out for one per CPU)", c.Command.Name, c.Int("jobs"))
	}
	if n := c.Int("max-record-size"); n < minMaxRecord {
		return usageErrorf("%s: --max-record-size %d: want at least %d (1 MiB)", c.Command.Name, n, minMaxRecord)
	}
	return nil
}

// parseFailOn reads --fail-on; an empty value is bad usage (write none to never fail).
func parseFailOn(c *cli.Context) ([]collect.Outcome, error) {
	v := c.String("fail-on")
	if strings.TrimSpace(strings.ReplaceAll(v, ",", "")) == "" {
		return nil, usageErrorf("%s: --fail-on is empty: name the outcomes that fail the run, or none", c.Command.Name)
	}
	list, err := collect.ParseFailOn(v)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return list, nil
}

func formatList() string {
	var s []string
	for _, f := range runtimes.Inputs().Names() {
		s = append(s, string(f))
	}
	return strings.Join(s, "|")
}

// configFrom builds a collect.Config from the shared flags.
func configFrom(c *cli.Context, env *Env) (collect.Config, error) {
	format, err := runtimes.Inputs().Parse(c.String("format"))
	if err != nil {
		return collect.Config{}, usageErrorf("%v", err)
	}
	judgments := judgmentPaths(c)
	if c.NArg() == 0 && len(judgments) == 0 {
		return collect.Config{}, usageErrorf("%s: name at least one file, folder or glob to read", c.Command.Name)
	}
	if err := checkLimits(c); err != nil {
		return collect.Config{}, err
	}
	noFiles, err := collect.ParseIfNoFilesFound(c.String("if-no-files-found"))
	if err != nil {
		return collect.Config{}, usageErrorf("%s: --%v", c.Command.Name, err)
	}
	return collect.Config{
		IfNoFilesFound:      noFiles,
		Stdin:               env.Stdin,
		Paths:               c.Args().Slice(),
		Judgments:           judgments,
		Format:              format,
		Root:                c.String("root"),
		IncludeUnstructured: c.Bool("include-unstructured"),
		Redact:              c.Bool("redact"),
		MaxRecord:           c.Int("max-record-size"),
		Jobs:                c.Int("jobs"),
		Dir:                 env.Dir,
		Getenv:              env.Getenv,
		Stderr:              env.Stderr,
		Version:             Version,
	}, nil
}

func collectCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "collect",
		Usage:     "read inputs (files, folders, globs) and write SARIF",
		ArgsUsage: "PATH...",
		Flags: append(collectFlags(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "agc.sarif", Usage: `SARIF file to write; "-" for stdout`},
			&cli.StringFlag{Name: "category", Usage: "runAutomationDetails.id (default: workflow:job/ in GitHub Actions, else agc/)"},
			&cli.StringFlag{Name: "fail-on", Value: collect.DefaultFailOn, Usage: "comma list of outcomes that make the exit status 1: block, judgment-block, repaired, steer, contract, none"},
			&cli.StringFlag{Name: "base", Usage: "the change's base revision (git diff BASE...HEAD): events that touched no file are anchored beside their session's edits in that diff"},
			&cli.StringFlag{Name: "session-anchor", Value: string(anchor.SessionEdit), Usage: "with --base, where events that touched no file go: edit (beside the session's nearest edit in the diff) or config (the hook's settings line)"},
			&cli.StringFlag{Name: "matrix", Usage: "the job's matrix as JSON (${{ toJSON(matrix) }}), appended to the default category"},
			&cli.StringFlag{Name: "preview", Usage: "also write what the action would show on GitHub into `DIR`: summary.md (the job summary), annotations.txt (the annotations as workflow commands) and agc-results.sarif"},
			&cli.StringSliceFlag{Name: "level", Usage: "set the SARIF level of a verdict, overriding what --fail-on gives: KEY=LEVEL, KEY one of block, repaired, steer, contract; LEVEL error, warning or note (repeat, or comma list)"},
		),
		Action: func(c *cli.Context) error {
			cfg, err := configFrom(c, env)
			if err != nil {
				return err
			}
			cfg.Category, cfg.Matrix = c.String("category"), c.String("matrix")
			cfg.Base = c.String("base")
			if cfg.SessionAnchor, err = anchor.ParseSessionMode(c.String("session-anchor")); err != nil {
				return usageErrorf("%v", err)
			}
			if cfg.FailOn, err = parseFailOn(c); err != nil {
				return err
			}
			if cfg.Levels, err = collect.ParseLevels(c.StringSlice("level")); err != nil {
				return usageErrorf("%v", err)
			}
			var tap *friction.Tap
			if c.String("preview") != "" {
				tap = friction.NewTap() // the preview's Friction section reads the same pass, as the action's
				cfg.Consumer = tap
			}
			res, err := collect.Run(c.Context, cfg)
			if err != nil {
				return exit(ExitUsage, err)
			}
			if err := writeOutput(env, c.String("output"), res.SARIF); err != nil {
				return exit(ExitUsage, err)
			}
			if dir := c.String("preview"); dir != "" {
				if err := writePreview(env, dir, res, tap, cfg.FailOn); err != nil {
					return exit(ExitUsage, err)
				}
			}
			printProblems(env, res)
			printTable(env.Stderr, res)
			return statusOf(env, res, cfg.FailOn)
		},
	}
}

// writeOutput writes data to path ("-" is stdout), replacing an existing file whole and never
// writing through a link (safewrite; the working folder is the workspace).
func writeOutput(env *Env, path string, data []byte) error {
	if path == "-" { // the SARIF carries agent text: escaped so that no line is a command
		return env.actionsLog().Data(data)
	}
	if !isAbs(path) {
		path = join(env.Dir, path)
	}
	return safewrite.WriteFile(env.Dir, path, data)
}

// printProblems lists the inputs that could not be read and the records skipped as bad.
func printProblems(env *Env, res *collect.Result) {
	for _, m := range res.Missing {
		fmt.Fprintf(env.Stderr, "agc-sarif: %s\n", m)
	}
	for _, m := range res.Files.Unreadable {
		fmt.Fprintf(env.Stderr, "agc-sarif: %s\n", m)
	}
	for _, m := range res.Unrecognised {
		fmt.Fprintf(env.Stderr, "agc-sarif: error: %s\n", m)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(env.Stderr, "agc-sarif: warning: %s\n", w)
	}
	for _, n := range res.Notices {
		fmt.Fprintf(env.Stderr, "agc-sarif: notice: %s\n", n)
	}
	const most = 50
	for i, p := range res.Set.Problems {
		if i == most {
			fmt.Fprintf(env.Stderr, "agc-sarif: … and %s (all are notifications in the SARIF)\n", words.N(len(res.Set.Problems)-most, "more problem", "more problems"))
			break
		}
		fmt.Fprintf(env.Stderr, "%s\n", p)
	}
	for _, l := range res.LeftOut {
		fmt.Fprintf(env.Stderr, "agc-sarif: left out: %s\n", l)
	}
}

// statusOf maps a result to the exit status: 2 when a named input could not be read, 1 when a
// --fail-on outcome was found, else 0. Outputs are written before this is called. With exit
// status 1, stderr ends with the findings that decide it (printFailing).
func statusOf(env *Env, res *collect.Result, failOn []collect.Outcome) error {
	if res.Unreadable() {
		return exit(ExitUsage, nil)
	}
	if len(res.Failed) > 0 {
		var names []string
		for _, o := range res.Failed {
			names = append(names, string(o))
		}
		printFailing(env, res.Findings, failOn, strings.Join(names, ", "), len(res.LeftOut) == 0)
		return exit(ExitFail, nil)
	}
	return nil
}

// maxFailingLines is how many failing findings the end of stderr names; the rest are counted.
const maxFailingLines = 20

// printFailing ends stderr with the findings that decide exit status 1, heaviest first, one
// line each with the text of their annotation: at most maxFailingLines, then how many more and,
// when the SARIF holds every finding (complete), that they are there.
func printFailing(env *Env, fs []findings.Finding, failOn []collect.Outcome, outcomes string, complete bool) {
	var failing []findings.Finding
	for i := range fs {
		if collect.Fails(failOn, &fs[i]) {
			failing = append(failing, fs[i])
		}
	}
	findings.SortHeaviest(failing)
	w := env.Stderr
	fmt.Fprintf(w, "agc-sarif: failing on: %s, because of %s:\n", outcomes, plural(len(failing), "finding", "findings"))
	for i, f := range failing {
		if i == maxFailingLines {
			where := "all are in the SARIF file"
			if !complete {
				where = "the SARIF file holds the heaviest; some results were left out to stay inside GitHub's limits"
			}
			fmt.Fprintf(w, "… and %s (%s)\n", plural(len(failing)-maxFailingLines, "more finding", "more findings"), where)
			break
		}
		fmt.Fprintf(w, "%s\n", annotate.Line(f))
	}
}
