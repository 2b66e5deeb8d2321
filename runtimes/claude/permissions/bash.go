package permissions

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// part is one simple command of a shell line, normalised the two ways Claude Code normalises it.
type part struct {
	Source    string   // the command's text as written, blanks collapsed, redirections kept
	Allow     string   // as allow rules see it: redirections dropped, safe env and allow-wrappers stripped
	Deny      string   // as deny and ask rules see it: every assignment and deny-wrapper stripped
	Words     []string // Deny's words
	Writes    []string // files its redirections write (not /dev/null, not a descriptor)
	Assigned  bool     // it only assigns variables (FOO=1)
	Expansion bool     // an argument is filled in when it runs ($VAR, ~name)
}

// shape is what splitting a shell line found.
type shape struct {
	Parts []part
	// Complex is why no rule can approve the line part by part: "shell-operators" (a subshell or
	// a group), "too-complex" (a substitution, a loop, a condition), "backgroundOperator" (&);
	// "" when the line splits into simple commands.
	Complex string
	Whole   string // the whole line, blanks collapsed
}

// splitShell parses a command line as bash and splits it on &&, ||, ;, | and newlines.
func splitShell(cmd string) shape {
	sh := shape{Whole: collapse(cmd)}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		sh.Complex = "too-complex"
		return sh
	}
	var walk func(s *syntax.Stmt)
	walk = func(s *syntax.Stmt) {
		if s.Background || s.Coprocess {
			sh.Complex = "backgroundOperator"
		}
		switch c := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			walk(c.X)
			walk(c.Y)
			return
		case *syntax.CallExpr:
			sh.Parts = append(sh.Parts, simple(cmd, s, c))
		case *syntax.TimeClause:
			// "time X" is the wrapper time: X is matched
			if c.Stmt != nil {
				walk(c.Stmt)
			}
			return
		case nil:
		case *syntax.Subshell, *syntax.Block:
			if sh.Complex == "" {
				sh.Complex = "shell-operators"
			}
		default:
			if sh.Complex == "" {
				sh.Complex = "too-complex"
			}
		}
		syntax.Walk(s, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				if sh.Complex == "" || sh.Complex == "shell-operators" {
					sh.Complex = "too-complex"
				}
			}
			return true
		})
	}
	for _, s := range f.Stmts {
		walk(s)
	}
	return sh
}

var blanks = lazyre.New(`[ \t]+`)

func collapse(s string) string { return strings.TrimSpace(blanks.Regexp().ReplaceAllString(s, " ")) }

// safeEnv are the variables an allow rule looks past (bin@343563453).
var safeEnv = lazyWords(`GOEXPERIMENT GOOS GOARCH CGO_ENABLED GO111MODULE RUST_BACKTRACE RUST_LOG NODE_ENV PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTEST_DISABLE_PLUGIN_AUTOLOAD PYTEST_DEBUG ANTHROPIC_API_KEY LANG LANGUAGE LC_ALL LC_CTYPE LC_TIME CHARSET TERM COLORTERM NO_COLOR FORCE_COLOR TZ LS_COLORS LSCOLORS GREP_COLOR GREP_COLORS GCC_COLORS TIME_STYLE BLOCK_SIZE BLOCKSIZE COLUMNS LINES CLICOLOR CLICOLOR_FORCE CI DEBIAN_FRONTEND GIT_TERMINAL_PROMPT`)

// knownVar are variables whose value an argument may hold without asking (run readonly-16:
// "git log $HOME" ran).
var knownVar = lazyWords("HOME PWD")

var plainValue = lazyre.New(`^[A-Za-z0-9_.:-]+$`)

// allowWrappers are the wrappers an allow rule looks past; denyWrappers those a deny or ask rule
// looks past (bin@343565357 jR, bin@343570309 Jlt).
var (
	allowWrappers = lazyWords("timeout time nice stdbuf nohup command builtin noglob")
	denyWrappers  = lazyWords("timeout time nice stdbuf nohup command builtin noglob env sudo doas pkexec watch ionice setsid taskset chrt strace ltrace flock script unshare nsenter sandbox-exec exec nocorrect")
	// a wrapper's first positional argument that is not the command it runs
	wrapperArg = lazyWords("timeout taskset chrt flock")
	// options of wrappers that take a value
	valueOpts = lazyWords("-n -s -k -u -g -o -e -i -c -p -f --signal --kill-after --user --group")
)

// words is a set of words built on first use: package-level sets cost nothing at start (the
// recorder links the registry, and a hook call must start fast).
type words struct {
	list string
	set  func() map[string]bool
}

// lazyWords is the set of the blank-separated words of list, built on first use.
func lazyWords(list string) *words {
	return &words{list: list, set: sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
		return m
	})}
}

// has says whether w is in the set.
func (ws *words) has(w string) bool { return ws.set()[w] }

