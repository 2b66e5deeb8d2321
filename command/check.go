package command

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	words "github.com/agc-sarif/agc-sarif/internal/plural"
	"github.com/agc-sarif/agc-sarif/probe"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

func checkCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "report every contract breach of a gate's output, for gate authors: exit 0 ok, 1 breaches, 2 nothing read",
		Description: "Each breach is one line, file:line: level: rule: message, then the fix, in document order.\n" +
			"\"-\" reads the standard input. With --event, the input is one hook's raw stdout, checked as the\n" +
			"runtime reads it, with its --exit-status and --stderr FILE; to run a guard and check its answers,\n" +
			"use agc-sarif probe --event input.json -- guard.sh (docs/probe.md).\n" +
			"Exit status: 0 when at least one record was read and nothing breaks the contract, 1 when\n" +
			"something does, 2 when an input could not be read or nothing was read at all.",
		ArgsUsage: "PATH...",
		Flags: append(collectFlags(),
			&cli.StringFlag{Name: "event", Usage: "read the input as one hook's raw stdout for this hook `EVENT` (PreToolUse, PostToolUse, …)"},
			&cli.StringFlag{Name: "runtime", Value: runtimes.Default().Runtime(), Usage: "with --event, the runtime that reads the answer: " + runtimeList()},
			&cli.IntFlag{Name: "exit-status", Usage: "with --event, the hook's exit status"},
			&cli.StringFlag{Name: "stderr", Usage: "with --event, a `FILE` holding the hook's stderr"},
		),
		Action: func(c *cli.Context) error {
			if c.IsSet("event") {
				return checkHookAnswer(c, env)
			}
			for _, f := range []string{"runtime", "exit-status", "stderr"} {
				if c.IsSet(f) {
					return usageErrorf("check: --%s goes with --event", f)
				}
			}
			cfg, err := configFrom(c, env)
			if err != nil {
				return err
			}
			res, err := collect.Check(c.Context, cfg)
			if err != nil {
				return exit(ExitUsage, err)
			}
			return exit(report(env, res), nil)
		},
	}
}

func runtimeList() string {
	var ids []string
	for _, b := range runtimes.Bindings() {
		ids = append(ids, b.Runtime())
	}
	return strings.Join(ids, ", ")
}

// report prints every breach and unreadable record as "file:line: level: rule: message" with the
// fix, in document order, then what was passed over and one verdict line, and returns the exit
// status: 2 when an input could not be read or no record was read, 1 on a breach, else 0.
func report(env *Env, res *collect.Checked) int {
	w := env.actionsLog().Stdout() // the report quotes agent text: escaped, wrapped in Actions
	checks := runtimes.Checks()
	errs, breaches := 0, 0
	for _, l := range res.Lines {
		if l.Problem != nil {
			fmt.Fprintf(w, "%s: error: %s\n", l.Problem.Source.File+lineSuffix(l.Problem.Source.Line), l.Problem.Message)
			errs++
			breaches++
			continue
		}
		printBreach(w, checks, l.Finding.Source, l.Finding.Severity, l.Finding.RuleID, l.Finding.Message)
		breaches++
		if l.Finding.Severity == findings.Error {
			errs++
		}
	}
	for _, m := range append(append(append([]string(nil), res.Missing...), res.Unreadable...), res.Unrecognised...) {
		fmt.Fprintf(w, "%s\n", withLevel(m, "error"))
	}
	for _, m := range res.Warnings {
		fmt.Fprintf(w, "%s\n", withLevel(m, "warning"))
	}
	for _, m := range res.Notices {
		fmt.Fprintf(w, "%s\n", withLevel(m, "notice"))
	}
	read := fmt.Sprintf("%s read (%s, %s)", plural(res.Records, "record", "records"),
		plural(res.FilesRead, "file", "files"), plural(res.GateFindings, "gate finding", "gate findings"))
	switch {
	case res.Failed():
		fmt.Fprintf(w, "not checked: an input could not be read; %s\n", read)
		return ExitUsage
	case breaches > 0:
		fmt.Fprintf(w, "%s (%s) in %s\n", plural(breaches, "contract breach", "contract breaches"), plural(errs, "error", "errors"), read)
		if errs == 0 {
			return ExitOK
		}
		return ExitFail
	case res.Records == 0:
		fmt.Fprintf(w, "nothing checked: no record was read\n")
		return ExitUsage
	}
	fmt.Fprintf(w, "ok: %s, no contract breaches\n", read)
	return ExitOK
}

// withLevel prefixes a "file: message" line's message with its level.
func withLevel(m, level string) string {
	if file, msg, ok := strings.Cut(m, ": "); ok {
		return file + ": " + level + ": " + msg
	}
	return level + ": " + m
}

