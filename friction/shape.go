package friction

import (
	"encoding/json"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// Paths maps a path an agent wrote to a repo-relative one, or reports false when it leaves the
// repository (anchor.Anchorer does this).
type Paths interface {
	Path(p, cwd string) (string, bool)
}

// Placeholders that stand for what a pattern abstracts away.
const (
	phPath    = "<path>"
	phValue   = "<value>"
	phURL     = "<url>"
	phExpr    = "<expr>"    // a word with expansions or quotes the shape does not evaluate
	phOutside = "<outside>" // a folder outside the repository
	more      = "…"         // more commands follow in the same line, or more words than kept
)

// maxShapeWords bounds the words of a command's shape.
const maxShapeWords = 8

// maxCommand bounds the command text parsed for a shape (longer commands are cut first).
const maxCommand = 4096

// subcommandTools are programs whose leading plain words name a subcommand (kept in the shape).
var subcommandTools = map[string]bool{
	"git": true, "gh": true, "go": true, "npm": true, "pnpm": true, "yarn": true, "npx": true,
	"docker": true, "kubectl": true, "cargo": true, "pip": true, "pip3": true, "uv": true,
	"poetry": true, "helm": true, "terraform": true, "make": true, "apt": true, "apt-get": true,
	"brew": true, "systemctl": true, "aws": true, "gcloud": true, "az": true, "dotnet": true,
	"bundle": true, "rails": true, "mix": true, "deno": true, "bun": true, "just": true,
}

var (
	subcommandWord = lazyre.New(`^[a-z][a-z-]{0,30}$`)
	// A flag keeps its name in a pattern only when the name cannot hold a value: long flags in
	// lower case, short flags of up to three letters, and find's word options. "-pS3cret"
	// (mysql's password) becomes "-p<value>".
	longFlag  = lazyre.New(`^--[a-z][a-z0-9-]{0,39}$`)
	shortFlag = lazyre.New(`^-[A-Za-z0-9]{1,3}$`)
	shortJoin = lazyre.New(`^-[A-Za-z]`)
	plainName = lazyre.New(`^[A-Za-z0-9_.+-]{1,40}$`)
	mcpName   = lazyre.New(`^mcp__[A-Za-z0-9_-]{1,100}$`)
	plainExt  = lazyre.New(`^\.[A-Za-z0-9_]{1,10}$`)
)

// fileTools name the input field that holds the file or folder a tool works on.
var fileTools = map[string]string{
	"Read": "file_path", "Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path",
	"NotebookEdit": "notebook_path", "Glob": "path", "Grep": "path", "LS": "path",
}

// Shape returns a call's pattern and the words its intent is compared by: for a shell command,
// the program, subcommand and flags with paths and values abstracted; for a file tool, the tool
// and the file's folder and extension (repo-relative, or <outside>); else the tool name.
func Shape(tool string, input []byte, cwd string, paths Paths) (string, []string) {
	in := decodeInput(input)
	if cmd, ok := in["command"]; ok && cmd != "" {
		return commandShape(cmd, cwd, paths)
	}
	name := ToolName(tool)
	if field, ok := fileTools[tool]; ok {
		p := in[field]
		return name + " " + fileShape(p, cwd, paths), []string{tool, p}
	}
	return name, []string{tool}
}

// ToolName is a tool's name as a pattern shows it: as it is when it is a plain name (Bash,
// mcp__github__get_issue), else "<tool>".
func ToolName(tool string) string {
	if plainName.MatchString(tool) || mcpName.MatchString(tool) {
		return tool
	}
	return "<tool>"
}

// decodeInput reads the string members of a tool input; anything else is left out.
func decodeInput(input []byte) map[string]string {
	var raw map[string]json.RawMessage
	if json.Unmarshal(input, &raw) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		}
	}
	return out
}

// fileShape is a file's folder and extension: "src/*.py", "*.md" at the root, "<outside>/*.conf".
func fileShape(p, cwd string, paths Paths) string {
	if p == "" {
		return phPath
	}
	ext := safeExt(p)
	rel, ok := paths.Path(p, cwd)
	if !ok {
		return phOutside + "/*" + ext
	}
	dir := path.Dir(rel)
	switch {
	case dir == "." || dir == "":
		return "*" + ext
	case !plainPath(dir):
		return phPath + "/*" + ext
	}
	return dir + "/*" + ext
}

// safeExt is a path's extension when it is short and plain, else "".
func safeExt(p string) string {
	ext := path.Ext(p)
	if !plainExt.MatchString(ext) {
		return ""
	}
	return ext
}

