package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/friction"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/safewrite"
	"github.com/agc-sarif/agc-sarif/permit"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/summary"
)

func frictionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "friction",
		Usage:     "rank what guards and permission prompts cost the agent, by what matched them, with the exact fix for each",
		ArgsUsage: "PATH...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: string(inputs.Auto), Usage: "input format, as collect's: " + formatList()},
			&cli.StringFlag{Name: "report", Usage: "report form: text|md|json", DefaultText: "text in a terminal, else md"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: `file to write; "-" for stdout`},
			&cli.StringFlag{Name: "root", Usage: "repository root (default: git top level, else GITHUB_WORKSPACE, else .)"},
			&cli.BoolFlag{Name: "redact", Value: true, Usage: "redact secrets before any output (--redact=false only for private debugging)"},
			&cli.IntFlag{Name: "max-record-size", Value: inputs.DefaultMaxRecord, Usage: "largest record (line or document) parsed whole, in bytes"},
			&cli.IntFlag{Name: "examples", Value: friction.DefaultExamples, Usage: "examples kept per pattern"},
			&cli.GenericFlag{Name: "judgment", Value: &pathList{}, Usage: "a reviewing agent's output (`PATH`: file, folder or glob; repeatable), read as collect reads it (its findings name no tool call)"},
		},
		Action: func(c *cli.Context) error { return runFriction(c, env) },
	}
}

// runFriction reads the inputs, builds the report and writes it.
func runFriction(c *cli.Context, env *Env) error {
	form := c.String("report")
	if form == "" {
		form = "md"
		if c.String("output") == "-" && isTerminal(env.Stdout) {
			form = "text"
		}
	}
	if form != "text" && form != "md" && form != "json" {
		return usageErrorf("friction: unknown --report %q (want text, md or json)", form)
	}
	in, err := runtimes.Inputs().Parse(c.String("format"))
	if err != nil {
		return usageErrorf("%v", err)
	}
	if c.NArg() == 0 {
		return usageErrorf("friction: name at least one file, folder or glob to read")
	}
	if err := checkLimits(c); err != nil {
		return err
	}
	cfg := collect.Config{Paths: c.Args().Slice(), Judgments: judgmentPaths(c), Format: in, Root: c.String("root"), Redact: c.Bool("redact"),
		MaxRecord: c.Int("max-record-size"), Dir: env.Dir, Getenv: env.Getenv}
	tap := friction.NewTap()
	cfg.Consumer = tap
	res, err := collect.Run(c.Context, cfg)
	if err != nil {
		return exit(ExitUsage, err)
	}
	rep, err := frictionReport(env, tap, res.Root, c.Int("examples"))
	if err != nil {
		return exit(ExitUsage, err)
	}
	if err := writeFriction(c.String("output"), env, form, rep); err != nil {
		return exit(ExitUsage, err)
	}
	for _, p := range res.Set.Problems {
		fmt.Fprintf(env.Stderr, "agc-sarif: %s\n", p)
	}
	if unread := unreadInputs(res); len(unread) > 0 {
		for _, m := range unread {
			fmt.Fprintf(env.Stderr, "agc-sarif: %s\n", m)
		}
		return exit(ExitUsage, nil)
	}
	return nil
}

// frictionReport builds the friction report of what tap took from a read (redacted there), with
// paths shown relative to root; examples 0 is the default.
func frictionReport(env *Env, tap *friction.Tap, root string, examples int) (friction.Report, error) {
	anc, err := anchor.New(anchor.Options{Root: root, ProjectDirs: projectDirsOf(env)})
	if err != nil {
		return friction.Report{}, err
	}
	opts := friction.Options{Paths: anc, Examples: examples}
	o := permit.Options{Root: root, Home: env.Getenv("HOME"), Stderr: io.Discard}
	if ask, err := runtimes.Permissions().Asker(context.Background(), o); err == nil {
		opts.Asked = ask
	}
	return tap.Report(opts), nil
}

// projectDirsOf are the folders the agent worked in besides the root, as collect takes them.
func projectDirsOf(env *Env) []string {
	var out []string
	for _, k := range append(agent.ProjectDirVars(), "GITHUB_WORKSPACE") {
		if v := env.Getenv(k); v != "" && filepath.IsAbs(v) {
			out = append(out, v)
		}
	}
	return out
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writeFriction writes the report to out ("-": stdout) in form (text, md or json).
func writeFriction(out string, env *Env, form string, rep friction.Report) error {
	fill := func(w io.Writer) error {
		var err error
		switch form {
		case "json":
			return friction.WriteJSON(w, rep)
		case "text":
			_, err = io.WriteString(w, friction.Text(rep))
		default:
			_, err = io.WriteString(w, friction.Markdown(rep, 0))
		}
		return err
	}
	if out == "-" {
		return fill(env.Stdout)
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(env.Dir, out)
	}
	// Replaced whole, never through a link planted at out (safewrite).
	return safewrite.Write(env.Dir, out, fill)
}

// frictionSection is the job summary's Friction section, within summary.FrictionShare, from
// what tap took of the one read collect made; "" when the inputs held no tool calls.
func frictionSection(env *Env, tap *friction.Tap, res *collect.Result) string {
	if tap == nil || res == nil {
		return ""
	}
	rep, err := frictionReport(env, tap, res.Root, 0)
	if err != nil || rep.Calls == 0 {
		return ""
	}
	return friction.Markdown(rep, summary.FrictionShare)
}

// jobSummary is the job summary of res as the action writes it, and as collect --preview does:
// in, the run's links and upload, completed with the findings of res, then the Friction section
// of what tap took of the same read, all within summary.Limit.
func jobSummary(env *Env, tap *friction.Tap, res *collect.Result, in summary.Input, more ...string) string {
	sections := append([]string{frictionSection(env, tap, res)}, more...)
	room := 0
	for _, s := range sections {
		if s != "" {
			room += len(s) + 2
		}
	}
	in.Findings, in.Set, in.LeftOut = res.Findings, res.Set, res.LeftOut
	in.Missing, in.Failed = unreadInputs(res), outcomeNames(res.Failed)
	in.Limit = summary.Limit - room // room for the Friction section and the others
	in.Checks = runtimes.Checks()
	in.Calls, in.CallsDropped = res.Calls, res.CallsDropped
	md := summary.Render(in)
	for _, s := range sections {
		md = summary.AddSection(md, s, summary.Limit)
	}
	return md
}
