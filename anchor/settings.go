package anchor

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/hookprog"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// configFile is one runtime's hook config file, or a pattern naming several.
type configFile struct{ runtime, pattern string }

// settingsFiles are the project files that configure hooks, in the order they are searched: each
// registered runtime binding's, the default runtime's first (see Binding.CommandKeys for their
// shapes).
func settingsFiles() []configFile {
	var out []configFile
	for _, b := range runtimes.Bindings() {
		for _, p := range b.ConfigFiles() {
			out = append(out, configFile{b.Runtime(), p})
		}
	}
	return out
}

// maxConfigGlob bounds how many files one config pattern reads.
const maxConfigGlob = 64

// expandConfig lists the repository files a config pattern names: the pattern itself when its
// last element has no '*', else the entries of its folder (which must resolve inside the
// repository) whose names match that element, by name, at most maxConfigGlob. A name is one
// path element read from the folder, so it cannot lead out of it; a link among them is
// resolved like any settings file.
func (a *Anchorer) expandConfig(pattern string) []string {
	dir, base := path.Split(pattern)
	if !strings.Contains(base, "*") {
		return []string{pattern}
	}
	rdir, ok := a.resolve(strings.TrimSuffix(dir, "/"))
	if !ok || strings.ContainsAny(dir, "*?[") {
		return nil
	}
	entries, err := os.ReadDir(filepath.Join(a.root, filepath.FromSlash(rdir)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if m, _ := path.Match(base, name); !m || e.IsDir() || name == "." || name == ".." || strings.ContainsAny(name, "/\\") {
			continue
		}
		if len(out) == maxConfigGlob {
			break
		}
		out = append(out, rdir+"/"+name)
	}
	return out
}

// declares reports whether s configures a hook command for event.
func (s *settings) declares(event string) bool {
	for _, c := range s.commands {
		if c.event == event {
			return true
		}
	}
	return false
}

// settings is one settings file: the line of its "hooks" key and of every hook command.
type settings struct {
	rel       string
	runtime   string // the runtime whose config file it is
	hooksLine int    // line of the top-level "hooks" key; 0 when none
	commands  []hookCommand
}

// hookCommand is one configured hook command and the line that holds it.
type hookCommand struct {
	event   string // the hooks key it is under: "PreToolUse", …
	command string
	name    string           // the hook's "name" beside its command (Gemini CLI's telemetry names hooks so)
	matcher string           // the "matcher" of its group: which tools it runs for ("" or "*": all)
	prog    hookprog.Program // the program it runs
	line    int
}

// matches reports whether the hook's matcher selects tool, as the runtimes read a matcher: empty
// or "*" selects every tool, else a regular expression over the whole tool name ("Edit|Write");
// one that does not compile selects by equality. An unknown tool is selected.
func (c hookCommand) matches(tool string) bool {
	m := strings.TrimSpace(c.matcher)
	if m == "" || m == "*" || tool == "" {
		return true
	}
	re, err := regexp.Compile("^(?:" + m + ")$")
	if err != nil {
		return m == tool
	}
	return re.MatchString(tool)
}

// parseSettings walks the JSON text of a settings file token by token, so that every hook
// command keeps the line it stands on. Text that is not JSON yields what was read before the
// error.
func parseSettings(rel, runtime, text string) *settings {
	s := &settings{rel: rel, runtime: runtime}
	if event, ok := scriptEvent(rel, runtime, text); ok {
		return parseScript(s, event, text)
	}
	if pluginFile(rel, runtime, text) {
		for _, e := range runtimes.For(runtime).Events() {
			s.commands = append(s.commands, hookCommand{event: e, line: 1})
		}
		s.hooksLine = 1
		return s
	}
	keys := runtimes.For(runtime).CommandKeys()
	events := eventsAtTop(keys, rel) // the file's top-level keys are the events: no "hooks" object
	dec := json.NewDecoder(strings.NewReader(text))
	type frame struct {
		obj    bool
		key    string // last key read in an object
		expect bool   // an object expects a key next
		name   string // the "name" member read in this object
		cmd    int    // 1 + index in s.commands of the command read in this object; 0: none
		// matcher and cmds: a group's "matcher" and the commands read under it (either may come
		// first in the group).
		matcher string
		cmds    []int
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
				if len(stack) == 1 && (top.key == "hooks" || events) && s.hooksLine == 0 {
					s.hooksLine = lineAt()
				}
				continue
			}
			top.expect = true
			str, ok := tok.(string)
			event := ""
			if events {
				event = stack[0].key
			} else if len(stack) > 1 {
				event = stack[1].key
			}
			switch {
			case !ok || !events && stack[0].key != "hooks":
			case isCommandKey(keys, top.key, len(stack), events):
				c := hookCommand{event: event, command: str, name: top.name, prog: hookprog.Of(str), line: lineAt()}
				if g := groupDepth(events); len(stack) > g+1 { // under a group: {"matcher": …, "hooks": [{"command": …}]}
					c.matcher = stack[g].matcher
					stack[g].cmds = append(stack[g].cmds, len(s.commands))
				}
				s.commands = append(s.commands, c)
				top.cmd = len(s.commands)
			case top.key == "matcher" && len(stack) == groupDepth(events)+1:
				top.matcher = str
				for _, i := range top.cmds {
					s.commands[i].matcher = str
				}
			case top.key == "name" && len(stack) >= 4:
				top.name = str
				if top.cmd > 0 {
					s.commands[top.cmd-1].name = str
				}
			}
		}
	}
}

