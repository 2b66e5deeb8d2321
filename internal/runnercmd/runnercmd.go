// Package runnercmd is a test-only port of how the GitHub Actions runner finds workflow commands
// in a step's output (actions/runner: src/Runner.Worker/ActionCommandManager.cs TryProcessCommand,
// src/Runner.Common/ActionCommand.cs TryParseV2 and TryParse, src/Runner.Worker/Handlers/
// OutputManager.cs OnDataReceived). Tests run agc-sarif on hostile input and feed what it wrote
// here, to assert that no command but ours would be obeyed.
//
// Ported rules:
//   - lines are split as .NET StreamReader.ReadLine does: "\r\n", "\r" or "\n";
//   - a line is looked at only when it holds "##[" or "::" (OutputManager);
//   - TryParseV2: after String.TrimStart() (all Unicode white space) the line starts with "::";
//     the command info runs to the next "::"; its name (up to a space) must be registered;
//     properties are "k=v" split on ","; data is the rest, %-unescaped;
//   - else TryParse: "##[" anywhere; info runs to the next "]"; properties split on ";";
//   - registered names compare case-insensitively; stop-commands registers its data as a
//     token, and until a command named as that token is seen no other command is processed.
//
// One deliberate widening: .NET's String.IndexOf/StartsWith(string) compare by culture, and ICU
// ignores default-ignorable characters (zero-width, soft hyphen, …). The port therefore deletes
// such characters before matching, so it finds every command the runner could, and maybe more.
package runnercmd

import (
	"strings"
	"unicode"

	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// Registered are the command names the runner knows (its IActionCommandExtension list plus
// stop-commands).
var Registered = []string{"add-mask", "add-matcher", "add-path", "debug", "echo", "endgroup",
	"error", "group", "notice", "remove-matcher", "save-state", "set-env", "set-output",
	"stop-commands", "warning"}

// Command is one command the runner found in a line.
type Command struct {
	Stream string            // name given to Feed
	Line   int               // 1-based line in that stream
	Form   string            // "v2" (::cmd::) or "legacy" (##[cmd])
	Name   string            // as written
	Props  map[string]string // unescaped properties
	Data   string            // unescaped data
	// Processed is false when commands were stopped and this one did not resume them.
	Processed bool
	Text      string // the whole line
}

// Runner is the command state of one step.
type Runner struct {
	registered map[string]bool
	stopToken  string // "" when commands are processed
	Commands   []Command
}

// New is a runner at the start of a step.
func New() *Runner {
	r := &Runner{registered: map[string]bool{}}
	for _, n := range Registered {
		r.registered[n] = true
	}
	return r
}

// Stopped reports whether commands are stopped at this point.
func (r *Runner) Stopped() bool { return r.stopToken != "" }

// Feed reads one stream's output, line by line, as the runner would.
func (r *Runner) Feed(stream, text string) {
	for i, line := range SplitLines(text) {
		r.line(stream, i+1, line)
	}
}

// SplitLines splits as StreamReader.ReadLine does; a final empty line is not a line.
func SplitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	return out
}

func (r *Runner) line(stream string, n int, line string) {
	m := stripIgnorable(line)
	if m == "" || (!strings.Contains(m, "##[") && !strings.Contains(m, "::")) {
		return
	}
	c, ok := r.parseV2(m)
	if !ok {
		c, ok = r.parseLegacy(m)
	}
	if !ok {
		return
	}
	c.Stream, c.Line, c.Text = stream, n, line
	name := strings.ToLower(c.Name)
	switch {
	case r.stopToken != "":
		if name == strings.ToLower(r.stopToken) {
			delete(r.registered, strings.ToLower(r.stopToken))
			r.stopToken = ""
			c.Processed = true
		}
	case name == "stop-commands":
		c.Processed = true
		if c.Data != "" && !r.registered[strings.ToLower(c.Data)] && !strings.EqualFold(c.Data, "pause-logging") {
			r.stopToken = c.Data
			r.registered[strings.ToLower(c.Data)] = true
		}
	default:
		c.Processed = true
	}
	r.Commands = append(r.Commands, c)
}

// stripIgnorable deletes characters a culture-aware comparison may skip (see the package comment).
func stripIgnorable(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xa0 && visible.Hidden(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func (r *Runner) parseV2(m string) (Command, bool) {
	m = strings.TrimLeftFunc(m, unicode.IsSpace)
	if !strings.HasPrefix(m, "::") {
		return Command{}, false
	}
	end := strings.Index(m[2:], "::")
	if end < 0 {
		return Command{}, false
	}
	info := m[2 : 2+end]
	c := Command{Form: "v2", Name: info, Props: map[string]string{}}
	sp := strings.IndexByte(info, ' ')
	if sp >= 0 {
		c.Name = info[:sp]
	}
	if !r.registered[strings.ToLower(c.Name)] {
		return Command{}, false
	}
	if sp > 0 {
		c.Props = props(strings.TrimSpace(info[sp+1:]), ",", "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	}
	c.Data = unescape(m[2+end+2:], "%0D", "\r", "%0A", "\n", "%25", "%")
	return c, true
}

func (r *Runner) parseLegacy(m string) (Command, bool) {
	p := strings.Index(m, "##[")
	if p < 0 {
		return Command{}, false
	}
	rb := strings.IndexByte(m[p:], ']')
	if rb < 0 {
		return Command{}, false
	}
	info := m[p+3 : p+rb]
	c := Command{Form: "legacy", Name: info, Props: map[string]string{}}
	sp := strings.IndexByte(info, ' ')
	if sp >= 0 {
		c.Name = info[:sp]
	}
	if !r.registered[strings.ToLower(c.Name)] {
		return Command{}, false
	}
	legacyEscapes := []string{"%3B", ";", "%0D", "\r", "%0A", "\n", "%5D", "]", "%25", "%"}
	if sp > 0 {
		c.Props = props(info[sp+1:], ";", legacyEscapes...)
	}
	c.Data = unescape(m[p+rb+1:], legacyEscapes...)
	return c, true
}

// props reads "k=v" pairs split on sep; a pair with an empty key or value is dropped, as
// String.Split with RemoveEmptyEntries does.
func props(s, sep string, escapes ...string) map[string]string {
	m := map[string]string{}
	for _, p := range strings.Split(s, sep) {
		if k, v, ok := strings.Cut(p, "="); ok && k != "" && v != "" {
			m[k] = unescape(v, escapes...)
		}
	}
	return m
}

// unescape applies the runner's mappings in its order (each a plain Replace).
func unescape(s string, pairs ...string) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}
