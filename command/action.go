package command

import "github.com/urfave/cli/v2"

// STUB: replaced by the real subcommand.
func actionCommand(env *Env) *cli.Command {
	return &cli.Command{Name: "action", Hidden: true, Action: func(*cli.Context) error { return usageErrorf("action: not built yet") }}
}