// scriptEvent reports whether the config file rel is a hook script rather than JSON settings:
// an executable named after one of its runtime's events (Cline's .clinerules/hooks/PreToolUse),
// whose lines are its commands.
func scriptEvent(rel, runtime, text string) (string, bool) {
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		return "", false
	}
	base := path.Base(rel)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	for _, e := range runtimes.For(runtime).Events() {
		if strings.EqualFold(e, base) {
			return e, true
		}
	}
	return "", false
}

// pluginFile reports whether the config file rel is a JavaScript or TypeScript plugin (OpenCode's
// .opencode/plugins/*.js) of a runtime whose hook commands are in JSON settings: it runs any of
// the runtime's events, names no hook command, and holds a finding of the runtime that names
// no command (a plugin's own answer) at its first line.
func pluginFile(rel, runtime, text string) bool {
	if strings.HasPrefix(strings.TrimSpace(text), "{") || len(runtimes.For(runtime).CommandKeys()) == 0 {
		return false
	}
	switch path.Ext(rel) {
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// parseScript reads a hook script: every line that is not blank or a comment is a command of
// event, and the first one is where findings of the event that match none go.
func parseScript(s *settings, event, text string) *settings {
	for i, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if s.hooksLine == 0 {
			s.hooksLine = i + 1
		}
		s.commands = append(s.commands, hookCommand{event: event, command: t, prog: hookprog.Of(t), line: i + 1})
	}
	return s
}

// groupDepth is where a hook group ({"matcher": …, "hooks": […]}) stands in the stack: under
// "hooks" → event → array, or, in a file whose events are its top-level keys, under event → array.
func groupDepth(events bool) int {
	if events {
		return 2
	}
	return 3
}

// eventsAtTop reports whether the config file rel has the events as its top-level keys: a key of
// keys names it as its File.
func eventsAtTop(keys []gates.CommandKey, rel string) bool {
	for _, k := range keys {
		if k.File != "" && (rel == k.File || strings.HasSuffix(rel, "/"+k.File)) {
			return true
		}
	}
	return false
}

// isCommandKey reports whether key, depth objects and arrays deep, names a hook's command in a
// config file of the runtime whose CommandKeys are keys; events: the file has its events at the
// top level, where only the keys naming a File are read.
func isCommandKey(keys []gates.CommandKey, key string, depth int, events bool) bool {
	for _, k := range keys {
		if k.Key == key && depth >= k.Depth && (k.File != "") == events {
			return true
		}
	}
	return false
}

// findHook finds the configured command that ran hook (as the records name it) for event: an
// exact match first (of the command, or of the hook's name), then one command holding the other, then the same program with the same
// arguments, then the same program (package hookprog sees through the recorder, wrappers and
// interpreters); commands under event are preferred at each step.
func findHook(all []*settings, hook, event string) (*settings, int, bool) {
	hook = strings.TrimSpace(hook)
	if hook == "" {
		return nil, 0, false
	}
	// The hook's program is parsed (a shell parse) only when the plain matchers found nothing
	// and there is a command to compare it with: most findings never need it.
	var (
		prog   hookprog.Program
		key    string
		parsed bool
	)
	parse := func() {
		if !parsed {
			prog, parsed = hookprog.Of(hook), true
			key = prog.Key()
		}
	}
	matchers := []func(hookCommand) bool{
		func(c hookCommand) bool { return strings.TrimSpace(c.command) == hook || c.name == hook },
		func(c hookCommand) bool {
			s := strings.TrimSpace(c.command)
			return len(s) >= 8 && len(hook) >= 8 && (strings.Contains(s, hook) || strings.Contains(hook, s))
		},
		func(c hookCommand) bool { parse(); return key != "" && c.prog.Key() == key },
		func(c hookCommand) bool { parse(); return prog.Name != "" && c.prog.Name == prog.Name },
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
					if m(c) {
						return s, c.line, true
					}
				}
			}
		}
	}
	return nil, 0, false
}

// onlyHook finds the one configured command that can have answered an event that names no hook
// (a transcript's or stream's deny records no command): the commands of runtime's settings under
// event whose matcher selects tool. It reports false when none or several are, which a record
// that names no hook cannot tell apart.
func onlyHook(all []*settings, runtime, event, tool string) (*settings, int, bool) {
	if event == "" {
		return nil, 0, false
	}
	var (
		at   *settings
		line int
		cmd  string
	)
	for _, s := range all {
		if runtime != "" && s.runtime != runtime {
			continue
		}
		for _, c := range s.commands {
			if c.event != event || !c.matches(tool) {
				continue
			}
			if at != nil && (at != s || strings.TrimSpace(c.command) != cmd) {
				return nil, 0, false
			}
			if at == nil {
				at, line, cmd = s, c.line, strings.TrimSpace(c.command)
			}
		}
	}
	return at, line, at != nil
}