// printBreach prints one breach and the fix of its check, from its row in checks.
func printBreach(w io.Writer, checks gates.Rows, src findings.Source, level findings.Level, rule, msg string) {
	fmt.Fprintf(w, "%s: %s: %s: %s\n", src.File+lineSuffix(src.Line), level, rule, msg)
	if c, ok := checks.Lookup(rule); ok {
		fmt.Fprintf(w, "    fix: %s\n", c.Fix)
	}
}

// checkHookAnswer checks the input as one hook's raw answer (--event): its stdout from the one
// path argument ("-" for the standard input), its stderr from --stderr, its exit status.
func checkHookAnswer(c *cli.Context, env *Env) error {
	if c.NArg() != 1 || len(judgmentPaths(c)) > 0 {
		return usageErrorf("check --event: name one input, the hook's stdout (\"-\" for the standard input)")
	}
	name := c.Args().First()
	stdout, err := readNamed(env, name)
	if err != nil {
		return exit(ExitUsage, err)
	}
	var stderr []byte
	if p := c.String("stderr"); p != "" {
		if stderr, err = readNamed(env, p); err != nil {
			return exit(ExitUsage, err)
		}
	}
	res, err := runtimes.CheckHookAnswer(c.String("runtime"), c.String("event"), stdout, stderr, c.Int("exit-status"))
	if err != nil {
		return usageErrorf("check: %v", err)
	}
	if name == "-" {
		name = collect.StdinName
	}
	red := collect.NewRedactor(c.Bool("redact")).String
	w := env.actionsLog().Stdout()
	checks := runtimes.Checks()
	errs := 0
	for _, b := range res.Breaches {
		level := findings.Error
		if ch, ok := checks.Lookup(b.Check); ok {
			level = findings.Level(ch.Level)
		}
		if level == findings.Error {
			errs++
		}
		printBreach(w, checks, findings.Source{File: name, Line: max(b.Line, 1)}, level, b.Check, red(b.Message))
	}
	warns := answerWarnings(w, name, c.String("runtime"), c.String("event"), stdout, stderr, c.Int("exit-status"), red)
	what := fmt.Sprintf("the %s answer (exit status %d) as %s reads it, carrying %s", c.String("event"), c.Int("exit-status"),
		c.String("runtime"), plural(len(res.Responses), "AGC response", "AGC responses"))
	switch {
	case len(res.Breaches) > 0:
		fmt.Fprintf(w, "%s (%s) in %s\n", plural(len(res.Breaches), "contract breach", "contract breaches"), plural(errs, "error", "errors"), what)
		if errs > 0 {
			return exit(ExitFail, nil)
		}
		return nil
	case warns > 0:
		fmt.Fprintf(w, "no contract breaches but %s in %s\n", plural(warns, "warning", "warnings"), what)
		return nil
	}
	fmt.Fprintf(w, "ok: no contract breaches in %s\n", what)
	return nil
}

// answerWarnings prints, as warnings, what probe finds in a hook answer that breaks no contract
// check: stdout that is not one JSON answer, and a decision without an AGC response. It returns
// how many it printed.
func answerWarnings(w io.Writer, name, runtime, event string, stdout, stderr []byte, exitStatus int, red func(string) string) int {
	c := probe.Case{Runtime: runtime, Event: event}
	n := 0
	for _, f := range probe.Judge(c, probe.Run{Exit: exitStatus, Stdout: stdout, Stderr: stderr}, "") {
		if f.Rule != probe.RuleStdoutNotJSON && f.Rule != probe.RuleNoAGC {
			continue
		}
		msg := strings.Replace(f.Message, "the guard", "the hook", 1)
		printBreach(w, probe.Rows(), findings.Source{File: name, Line: 1}, findings.Warning, f.Rule, red(msg))
		n++
	}
	return n
}

// readNamed reads a file the user named (relative to the working folder), or the standard
// input for "-".
func readNamed(env *Env, name string) ([]byte, error) {
	if name == "-" {
		if env.Stdin == nil {
			return nil, fmt.Errorf("-: no standard input to read")
		}
		b, err := io.ReadAll(env.Stdin)
		if err != nil {
			return nil, fmt.Errorf("could not read the standard input: %w", err)
		}
		return b, nil
	}
	p := name
	if !isAbs(p) {
		p = join(env.Dir, p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("could not read %s: %w", name, err)
	}
	return b, nil
}

func lineSuffix(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(":%d", n)
}

func plural(n int, one, many string) string { return words.N(n, one, many) }
