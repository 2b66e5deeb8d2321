package permissions

import (
	"strings"
	"unicode"
)

// ParseRule splits a rule's text into its tool and content and marks the rules Claude Code's
// validator drops (Rule.Dropped): empty rules, Tool(), a tool name not starting upper-case, a
// malformed Tool(content), Bash(:*), ":*" in a file rule, a WebFetch rule without "domain:".
func ParseRule(text string) Rule {
	r := Rule{Text: text, Tool: text}
	if i := strings.IndexByte(text, '('); i >= 0 {
		if !strings.HasSuffix(text, ")") {
			r.Tool, r.Dropped = text[:i], "a malformed rule: no closing parenthesis"
			return r
		}
		r.Tool, r.Content, r.Paren = text[:i], text[i+1:len(text)-1], true
	}
	switch {
	case strings.TrimSpace(text) == "":
		r.Dropped = "an empty rule"
	case r.Tool == "" || !unicode.IsUpper(rune(r.Tool[0])) && !strings.HasPrefix(r.Tool, "mcp__"):
		r.Dropped = "a tool name must start upper-case"
	case r.Paren && r.Content == "":
		r.Dropped = "Tool() with nothing inside"
	case r.Tool == "Bash" && r.Content == ":*":
		r.Dropped = "Bash(:*) names no command"
	case r.Paren && strings.HasPrefix(r.Tool, "mcp__"):
		r.Dropped = "an MCP rule takes no parentheses"
	case r.Paren && r.Tool == "WebFetch" && !strings.HasPrefix(r.Content, "domain:"):
		r.Dropped = `a WebFetch rule needs "domain:host"`
	case r.Paren && isFileTool(r.Tool) && strings.Contains(r.Content, ":*"):
		r.Dropped = `":*" is not a path pattern`
	}
	return r
}

// fileTools are the tools whose rules are path rules (only Read and Edit rules are consulted).
var fileTools = []string{"Read", "Edit", "Write", "NotebookEdit", "MultiEdit", "Glob", "Grep", "LS"}

func isFileTool(t string) bool {
	for _, f := range fileTools {
		if f == t {
			return true
		}
	}
	return false
}

// writeTools are the tools an Edit(path) rule governs.
var writeTools = lazyWords("Edit Write NotebookEdit MultiEdit")

// NeverMatches says why a rule that loads is never consulted: Write(path), NotebookEdit(path),
// MultiEdit(path) and Glob(path) rules are accepted and never matched (only Read and Edit are
// path rules); an exact Bash rule with a space at an end never equals a normalised command.
func (r Rule) NeverMatches() string {
	if r.Dropped != "" {
		return ""
	}
	switch {
	case r.Paren && (r.Tool == "Write" || r.Tool == "NotebookEdit" || r.Tool == "MultiEdit" || r.Tool == "Glob"):
		return r.Tool + "(path) rules are never matched: only Edit(path) and Read(path) are path rules; write Edit(" + r.Content + ")"
	case r.Tool == "Bash" && r.Paren && r.Content != strings.TrimSpace(r.Content):
		return "the rule has a space at its start or end, and a command is matched with its blanks trimmed"
	}
	return ""
}
