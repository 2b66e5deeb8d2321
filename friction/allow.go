package friction

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// readOnlyPrograms run without changing anything (whatever their arguments, but for the flags in
// writeFlags).
var readOnlyPrograms = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true, "rg": true,
	"find": true, "stat": true, "file": true, "tree": true, "pwd": true, "which": true, "du": true,
	"df": true, "jq": true, "diff": true, "sort": true, "uniq": true, "less": true, "date": true,
}

// readOnlySubcommands are the read-only subcommands of programs that also write.
var readOnlySubcommands = map[string]bool{
	"git status": true, "git log": true, "git diff": true, "git show": true, "git blame": true,
	"git rev-parse": true, "git ls-files": true,
	"gh pr view": true, "gh pr list": true, "gh pr diff": true, "gh pr checks": true,
	"gh issue view": true, "gh issue list": true, "gh run view": true, "gh run list": true,
	"gh repo view": true, "gh release list": true, "gh release view": true,
	"go list": true, "go version": true, "go env": true, "go doc": true, "go vet": true,
	"npm ls": true, "npm view": true, "npm outdated": true,
	"docker ps": true, "docker images": true, "docker inspect": true, "docker logs": true,
	"kubectl get": true, "kubectl describe": true, "kubectl logs": true,
}

// writeFlags make an otherwise read-only program write or run something.
var writeFlags = map[string]bool{"-delete": true, "-exec": true, "-execdir": true, "-ok": true,
	"-fprint": true, "-i": true, "--in-place": true, "-o": true, "--output": true}

// readOnlyFileTools only read.
var readOnlyFileTools = map[string]bool{"Read": true, "Glob": true, "Grep": true, "LS": true}

// defaultRuntime is the runtime a pattern's fix is written for when no finding named one: the
// registry's default, whose records carry permission prompts and denials (Claude Code's).
var defaultRuntime = runtimes.Default().Runtime()

// permissionRule is the permission rule that would allow a call, in Claude Code's syntax: the
// runtime's own suggestion when its prompt carried one (an addRules suggestion), else the tool
// and the program and subcommand for shell commands ("Bash(git status:*)"), the tool and the
// file's folder and extension for file tools ("Edit(docs/*.md)", "Read(src/**)"). It also
// returns that rule of its own (which an allowlist entry takes: a suggestion may allow more than
// the call did, as "gh pr *" for "gh pr view"), the program and subcommand, and whether the call
// only reads or stays in the repository.
func permissionRule(c *shaped, opts Options) (string, string, []string, bool) {
	var rule string
	var prefix []string
	safe := false
	switch {
	case isShell(c):
		prefix = literalPrefix(c.head)
		safe = len(prefix) > 0 && !strings.HasSuffix(c.shape, more) && readOnly(prefix, strings.Fields(c.shape))
		rule = "Bash(" + strings.Join(prefix, " ") + ":*)"
		if len(prefix) == 0 {
			rule = "Bash(" + phExpr + ")"
		}
		if c.Tool != "Bash" {
			rule = ToolName(c.Tool) + strings.TrimPrefix(rule, "Bash")
		}
	case c.file:
		where := c.head[len(c.head)-1]
		safe = !strings.HasPrefix(where, "<")
		if readOnlyFileTools[c.Tool] {
			dir, _, _ := strings.Cut(where, "*")
			rule = c.Tool + "(" + dir + "**)"
		} else {
			// Claude Code's Edit rules cover every tool that edits files (Write, MultiEdit too).
			rule = "Edit(" + where + ")"
		}
	default:
		rule = ToolName(c.Tool)
	}
	own := rule
	if s := suggestedRule(c.Suggestions); s != "" {
		return Scrub(s, c.Cwd, opts.Paths), own, prefix, safe
	}
	return own, own, prefix, safe
}

