package permissions

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Covers replays Claude Code's matching of one allow entry on every call of a pattern, in a
// trusted workspace with no other rule: the calls it lets run, and a sentence naming the first
// call it does not (with why), or "" when it covers them all.
func Covers(entry string, calls []Call) (covered int, miss string) {
	r := ParseRule(entry)
	r.Behavior, r.Source, r.File, r.Line = Allow, LocalSettings, "the entry", 1
	for _, c := range calls {
		pol := NewPolicy(Env{Project: c.Cwd, Trusted: true}, Settings{Source: LocalSettings, File: "the entry", Rules: []Rule{r}})
		res := pol.Decide(c)
		if res.Decision == Allow {
			covered++
			continue
		}
		if miss == "" {
			miss = fmt.Sprintf("%s still asks: %s", callWords(c), res.Why)
		}
	}
	return covered, miss
}

// callWords is a call as a few words: its tool and command or file.
func callWords(c Call) string {
	var in map[string]any
	_ = json.Unmarshal(c.Input, &in)
	for _, k := range []string{"command", "file_path", "notebook_path", "url"} {
		if s, ok := in[k].(string); ok {
			return c.Tool + " " + strings.TrimSpace(s)
		}
	}
	return c.Tool
}
