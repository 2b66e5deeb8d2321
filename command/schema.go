package command

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/gates"
)

// schemaCommand prints the AGC 0.1 JSON Schema that collect and check validate responses against,
// for editors and for gate authors' own tests.
func schemaCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the AGC 0.1 JSON Schema (draft 2020-12) that responses are checked against",
		Description: "Point an editor's JSON Schema support at the output (or at its $id, " + gates.SchemaID +
			") to check a gate's responses while writing it.",
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageErrorf("schema takes no arguments, got %q", c.Args().First())
			}
			if _, err := env.Stdout.Write(gates.Schema()); err != nil {
				return exit(ExitUsage, fmt.Errorf("could not write the schema: %w", err))
			}
			return nil
		},
	}
}
