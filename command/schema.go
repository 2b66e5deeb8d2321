package command

import "github.com/urfave/cli/v2"

// STUB: replaced by the real subcommand.
func schemaCommand(env *Env) *cli.Command {
	return &cli.Command{Name: "schema", Hidden: true, Action: func(*cli.Context) error { return usageErrorf("schema: not built yet") }}
}