// suggestedRule is the first rule of the first addRules suggestion of a prompt's
// permission_suggestions, as "Tool(content)", or "" when there is none.
func suggestedRule(raw []byte) string {
	var list []struct {
		Type  string `json:"type"`
		Rules []struct {
			ToolName    string `json:"toolName"`
			RuleContent string `json:"ruleContent"`
		} `json:"rules"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return ""
	}
	for _, s := range list {
		if s.Type != "addRules" || len(s.Rules) == 0 || !plainName.MatchString(s.Rules[0].ToolName) && !mcpName.MatchString(s.Rules[0].ToolName) {
			continue
		}
		r := s.Rules[0]
		if r.RuleContent == "" {
			return r.ToolName
		}
		return r.ToolName + "(" + r.RuleContent + ")"
	}
	return ""
}

// allowFor is a permission pattern's allowlist entry in the runtime's own syntax and where it
// goes, as the runtime's binding gives it (with no entry, the second result says why), and what
// replaying the runtime's matching of the entry on the pattern's calls found.
func allowFor(runtime, rule string, prefix []string, file bool, calls []gates.HookCall) (entry, in, checked string) {
	a := runtimes.For(runtime).Allow(gates.AllowCall{Rule: rule, Prefix: prefix, File: file, Calls: calls})
	return a.Entry, a.In, a.Checked
}

// agcRepair is the AGC response of a repair, its members in the documented order.
type agcRepair struct {
	AGC  string `json:"agc"`
	Gate struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
	} `json:"gate"`
	Verdict  string `json:"verdict"`
	Findings []struct {
		Rule    string     `json:"rule"`
		Target  string     `json:"target"`
		Message string     `json:"message"`
		Repair  Correction `json:"repair"`
	} `json:"findings"`
}

// repairAnswer is the hook answer that makes a gate run the agent's correction (before → after)
// on runtime, with its AGC response (verdict repaired), for the example call ex, as the runtime's
// binding gives it; "" when the runtime applies no rewrite.
func repairAnswer(runtime, rule, tool, before, after string, ex Correction) string {
	var r agcRepair
	r.AGC, r.Verdict = "0.1", "repaired"
	var ok bool
	r.Gate.ID, r.Findings = "guard", make([]struct {
		Rule    string     `json:"rule"`
		Target  string     `json:"target"`
		Message string     `json:"message"`
		Repair  Correction `json:"repair"`
	}, 1)
	r.Gate.Kind = "runtime"
	f := &r.Findings[0]
	if r.Gate.ID, f.Rule, ok = strings.Cut(rule, "/"); !ok {
		r.Gate.ID, f.Rule = "guard", rule
	}
	f.Target = tool + ".command"
	f.Message = fmt.Sprintf("Ran with %s instead of %s.", orNothing(after), orNothing(before))
	f.Repair = ex
	return runtimes.For(runtime).RepairAnswer(gates.Rewrite{Command: ex.After, Context: gates.JSONLine(r)})
}

// literalPrefix is the program and subcommand words of a shape: its words up to the first flag
// or placeholder.
func literalPrefix(words []string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "<") || !allowWord.MatchString(w) {
			break
		}
		out = append(out, w)
	}
	return out
}

// allowWord is a word that can stand in a permission rule as it is.
var allowWord = lazyre.New(`^[A-Za-z0-9_.+-]{1,40}$`)

// readOnly reports whether a command of this shape only reads.
func readOnly(prefix, words []string) bool {
	for _, w := range words {
		name, _, _ := strings.Cut(w, "=")
		if writeFlags[name] {
			return false
		}
	}
	if readOnlyPrograms[prefix[0]] {
		return true
	}
	for n := 2; n <= len(prefix) && n <= 3; n++ {
		if readOnlySubcommands[strings.Join(prefix[:n], " ")] {
			return true
		}
	}
	return false
}

// pathWord finds the words of a command's text that may be paths, each after the character
// that starts it.
var pathWord = lazyre.New(`(^|[\s\v\x{85}\pZ'"=:(,\x60{}\[\]<>|;&])([^\s\v\x{85}\pZ'"(),;|&<>\x60{}=:]+)`)

// Scrub rewrites the paths in a command's text so that each is shown one way and none leaves the
// repository unmasked: an absolute path inside it becomes relative to the repository, a relative
// one that climbs out ("../…") or any other absolute or home path "<outside>".
func Scrub(text, cwd string, paths Paths) string {
	var b strings.Builder
	last := 0
	for _, m := range pathWord.FindAllStringSubmatchIndex(text, -1) {
		lead, p := text[m[2]:m[3]], text[m[4]:m[5]]
		b.WriteString(text[last:m[4]])
		b.WriteString(scrubWord(lead, p, cwd, paths))
		last = m[5]
	}
	b.WriteString(text[last:])
	return b.String()
}

// scrubWord is one word of Scrub, after lead.
func scrubWord(lead, p, cwd string, paths Paths) string {
	abs := strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~")
	switch {
	case !abs && !strings.Contains(p, ".."):
		return p
	case lead == ":" && strings.HasPrefix(p, "//"): // a URL
		return p
	}
	rel, ok := paths.Path(p, cwd)
	switch {
	case ok && !abs:
		return p // relative, and it stays inside
	case ok && !strings.HasPrefix(p, "~"):
		return rel
	}
	return phOutside
}
