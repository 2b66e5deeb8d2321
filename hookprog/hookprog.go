// Package hookprog names the program a hook command runs, seeing through what runs it: the
// recorder (agc-record, agc-sarif record), wrappers (env, time, nice, timeout, exec, command,
// nohup), shells (sh -c, bash -c: the script inside) and interpreters (python3, node, uv run,
// npx, …). Rule naming (hook/<name>) and the anchoring of findings to the line of
// .claude/settings.json that configures a hook both go through it, so that one hook has one name
// however its records spell its command.
package hookprog

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Program is the program a hook command runs.
type Program struct {
	// Word is the program's word as written (a path, or a bare name); "" when none was found.
	Word string
	// Name is the base name of Word without a script extension ("guard" for
	// "$CLAUDE_PROJECT_DIR"/hooks/guard.py).
	Name string
	// Args are the words after the program, quotes removed.
	Args []string
}

// maxDepth bounds how deep `sh -c` scripts and `env -S` strings are followed.
const maxDepth = 8

// Of names the program of a hook command line as a shell would run it (settings.json,
// transcripts, the hook log's shell-quoted argv). A line the shell parser cannot read is split on
// white space with quotes dropped.
func Of(command string) Program {
	return ofLine(command, 0)
}

// OfArgv names the program of an argv (no shell in between).
func OfArgv(argv []string) Program {
	return resolve(argv, 0)
}

// Key is the program and its arguments with every path reduced to its base name, for matching
// one hook's command as different records spell it.
func (p Program) Key() string {
	if p.Name == "" {
		return ""
	}
	k := []string{p.Name}
	for _, a := range p.Args {
		k = append(k, path.Base(slash(a)))
	}
	return strings.Join(k, " ")
}

// RuleName is Name mapped onto [a-z0-9][a-z0-9._-]* (at most 64 bytes), the <name> of a
// hook/<name> rule; "" when nothing of it is left.
func (p Program) RuleName() string { return Sanitize(p.Name) }

// Sanitize lowercases s and maps it onto [a-z0-9][a-z0-9._-]*, at most 64 bytes.
func Sanitize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if b.Len() >= 64 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.' || r == '_' || r == '-':
			if b.Len() > 0 {
				b.WriteRune(r)
			}
		default:
			if b.Len() > 0 {
				b.WriteByte('-')
			}
		}
	}
	return strings.Trim(b.String(), "-._")
}

// ofLine parses a shell line and names the program of its first command that is not shell
// set-up (cd, export, …).
func ofLine(line string, depth int) Program {
	if depth > maxDepth {
		return Program{}
	}
	cmds, ok := commands(line)
	if !ok {
		return resolve(plainWords(line), depth)
	}
	for _, words := range cmds {
		if len(words) == 0 || setup[baseName(words[0])] {
			continue
		}
		if p := resolve(words, depth); p.Name != "" {
			return p
		}
	}
	return Program{}
}

// setup are shell commands that prepare for the hook rather than being it.
var setup = map[string]bool{
	"cd": true, "export": true, "set": true, "source": true, ".": true, "true": true, ":": true,
	"unset": true, "umask": true, "ulimit": true, "trap": true, "pushd": true, "popd": true,
	"shopt": true, "test": true, "[": true, "[[": true, "mkdir": true, "echo": true, "printf": true,
}

// commands lists the simple commands of a shell line in order, each as its words (quotes removed,
// parameters kept as $NAME). It reports false when the line does not parse.
func commands(line string) ([][]string, bool) {
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, false
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var words []string
		for _, w := range c.Args {
			words = append(words, wordString(w))
		}
		out = append(out, words)
		return false // words may hold $(…): those commands are not the hook
	})
	return out, true
}

// wordString is a shell word with quotes removed; parameter expansions stay as written ($NAME).
func wordString(w *syntax.Word) string {
	var b strings.Builder
	partsString(&b, w.Parts)
	return b.String()
}

func partsString(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			partsString(b, p.Parts)
		case *syntax.ParamExp:
			if p.Param != nil {
				b.WriteString("$" + p.Param.Value)
			}
		default:
			var sb strings.Builder
			if syntax.NewPrinter().Print(&sb, p) == nil {
				b.WriteString(sb.String())
			}
		}
	}
}

// plainWords splits a line that is not valid shell on white space, dropping quote characters.
func plainWords(line string) []string {
	var out []string
	for _, w := range strings.Fields(line) {
		w = strings.Map(func(r rune) rune {
			if r == '"' || r == '\'' {
				return -1
			}
			return r
		}, w)
		w = strings.Trim(w, "`;&|()")
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// slash turns Windows separators into slashes.
func slash(w string) string { return strings.ReplaceAll(w, `\`, "/") }

// baseName is the lowercased base name of a command word, without ".exe".
func baseName(w string) string {
	return strings.TrimSuffix(strings.ToLower(path.Base(slash(w))), ".exe")
}

// scriptExts are extensions dropped from a program's name.
var scriptExts = []string{".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".php", ".ps1", ".exe", ".cmd", ".bat"}

// program makes the Program of the word at words[i].
func program(words []string, i int) Program {
	w := words[i]
	b := path.Base(slash(w))
	for _, ext := range scriptExts {
		if len(b) > len(ext) && strings.EqualFold(b[len(b)-len(ext):], ext) {
			b = b[:len(b)-len(ext)]
			break
		}
	}
	if b == "/" || b == "." || strings.TrimSpace(b) == "" {
		return Program{} // nothing that names a program (a word of white space the shell kept)
	}
	return Program{Word: w, Name: b, Args: append([]string(nil), words[i+1:]...)}
}
