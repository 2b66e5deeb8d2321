package command

import "github.com/urfave/cli/v2"

// STUB: replaced by the real subcommand.
func uploadCommand(env *Env) *cli.Command {
	return &cli.Command{Name: "upload", Hidden: true, Action: func(*cli.Context) error { return usageErrorf("upload: not built yet") }}
}
