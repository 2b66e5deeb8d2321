// Package command wires the agc-sarif subcommands to urfave/cli. Every subcommand takes its
// standard streams and environment from Env, so tests run them in-process.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"

	"github.com/agc-sarif/agc-sarif/actionslog"
	"github.com/agc-sarif/agc-sarif/internal/version"
)

// Exit statuses of agc-sarif.
const (
	ExitOK    = 0 // nothing to fail on
	ExitFail  = 1 // a --fail-on outcome was found (outputs are written first)
	ExitUsage = 2 // bad usage, or input that could not be read at all
)

// Version is the tool's version, the same as agc-record's (package internal/version: set at build
// time with -ldflags, else the module version go install recorded).
var Version = version.String()

// Env is what a subcommand may touch of its process: streams, environment and working folder.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Dir    string // working folder; relative paths are resolved against it
	// open opens the input files collect reads (nil: os.Open); tests count the opens.
	open func(string) (*os.File, error)
	// log writes agent text and our workflow commands safely (set by Main; nil in a bare Env).
	log *actionslog.Log
}

// OSEnv is the Env of the running process.
func OSEnv() Env {
	dir, _ := os.Getwd()
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Dir: dir}
}

// exitError carries an exit status out of a subcommand's action.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

// exit makes an error that ends the program with code, printing err (if any) to stderr.
func exit(code int, err error) error { return &exitError{code: code, err: err} }

// usageErrorf reports bad usage (exit 2).
func usageErrorf(format string, args ...any) error {
	return exit(ExitUsage, fmt.Errorf(format, args...))
}

// Main runs agc-sarif with args (args[0] is the program name) and returns the exit status.
func Main(ctx context.Context, args []string, env Env) int {
	// The container image's entrypoint is agc-sarif itself: run bare inside Actions, it is the action.
	args = DefaultArgs(args, env.Getenv)
	// What agc-sarif prints names files and quotes records that agents wrote; the runner would
	// obey a workflow command in it. One writer escapes and wraps it (inert.go).
	log := useActionsLog(&env, args)
	defer log.Close()
	app := &cli.App{
		Name:      "agc-sarif",
		Usage:     "turn AGC gate verdicts from agent hooks and reviewers into SARIF for GitHub code scanning",
		Version:   Version,
		Writer:    env.Stdout,
		ErrWriter: env.Stderr,
		Reader:    env.Stdin,
		// Errors are printed and mapped to exit statuses here, never by os.Exit inside urfave/cli.
		ExitErrHandler:       func(*cli.Context, error) {},
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		Commands:             commands(&env),
		OnUsageError:         onUsageError,
		Action:               rootAction,
	}
	// A subcommand's bad flag is one line and a hint, not its whole help on stdout.
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
	}
	noteFlagsAnywhere(app.Commands)
	// Flags after the arguments are read as flags, never as paths (args.go).
	args, err := interspersed(app.Commands, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(env.Stderr, "agc-sarif: %v\n", ee.err)
		}
		return ee.code
	}
	// urfave/cli's own errors (unknown flag, missing command) are usage errors.
	fmt.Fprintf(env.Stderr, "agc-sarif: %v\n", err)
	return ExitUsage
}

// commands are agc-sarif's subcommands, working on env.
func commands(env *Env) []*cli.Command {
	return []*cli.Command{
		collectCommand(env),
		frictionCommand(env),
		permissionsCommand(env),
		checkCommand(env),
		recordCommand(env),
		probeCommand(env),
		uploadCommand(env),
		reviewCommand(env),
		actionCommand(env),
		schemaCommand(env),
		versionCommand(env),
	}
}

// onUsageError turns a flag parse error into a usage error (exit 2): one line naming the flag,
// with the nearest known flag when there is one, and where to read the usage.
func onUsageError(c *cli.Context, err error, isSubcommand bool) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimLeft(name, "-")
		msg = "unknown flag -" + name
		if len(name) > 1 {
			msg = "unknown flag --" + name
		}
		if s := nearestFlag(c.Command.Flags, name); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
	}
	return usageErrorf("%s\n%s", msg, usageHint(c, isSubcommand))
}

// usageHint names the help command for the subcommand (or the program) that was misused.
func usageHint(c *cli.Context, isSubcommand bool) string {
	if isSubcommand && c.Command != nil && c.Command.Name != "" {
		return fmt.Sprintf("Run 'agc-sarif %s --help' for usage.", c.Command.Name)
	}
	return "Run 'agc-sarif --help' for usage."
}

// nearestFlag is the flag name most like name, as --name, or "" when none is close.
func nearestFlag(flags []cli.Flag, name string) string {
	var names []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 || len(name) == 1 { // -o is not a suggestion for --bogus
				names = append(names, n)
			}
		}
	}
	best := nearest(names, name)
	switch {
	case best == "":
		return ""
	case len(best) == 1:
		return "-" + best
	}
	return "--" + best
}

// nearest is the candidate most like s by Jaro-Winkler similarity (as urfave/cli suggests),
// or "" when none reaches minSimilarity.
func nearest(candidates []string, s string) string {
	const minSimilarity = 0.8
	best, score := "", minSimilarity
	for _, c := range candidates {
		if d := smetrics.JaroWinkler(c, s, 0.7, 4); d >= score {
			best, score = c, d
		}
	}
	return best
}

// rootAction runs when no subcommand matched: an unknown name is a usage error that suggests the
// nearest command; no arguments at all prints the help.
func rootAction(c *cli.Context) error {
	if !c.Args().Present() {
		return cli.ShowAppHelp(c)
	}
	name := c.Args().First()
	if name == "help" { // the help command is hidden, not gone
		if c.NArg() > 1 && c.App.Command(c.Args().Get(1)) != nil {
			return cli.ShowCommandHelp(c, c.Args().Get(1))
		}
		return cli.ShowAppHelp(c)
	}
	var names []string
	for _, cmd := range c.App.Commands {
		names = append(names, cmd.Names()...)
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := nearest(names, name); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return usageErrorf("%s\n%s", msg, usageHint(c, false))
}

// subcommand is the first argument that is not a flag, or "".
func subcommand(args []string) string {
	for _, a := range args[min(1, len(args)):] {
		if len(a) > 0 && a[0] != '-' {
			return a
		}
	}
	return ""
}

func versionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version",
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageErrorf("version takes no arguments, got %q", c.Args().First())
			}
			fmt.Fprintf(env.Stdout, "agc-sarif %s\n", Version)
			return nil
		},
	}
}