// commandWords parses a shell command and returns the words of its first simple command (a word
// that is not plain text becomes <expr>) and whether more commands follow.
func commandWords(cmd string) ([]string, bool) {
	if len(cmd) > maxCommand {
		cmd = cmd[:maxCommand]
	}
	if deeplyNested(cmd) {
		// The parser's time grows with the square of the nesting (0.8 s for 4 KiB of "$(("):
		// such a command is split on spaces instead.
		return strings.Fields(cmd), false
	}
	f, err := syntax.NewParser(syntax.KeepComments(false)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) == 0 {
		return strings.Fields(cmd), false
	}
	var words []string
	calls := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 {
			return true
		}
		calls++
		if calls == 1 {
			for _, w := range ce.Args {
				words = append(words, wordText(w))
			}
		}
		return true
	})
	return words, calls > 1 || len(f.Stmts) > 1
}

// maxNesting bounds the brackets, braces and backquotes of a command handed to the parser.
const maxNesting = 64

// deeplyNested reports whether a command holds more than maxNesting openings.
func deeplyNested(cmd string) bool {
	n := 0
	for i := 0; i < len(cmd); i++ {
		switch cmd[i] {
		case '(', '{', '[', '`':
			n++
		}
	}
	return n > maxNesting
}

// wordText is a word's text when it is plain or simply quoted, else <expr>.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return phExpr
				}
				b.WriteString(l.Value)
			}
		default:
			return phExpr
		}
	}
	return b.String()
}

// commandShape abstracts a command's words: see Shape.
func commandShape(cmd, cwd string, paths Paths) (string, []string) {
	words, follows := commandWords(cmd)
	if len(words) == 0 {
		return "Bash " + phExpr, nil
	}
	out := []string{programShape(words[0], cwd, paths)}
	rest := words[1:]
	if subcommandTools[path.Base(words[0])] {
		for len(rest) > 0 && len(out) < 3 && subcommandWord.MatchString(rest[0]) {
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	for _, w := range rest {
		out = appendShape(out, argShape(w))
	}
	if len(out) > maxShapeWords {
		out = append(out[:maxShapeWords], more)
	}
	if follows {
		out = append(out, more)
	}
	return strings.Join(out, " "), words
}

// appendShape adds a word to a shape, folding a placeholder that repeats the one before it.
func appendShape(out []string, w string) []string {
	if strings.HasPrefix(w, "<") && out[len(out)-1] == w {
		return out
	}
	return append(out, w)
}

// programShape is the program word: its name, or for a path, the path relative to the repository,
// "<outside>/name" outside it.
func programShape(w, cwd string, paths Paths) string {
	if !strings.Contains(w, "/") {
		if w == phExpr || plainName.MatchString(w) {
			return w
		}
		return phExpr
	}
	rel, ok := paths.Path(w, cwd)
	switch {
	case !ok:
		return phOutside + "/" + safeBase(w)
	case !plainPath(rel):
		return phPath
	}
	return rel
}

// plainPath reports whether every element of a relative path is a plain file name.
func plainPath(rel string) bool {
	for _, e := range strings.Split(rel, "/") {
		if !plainName.MatchString(e) {
			return false
		}
	}
	return true
}

// safeBase is a path's last element when it is a plain file name, else <path>.
func safeBase(p string) string {
	b := path.Base(p)
	if plainName.MatchString(b) {
		return b
	}
	return phPath
}

// wordOptions are find's options spelt as one word after one dash.
var wordOptions = map[string]bool{"-name": true, "-iname": true, "-type": true, "-path": true,
	"-delete": true, "-exec": true, "-execdir": true, "-ok": true, "-print": true, "-print0": true,
	"-fprint": true, "-maxdepth": true, "-mindepth": true, "-mtime": true, "-newer": true,
	"-size": true, "-not": true, "-and": true, "-or": true, "-prune": true}

// isFlag reports whether a word is a flag name a pattern may show.
func isFlag(w string) bool {
	return longFlag.MatchString(w) || shortFlag.MatchString(w) || wordOptions[w]
}

// argShape abstracts one argument: flags stay (a flag's =value is abstracted, and so is a value
// joined to a short flag), URLs, paths and other values become placeholders.
func argShape(w string) string {
	if name, _, ok := strings.Cut(w, "="); ok && isFlag(name) {
		return name + "=" + phValue
	}
	switch {
	case w == phExpr:
		return phExpr
	case isFlag(w):
		return w
	case shortJoin.MatchString(w):
		return w[:2] + phValue
	case strings.Contains(w, "://"):
		return phURL
	case looksPath(w):
		return phPath
	}
	return phValue
}

// looksPath reports whether an argument reads as a file path.
func looksPath(w string) bool {
	return strings.ContainsAny(w, "/~") || w == "." || w == ".." || safeExt(w) != "" && !strings.HasPrefix(w, ".")
}
