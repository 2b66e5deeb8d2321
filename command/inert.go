package command

import (
	"github.com/agc-sarif/agc-sarif/actionslog"
)

// useActionsLog routes what a subcommand prints through one actionslog.Log: stderr becomes its
// text stream (every line escaped; in GitHub Actions wrapped in a stop-commands stretch), and the
// Log is kept in env for the outputs that carry agent text on stdout (check's report, collect's
// SARIF on "-o -") and for our own workflow commands (the action's annotations). record is the
// exception: it passes the hook's streams through byte for byte. Call Close on the result.
func useActionsLog(env *Env, args []string) *actionslog.Log {
	inActions := env.Getenv != nil && env.Getenv("GITHUB_ACTIONS") == "true"
	log := actionslog.New(env.Stdout, env.Stderr, inActions)
	env.log = log
	if subcommand(args) != "record" {
		env.Stderr = log.Stderr()
	}
	return log
}

// actionsLog is the Log Main set up, or for an Env used without Main, one made on its streams.
func (e *Env) actionsLog() *actionslog.Log {
	if e.log == nil {
		e.log = actionslog.New(e.Stdout, e.Stderr, e.Getenv != nil && e.Getenv("GITHUB_ACTIONS") == "true")
	}
	return e.log
}
