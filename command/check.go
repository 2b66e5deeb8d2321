package command

import "github.com/urfave/cli/v2"

// STUB: replaced by the real subcommand.
func checkCommand(env *Env) *cli.Command {
	return &cli.Command{Name: "check", Hidden: true, Action: func(*cli.Context) error { return usageErrorf("check: not built yet") }}
}
