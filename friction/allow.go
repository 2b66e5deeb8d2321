package friction

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
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

// allowEntry is the permissions.allow entry of .claude/settings.json that lets a read-only
// pattern through without a prompt, or "" when the pattern is not read-only (or leaves the
// repository, or is more than one command).
func allowEntry(tool, pattern string) string {
	words := strings.Fields(pattern)
	if len(words) < 2 && tool == "Bash" || len(words) == 0 || words[len(words)-1] == more {
		return ""
	}
	if readOnlyFileTools[tool] {
		dir, _, _ := strings.Cut(words[len(words)-1], "*")
		if strings.HasPrefix(dir, "<") {
			return ""
		}
		return tool + "(" + dir + "**)"
	}
	if tool != "Bash" {
		return ""
	}
	prefix := literalPrefix(words)
	if len(prefix) == 0 || !readOnly(prefix, words) {
		return ""
	}
	return "Bash(" + strings.Join(prefix, " ") + ":*)"
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

// Scrub rewrites the paths in a command's text so that none leaves the repository unmasked: an
// absolute path inside it becomes "<repo>/rel", a relative one that climbs out ("../…") or any
// other absolute or home path "<outside>".
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
		return "<repo>/" + rel
	}
	return phOutside
}
