package command

import "github.com/urfave/cli/v2"

// STUB: replaced by the real subcommand.
func collectCommand(env *Env) *cli.Command {
	return &cli.Command{Name: "collect", Hidden: true, Action: func(*cli.Context) error { return usageErrorf("collect: not built yet") }}
}
