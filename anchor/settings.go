package anchor

import (
	"encoding/json"
	"path"
	"strings"
)

// settingsFiles are the Claude Code project settings that configure hooks, in the order they
// are searched.
var settingsFiles = [...]string{".claude/settings.json", ".claude/settings.local.json"}

// settings is one settings file: the line of its "hooks" key and of every hook command.
type settings struct {
	rel       string
	hooksLine int // line of the top-level "hooks" key; 0 when none
	commands  []hookCommand
}

// hookCommand is one configured hook command and the line that holds it.
type hookCommand struct {
	event   string // the hooks key it is under: "PreToolUse", …
	command string
	line    int
}

// parseSettings walks the JSON text of a settings file token by token, so that every hook
// command keeps the line it stands on. Text that is not JSON yields what was read before the
// error.
func parseSettings(rel, text string) *settings {
	s := &settings{rel: rel}
	dec := json.NewDecoder(strings.NewReader(text))
	type frame struct {
		obj    bool
		key    string // last key read in an object
		expect bool   // an object expects a key next
	}
	var stack []frame
	lineAt := func() int { return lineOf(text, int(dec.InputOffset())) }
	for {
		tok, err := dec.Token()
		if err != nil {
			return s
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{':
				stack = append(stack, frame{obj: true, expect: true})
			case '[':
				stack = append(stack, frame{})
			case '}', ']':
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].expect = true
				}
			}
			continue
		}
		if len(stack) > 0 && stack[len(stack)-1].obj {
			top := &stack[len(stack)-1]
			if top.expect {
				top.key, top.expect = tok.(string), false
				if len(stack) == 1 && top.key == "hooks" && s.hooksLine == 0 {
					s.hooksLine = lineAt()
				}
				continue
			}
			top.expect = true
			if str, ok := tok.(string); ok && top.key == "command" && len(stack) >= 5 && stack[0].key == "hooks" {
				s.commands = append(s.commands, hookCommand{event: stack[1].key, command: str, line: lineAt()})
			}
		}
	}
}

// interpreters are first words of a hook command that name no hook of their own.
var interpreters = map[string]bool{"bash": true, "sh": true, "zsh": true, "env": true, "exec": true,
	"python": true, "python3": true, "node": true, "deno": true, "bun": true, "npx": true,
	"uv": true, "uvx": true, "run": true, "ruby": true, "perl": true, "go": true, "agc-sarif": true,
	"record": true, "--": true}

// dropQuotes removes the quote characters of a shell word.
func dropQuotes(w string) string {
	if !strings.ContainsAny(w, `"'`) {
		return w
	}
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\'' {
			return -1
		}
		return r
	}, w)
}

// scriptNames are the base names of the words of a command that can name a hook program: words
// with a slash or a file extension, else the first word that is not an interpreter, flag or
// variable assignment.
func scriptNames(cmd string) []string {
	var named, plain []string
	for _, w := range strings.Fields(cmd) {
		w = strings.Trim(dropQuotes(w), "`;&|()")
		w = slash(w)
		if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "=") && !strings.Contains(w, "/") {
			continue
		}
		b := path.Base(w)
		if strings.Contains(w, "/") || strings.Contains(b, ".") {
			named = append(named, b)
		} else if !interpreters[b] {
			plain = append(plain, b)
		}
	}
	if len(named) > 0 {
		return named
	}
	if len(plain) > 0 {
		return plain[:1]
	}
	return nil
}

// findHook finds the configured command that ran hook (as the records name it) for event: an
// exact match first, then one command holding the other, then a shared script name; commands
// under event are preferred at each step.
func findHook(all []*settings, hook, event string) (*settings, int, bool) {
	hook = strings.TrimSpace(hook)
	if hook == "" {
		return nil, 0, false
	}
	hookNames := scriptNames(hook)
	matchers := []func(string) bool{
		func(c string) bool { return strings.TrimSpace(c) == hook },
		func(c string) bool {
			c = strings.TrimSpace(c)
			return len(c) >= 8 && len(hook) >= 8 && (strings.Contains(c, hook) || strings.Contains(hook, c))
		},
		func(c string) bool {
			for _, n := range scriptNames(c) {
				for _, h := range hookNames {
					if n == h {
						return true
					}
				}
			}
			return false
		},
	}
	for _, m := range matchers {
		for _, sameEvent := range []bool{true, false} {
			if sameEvent && event == "" {
				continue
			}
			for _, s := range all {
				for _, c := range s.commands {
					if sameEvent && c.event != event {
						continue
					}
					if m(c.command) {
						return s, c.line, true
					}
				}
			}
		}
	}
	return nil, 0, false
}
