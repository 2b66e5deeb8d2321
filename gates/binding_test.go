package gates

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// claudeNames are the Claude Code names that only its binding may spell: its runtime id, its
// tools, the input fields they are read by, and its hook settings files.
var claudeNames = []string{"claude-code", "Bash", "Edit", "Write", "MultiEdit", "NotebookEdit", "PowerShell", "Read",
	"file_path", "notebook_path", "new_string", "new_source"}

// claudeAllowed are the files outside the Claude binding that may spell them, and why.
var claudeAllowed = map[string]string{
	"gates/claudecode.go":  "the Claude binding's checks",
	"runtimes/claude/":     "the Claude binding",
	"runtimes/codex/":      "Codex presents its shell tool to hooks as Bash (a Codex fact)",
	"runtimes/gemini/":     "Gemini's write_file and replace name their file file_path and new text new_string (Gemini facts)",
	"runtimes/qwen/":       "Qwen Code's write_file and edit name their file file_path and new text new_string (Qwen facts)",
	"runtimes/droid/":      "Factory Droid's Create, Edit and Read name their file file_path (Droid facts, testdata/droid)",
	"runtimes/crush/":      "Crush's write and edit name their file file_path and new text new_string (Crush facts, testdata/crush)",
	"runtimes/opencode/":   "the plugin bridge (plugins/opencode/agc-hooks.js) hands hooks Claude Code's tool names and fields (Write, Edit, file_path, new_string), so a Claude guard runs unchanged (testdata/opencode/claude-guard)",
	"agent/agent.go":       "the runtime ids, shared by the recorder and the bindings",
	"friction/":            "Claude Code permissions.allow patterns (Bash(…), Read(…)): a Claude-only feature of another helper's package; to move behind the binding when a second runtime's permission rules are supported",
	"gates/gatestest/":     "test support: builds Claude-shaped answers for the bindings' tests",
	"internal/corpus/":     "generates Claude Code records for benchmarks and fuzz seeds",
	"internal/secrettest/": "planted secrets in Claude-shaped tool inputs",
}

// TestNoClaudeNamesOutsideBinding: no string literal (struct tags included) outside the Claude
// binding's files names a Claude Code tool, input field, settings file or runtime id.
func TestNoClaudeNamesOutsideBinding(t *testing.T) {
	root := ".."
	var hits []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || strings.HasPrefix(n, ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || allowedFile(rel) {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		hits = append(hits, claudeLiterals(rel, src)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		t.Errorf("Claude Code name outside its binding: %s", h)
	}
}

func allowedFile(rel string) bool {
	for f := range claudeAllowed {
		if rel == f || strings.HasSuffix(f, "/") && strings.HasPrefix(rel, f) {
			return true
		}
	}
	return false
}

// claudeLiterals lists the string literals of a Go file that name a Claude Code name: the whole
// literal, or a JSON-quoted word inside it (a struct tag, a JSON text), or a settings path.
func claudeLiterals(rel string, src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	f := fset.AddFile(rel, -1, len(src))
	s.Init(f, src, nil, 0)
	var out []string
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.STRING {
			continue
		}
		v, err := strconv.Unquote(lit)
		if err != nil {
			continue
		}
		for _, n := range claudeNames {
			if v == n || strings.Contains(v, `"`+n+`"`) {
				out = append(out, fset.Position(pos).String()+": "+lit)
				break
			}
		}
		if strings.Contains(v, ".claude/settings") {
			out = append(out, fset.Position(pos).String()+": "+lit)
		}
	}
}

// TestClaudeLiteralsFinds: the scan sees names in literals and tags, never in comments.
func TestClaudeLiteralsFinds(t *testing.T) {
	src := "package x\n// \"Bash\" in a comment\nvar a = \"Bash\"\ntype T struct{ F string `json:\"file_path\"` }\nvar b = \"Bashful\"\nvar c = `.claude/settings.json`\n"
	got := claudeLiterals("x.go", []byte(src))
	if len(got) != 3 {
		t.Fatalf("got %d hits, want 3: %q", len(got), got)
	}
}
