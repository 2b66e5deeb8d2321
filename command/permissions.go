package command

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/internal/safewrite"
	"github.com/agc-sarif/agc-sarif/internal/version"
	"github.com/agc-sarif/agc-sarif/permit"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/sarif"
)

func permissionsCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "permissions",
		Usage:     "explain why each call of a run was allowed, asked or denied (the rule and its line, near misses, the fix), or lint permission settings",
		ArgsUsage: "[INPUT...]  (hook log, transcript, stream-json; - for JSON lines of {tool_name, tool_input, cwd})",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "root", Usage: "the project whose settings files are read (default: git top level, else .)"},
			&cli.StringFlag{Name: "user-settings", Usage: "the user settings file of the run"},
			&cli.StringFlag{Name: "settings", Usage: "the --settings file the run was given"},
			&cli.StringFlag{Name: "managed-settings", Usage: "the managed (policy) settings file"},
			&cli.BoolFlag{Name: "trusted", Usage: "the workspace was trusted (a headless run in a fresh checkout is not)"},
			&cli.StringFlag{Name: "mode", Usage: "the run's --permission-mode: default|acceptEdits|plan|dontAsk|bypassPermissions"},
			&cli.StringFlag{Name: "report", Value: "text", Usage: "report form: text|md|json"},
			&cli.BoolFlag{Name: "lint", Usage: "lint the settings files instead of explaining calls"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "with --lint: write the results as SARIF to `FILE`"},
		},
		Action: func(c *cli.Context) error { return runPermissions(c, env) },
	}
}

func runPermissions(c *cli.Context, env *Env) error {
	switch c.String("report") {
	case "text", "md", "json":
	default:
		return usageErrorf("permissions: unknown --report %q (want text, md or json)", c.String("report"))
	}
	switch m := c.String("mode"); m {
	case "", "default", "acceptEdits", "plan", "dontAsk", "bypassPermissions":
	default:
		return usageErrorf("permissions: unknown --mode %q (want default, acceptEdits, plan, dontAsk or bypassPermissions)", m)
	}
	abs := func(p string) string {
		if p != "" && p != "-" && !filepath.IsAbs(p) {
			return filepath.Join(env.Dir, p)
		}
		return p
	}
	root := abs(c.String("root"))
	if root == "" {
		root = gitTop(c.Context, env.Dir)
	}
	home := env.Getenv("HOME")
	o := permit.Options{Root: root, Home: home, UserSettings: abs(c.String("user-settings")), Settings: abs(c.String("settings")),
		ManagedSettings: abs(c.String("managed-settings")), Trusted: c.Bool("trusted"), Mode: c.String("mode"),
		Report: c.String("report"), Redact: collect.NewRedactor(true), Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr}
	for _, p := range []string{o.UserSettings, o.Settings, o.ManagedSettings} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return exit(ExitUsage, fmt.Errorf("permissions: %w", unwrapPath(err)))
		}
	}
	run := runtimes.Permissions()
	if c.Bool("lint") {
		if c.NArg() > 0 {
			return usageErrorf("permissions --lint reads the settings files only: it takes no INPUT (got %s)", strings.Join(c.Args().Slice(), " "))
		}
		return lintPermissions(c, env, run, o)
	}
	if c.String("output") != "" {
		return usageErrorf("permissions: -o writes the lint's SARIF: use it with --lint")
	}
	if c.NArg() == 0 {
		return usageErrorf("permissions: name the run's records to explain (a hook log, transcript or stream-json), or - for JSON lines of calls")
	}
	for _, in := range c.Args().Slice() {
		p := abs(in)
		if in == "-" {
			o.Inputs = append(o.Inputs, "-")
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return exit(ExitUsage, fmt.Errorf("permissions: %w", unwrapPath(err)))
		}
		o.Inputs = append(o.Inputs, p)
	}
	if err := run.Explain(c.Context, o); err != nil {
		return exit(ExitUsage, fmt.Errorf("permissions: %w", err))
	}
	return nil
}

// lintPermissions prints one line per lint result and writes the SARIF; exit 1 on an error-level
// result.
func lintPermissions(c *cli.Context, env *Env, run permit.Runner, o permit.Options) error {
	res, err := run.Lint(c.Context, o)
	if err != nil {
		return exit(ExitUsage, fmt.Errorf("permissions --lint: %w", err))
	}
	failed := false
	for _, f := range res {
		fmt.Fprintf(env.Stdout, "%s:%d: %s: %s: %s\n", f.File, f.Line, f.Level, f.Rule, f.Message)
		failed = failed || f.Level == "error"
	}
	if len(res) == 0 {
		fmt.Fprintf(env.Stdout, "ok: the permission settings hold no rule that misleads (%s)\n", run.Version())
	}
	if out := c.String("output"); out != "" {
		log := sarif.SimpleLog{Tool: "agc-sarif permissions", Version: version.String(), Category: "agc-permissions", Root: o.Root}
		for _, r := range run.Rules() {
			log.Rules = append(log.Rules, sarif.SimpleRule{ID: r.ID, Title: r.Title, Help: r.Help})
		}
		for _, f := range res {
			log.Results = append(log.Results, sarif.SimpleResult{Rule: f.Rule, Level: f.Level, File: f.File, Line: f.Line, Message: f.Message})
		}
		b, err := sarif.Simple(log)
		if err != nil {
			return exit(ExitUsage, err)
		}
		if !filepath.IsAbs(out) {
			out = filepath.Join(env.Dir, out)
		}
		if err := safewrite.WriteFile(env.Dir, out, b); err != nil {
			return exit(ExitUsage, fmt.Errorf("could not write %s: %w", out, err))
		}
	}
	if failed {
		return exit(1, nil)
	}
	return nil
}

// gitTop is the git top level of dir, else dir.
func gitTop(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return dir
}

// unwrapPath keeps a path error's path and reason.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
