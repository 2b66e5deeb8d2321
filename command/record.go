package command

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/record"
)

// defaultHookLog is the hook log's place inside the project folder.
const defaultHookLog = record.DefaultLog

// recordCommand is `agc-sarif record [--log FILE] [--runtime NAME] -- HOOK-COMMAND...`.
func recordCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "record",
		Usage:     "run a hook unchanged and append one record of it to the hook log",
		ArgsUsage: "-- HOOK-COMMAND [ARG...]",
		Description: "Runs HOOK-COMMAND (no shell: write `-- sh -c '…'` for one) with the same stdin,\n" +
			"environment and working folder, passes its stdout, stderr and exit status through, and\n" +
			"appends one JSON line to the hook log. A log that cannot be written never changes the\n" +
			"hook's answer: the failure is noted in $AGC_RECORD_WARNINGS, else\n" +
			"$XDG_STATE_HOME/agc-sarif/record-warnings.log (~/.local/state/…). Default log: " + defaultHookLog + " in " + agent.ProjectDirNames() + ", else ./" + defaultHookLog + ".",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log", Usage: "hook log `FILE` to append to (default: $AGC_HOOK_LOG, else " + defaultHookLog + " in " + agent.ProjectDirNames() + ", else ./" + defaultHookLog + ")"},
			&cli.StringFlag{Name: "runtime", Usage: "`NAME` for the record's runtime field (default: recognised from the hook's input, else " + agent.Fallback + ")"},
			&cli.BoolFlag{Name: "version", Usage: "print the version and exit (as agc-record --version does)"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				fmt.Fprintf(env.Stdout, "agc-sarif %s\n", Version)
				return nil
			}
			argv := c.Args().Slice()
			if len(argv) > 0 && argv[0] == "--" {
				argv = argv[1:]
			}
			if len(argv) == 0 {
				return usageErrorf("record: no hook command given (usage: agc-sarif record [--log FILE] -- HOOK-COMMAND...)")
			}
			signals := make(chan os.Signal, 4)
			ready, stop := record.CatchSignals(signals)
			defer stop()
			code, _ := record.Run(c.Context, record.Options{
				Command:      argv,
				Dir:          env.Dir,
				Stdin:        env.Stdin,
				Stdout:       env.Stdout,
				Stderr:       env.Stderr,
				Log:          record.LogPath(c.String("log"), env.Getenv, env.Dir),
				Warnings:     record.WarnPath(env.Getenv),
				Runtime:      c.String("runtime"),
				Signals:      signals,
				SignalsReady: ready,
			})
			if code == ExitOK {
				return nil
			}
			return exit(code, nil)
		},
	}
}
