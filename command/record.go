package command

import "github.com/urfave/cli/v2"

// STUB: replaced by the real subcommand.
func recordCommand(env *Env) *cli.Command {
	return &cli.Command{Name: "record", Hidden: true, Action: func(*cli.Context) error { return usageErrorf("record: not built yet") }}
}