// simple normalises one simple command.
func simple(src string, s *syntax.Stmt, c *syntax.CallExpr) part {
	text := func(n syntax.Node) string {
		return src[n.Pos().Offset():n.End().Offset()]
	}
	var p part
	p.Source = collapse(text(s))
	words := make([]string, 0, len(c.Args))
	for i, w := range c.Args {
		t := text(w)
		if i == 0 {
			if lit := w.Lit(); lit != "" {
				t = lit
			} else if u, ok := unquote(w); ok {
				t = u
			}
		}
		for _, wp := range w.Parts {
			switch e := wp.(type) {
			case *syntax.ParamExp:
				p.Expansion = p.Expansion || !knownVar.has(e.Param.Value)
			case *syntax.DblQuoted:
				syntax.Walk(wp, func(n syntax.Node) bool {
					if e, ok := n.(*syntax.ParamExp); ok && !knownVar.has(e.Param.Value) {
						p.Expansion = true
					}
					return true
				})
			}
		}
		words = append(words, t)
	}
	for _, r := range s.Redirs {
		if r.Word == nil || r.Op == syntax.DplOut || r.Op == syntax.DplIn {
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.RdrInOut:
			if t := text(r.Word); t != "/dev/null" {
				p.Writes = append(p.Writes, t)
			}
		}
	}
	var allowEnv []string
	for _, a := range c.Assigns {
		v := ""
		if a.Value != nil {
			v = text(a.Value)
		}
		if !safeEnv.has(a.Name.Value) || !plainValue.MatchString(v) || strings.Contains(v, "/") {
			allowEnv = append(allowEnv, text(a))
		}
	}
	if len(words) == 0 {
		p.Assigned = true
		return p
	}
	aw := stripWrappers(words, allowWrappers)
	p.Allow = strings.Join(append(allowEnv, aw...), " ")
	p.Words = stripWrappers(words, denyWrappers)
	p.Deny = strings.Join(p.Words, " ")
	return p
}

func unquote(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	switch q := w.Parts[0].(type) {
	case *syntax.SglQuoted:
		return q.Value, true
	case *syntax.DblQuoted:
		if len(q.Parts) == 1 {
			if l, ok := q.Parts[0].(*syntax.Lit); ok {
				return l.Value, true
			}
		}
	}
	return "", false
}

// stripWrappers drops leading wrapper commands, their options and env's assignments.
func stripWrappers(w []string, set *words) []string {
	for len(w) > 1 && set.has(w[0]) {
		name := w[0]
		w = w[1:]
		for len(w) > 1 {
			switch {
			case strings.HasPrefix(w[0], "-"):
				opt := w[0]
				w = w[1:]
				if valueOpts.has(opt) && len(w) > 1 && name != "command" && name != "time" {
					w = w[1:]
				}
				continue
			case name == "env" && strings.Contains(w[0], "="):
				w = w[1:]
				continue
			}
			break
		}
		if wrapperArg.has(name) && len(w) > 1 {
			w = w[1:]
		}
	}
	return w
}

// bashMatch says whether a normalised command matches a Bash rule's content: exact, prefix
// ("p:*": p alone or p and a space), or wildcard ("*" any text; a single trailing " *" may match
// nothing; "\*" a literal star).
func bashMatch(content, text string) bool {
	if strings.HasSuffix(content, ":*") && !strings.Contains(strings.TrimSuffix(content, ":*"), "*") {
		p := strings.TrimSuffix(content, ":*")
		if text == p || strings.HasPrefix(text, p+" ") {
			return true
		}
		if rest, ok := strings.CutPrefix(text, "xargs "); ok {
			return rest == p || strings.HasPrefix(rest, p+" ")
		}
		return false
	}
	if !hasStar(content) {
		return text == strings.ReplaceAll(content, `\*`, "*")
	}
	return wildcardMatch(content, text)
}

func hasStar(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '*' {
			return true
		}
	}
	return false
}

// wildcardMatch matches a rule with "*" against the whole text: "*" is any text, spaces
// included; "\*" is a literal star; a single trailing " *" may also match nothing.
func wildcardMatch(content, text string) bool {
	if strings.HasSuffix(content, " *") && !strings.HasSuffix(content, `\ *`) && strings.Count(content, "*") == strings.Count(content, `\*`)+1 {
		base := strings.TrimSuffix(content, " *")
		if globMatch(segments(base), text) {
			return true
		}
	}
	return globMatch(segments(content), text)
}

// segments splits a pattern on its unescaped stars into the literal texts between them.
func segments(p string) []string {
	var out []string
	var lit strings.Builder
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p) && p[i+1] == '*':
			lit.WriteByte('*')
			i++
		case p[i] == '*':
			out = append(out, lit.String())
			lit.Reset()
		default:
			lit.WriteByte(p[i])
		}
	}
	return append(out, lit.String())
}

// globMatch matches literal segments joined by "*": the first is a prefix, the last a suffix,
// and the others appear in order between them (leftmost placement is enough for "*" globs).
func globMatch(seg []string, text string) bool {
	if len(seg) == 1 {
		return text == seg[0]
	}
	first, last := seg[0], seg[len(seg)-1]
	if !strings.HasPrefix(text, first) {
		return false
	}
	text = text[len(first):]
	for _, s := range seg[1 : len(seg)-1] {
		i := strings.Index(text, s)
		if i < 0 {
			return false
		}
		text = text[i+len(s):]
	}
	return strings.HasSuffix(text, last)
}

// readOnly are commands that run without a rule when their paths are inside the working
// directories (reason readOnlyCommand); git's read-only subcommands are in readOnlyGit.
var (
	readOnly    = lazyWords("ls cat head tail wc grep rg echo pwd which whoami date true false stat file du df sort uniq diff basename dirname realpath printf tree less more env printenv id uname hostname")
	readOnlyGit = lazyWords("status log diff show branch rev-parse remote ls-files blame")
	// readers take path arguments checked against Read rules and the working directories.
	readers = lazyWords("cat head tail less more ls wc grep rg stat file du tree sort uniq diff")
	// fileWriters are the Bash file commands acceptEdits lets run inside the working directories.
	fileWriters = lazyWords("touch mkdir cp mv")
)
