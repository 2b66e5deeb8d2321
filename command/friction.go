package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/friction"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/redact"
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
	in, err := inputs.ParseFormat(c.String("format"))
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
	rep, rd, err := frictionReport(c.Context, env, cfg, c.Int("examples"))
	if err != nil {
		return exit(ExitUsage, err)
	}
	if err := writeFriction(c.String("output"), env, form, rep); err != nil {
		return exit(ExitUsage, err)
	}
	for _, p := range rd.Set.Problems {
		fmt.Fprintf(env.Stderr, "agc-sarif: %s\n", p)
	}
	if len(rd.Missing)+len(rd.Unreadable) > 0 {
		for _, m := range append(rd.Missing, rd.Unreadable...) {
			fmt.Fprintf(env.Stderr, "agc-sarif: %s\n", m)
		}
		return exit(ExitUsage, nil)
	}
	return nil
}

// frictionReport reads the inputs of cfg, every hook decision included, and builds the friction
// report, anchored to the root found and redacted as cfg.Redact says; examples 0 is the default.
func frictionReport(ctx context.Context, env *Env, cfg collect.Config, examples int) (friction.Report, *collect.Reading, error) {
	tl := friction.NewTimeline()
	cfg.IncludeUnstructured = true
	rd, err := collect.Read(ctx, cfg, tl.Add)
	if err != nil {
		return friction.Report{}, nil, err
	}
	anc, err := anchor.New(anchor.Options{Root: rd.Root, ProjectDirs: projectDirsOf(env)})
	if err != nil {
		return friction.Report{}, nil, err
	}
	rep := tl.Report(rd.Set.Findings, friction.Options{Paths: anc, Examples: examples,
		Redactor: redact.New(redact.Options{Disabled: !cfg.Redact})})
	return rep, rd, nil
}

// projectDirsOf are the folders the agent worked in besides the root, as collect takes them.
func projectDirsOf(env *Env) []string {
	var out []string
	for _, k := range []string{"CLAUDE_PROJECT_DIR", "GITHUB_WORKSPACE"} {
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
	var w io.Writer = env.Stdout
	if out != "-" {
		if !filepath.IsAbs(out) {
			out = filepath.Join(env.Dir, out)
		}
		f, err := os.Create(out)
		if err != nil {
			return fmt.Errorf("could not write %s: %w", out, err)
		}
		defer f.Close()
		w = f
	}
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

// frictionSection is the job summary's Friction section, within summary.FrictionShare; "" when
// the inputs held no tool calls or could not be read. collect merges repeated events as it reads,
// and the ladder needs each event with its call, so the inputs are read a second time, one file
// at a time, without anchoring.
func frictionSection(ctx context.Context, s *actionState) string {
	in := s.in
	rep, _, err := frictionReport(ctx, s.env, collect.Config{Paths: dropMissingDefault(s.workspace, in.Paths, in.Judgments),
		Judgments: in.Judgments, Format: in.Format, Root: s.res.Root, Redact: true, Dir: s.workspace, Getenv: s.env.Getenv}, 0)
	if err != nil || rep.Calls == 0 {
		return ""
	}
	return friction.Markdown(rep, summary.FrictionShare)
}
