package command

import (
	"fmt"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

func checkCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "human-readable contract report for gate authors; exit 1 on breaches",
		ArgsUsage: "PATH...",
		Flags:     collectFlags(),
		Action: func(c *cli.Context) error {
			cfg, err := configFrom(c, env)
			if err != nil {
				return err
			}
			res, err := collect.Run(c.Context, cfg)
			if err != nil {
				return exit(ExitUsage, err)
			}
			breaches := report(env, res)
			if res.Unreadable() {
				return exit(ExitUsage, nil)
			}
			if breaches > 0 {
				return exit(ExitFail, nil)
			}
			return nil
		},
	}
}

// report prints every contract finding as "file:line: rule: message" with the fix, then a
// one-line verdict, and returns the number of breaches of level error plus unreadable records.
func report(env *Env, res *collect.Result) int {
	w := env.actionsLog().Stdout() // the report quotes agent text: escaped, wrapped in Actions
	var contract []findings.Finding
	for _, f := range res.Findings {
		if f.Kind == findings.Contract {
			contract = append(contract, f)
		}
	}
	sort.SliceStable(contract, func(i, j int) bool {
		a, b := contract[i].Source, contract[j].Source
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	errors := 0
	for _, f := range contract {
		where := f.Source.File
		if f.Source.Line > 0 {
			where = fmt.Sprintf("%s:%d", where, f.Source.Line)
		}
		fmt.Fprintf(w, "%s: %s: %s: %s\n", where, f.Severity, f.RuleID, f.Message)
		if c, ok := gates.LookupCheck(f.RuleID); ok {
			fmt.Fprintf(w, "    fix: %s\n", c.Fix)
		}
		if f.Count > 1 {
			fmt.Fprintf(w, "    (seen %d times)\n", f.Count)
		}
		if f.Severity == findings.Error { // the check's own severity, not the output level
			errors++
		}
	}
	for _, p := range res.Set.Problems {
		fmt.Fprintf(w, "%s: error: %s\n", p.Source.File+lineSuffix(p.Source.Line), p.Message)
		errors++
	}
	for _, m := range append(append([]string(nil), res.Missing...), res.Files.Unreadable...) {
		fmt.Fprintf(w, "%s\n", m)
	}
	gateFindings := len(res.Findings) - len(contract)
	switch {
	case errors == 0 && len(contract) == 0:
		fmt.Fprintf(w, "ok: %d records read, no contract breaches (%d gate findings)\n", res.Set.Records, gateFindings)
	default:
		fmt.Fprintf(w, "%s (%d errors) in %d records read (%d gate findings)\n", plural(len(contract)+len(res.Set.Problems), "contract breach", "contract breaches"), errors, res.Set.Records, gateFindings)
	}
	return errors
}

func lineSuffix(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(":%d", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
