package command

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// commandLineArgs are the subcommands whose arguments are a command line of their own (record's and probe's
// hook command): a flag after the first of them is the hook's, so they are never reordered.
var commandLineArgs = map[string]bool{"record": true, "probe": true}

// interspersed moves a subcommand's flags that follow its arguments ahead of them, since
// urfave/cli v2 stops reading flags at the first argument: `collect .agc -o x.sarif` then writes
// x.sarif instead of reading "-o" and "x.sarif" as paths. A flag keeps its value (the next word,
// for a flag that takes one by the command's own definitions); everything after "--" stays an
// argument, in order. The arguments are put after a "--" of their own, so none is ever read as a
// flag or the "--" as a path. A flag that takes a value but ends the line is a usage error. The
// program's own flags, an unknown subcommand and record's hook command are left as they are.
func interspersed(cmds []*cli.Command, args []string) ([]string, error) {
	i := 1
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' && args[i] != "--" {
		i++ // the program's flags (--help, --version) take no value
	}
	if i >= len(args) {
		return args, nil
	}
	cmd := findCommand(cmds, args[i])
	if cmd == nil || commandLineArgs[cmd.Name] {
		return args, nil
	}
	takes := valueFlags(cmd.Flags)
	var flags, positional, tail []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "--":
			tail = rest[j+1:]
			j = len(rest)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if hasValue || !takes[name] {
				continue
			}
			if j+1 == len(rest) {
				return nil, usageErrorf("%s: flag %s needs a value\nRun 'agc-sarif %s --help' for usage.", cmd.Name, a, cmd.Name)
			}
			j++
			flags = append(flags, rest[j])
		default:
			positional = append(positional, a)
		}
	}
	out := append(append([]string(nil), args[:i+1]...), flags...)
	if len(positional)+len(tail) > 0 {
		out = append(out, "--")
	}
	return append(append(out, positional...), tail...), nil
}

// findCommand is the subcommand named name (or aliased), or nil.
func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// valueFlags are the names (and aliases) of the flags that take a value: all but booleans.
func valueFlags(flags []cli.Flag) map[string]bool {
	out := map[string]bool{}
	for _, f := range flags {
		takes := true
		if d, ok := f.(cli.DocGenerationFlag); ok {
			takes = d.TakesValue()
		}
		for _, n := range f.Names() {
			out[n] = takes
		}
	}
	return out
}

// flagsAnywhere is the help's note that flags may follow the arguments.
const flagsAnywhere = "Flags may come before or after the arguments; every word after -- is an argument."

// noteFlagsAnywhere adds flagsAnywhere to the help of every subcommand that takes arguments and
// whose flags are reordered.
func noteFlagsAnywhere(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.ArgsUsage == "" || commandLineArgs[c.Name] {
			continue
		}
		if c.Description != "" {
			c.Description += "\n\n"
		}
		c.Description += flagsAnywhere
	}
}
