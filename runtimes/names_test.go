package runtimes

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// runtimeNames are the words that name a runtime, by the folder that may spell them; each
// runtime id (agent.ClaudeCode, …) holds its word.
var runtimeNames = map[string]string{"claude": "claude", "codex": "codex", "gemini": "gemini", "copilot": "copilot", "qwen": "qwen",
	"cline": "cline", "opencode": "opencode", "kilo": "opencode", "droid": "droid", "crush": "crush"}

// boundedWords are runtime words that other words hold ("srcLine", "decline"): they name a
// runtime only where they start a word (the token's start, after a character that is not a
// lower-case letter, or with a capital: "clineVersion", "agent.Cline", "isCline").
var boundedWords = map[string]bool{"cline": true, "kilo": true}

// holdsWord reports whether the token lit holds the runtime word w.
func holdsWord(lit, w string) bool {
	low := strings.ToLower(lit)
	if !boundedWords[w] {
		return strings.Contains(low, w)
	}
	for i := 0; i+len(w) <= len(low); i++ {
		if low[i:i+len(w)] != w {
			continue
		}
		if i == 0 || lit[i] >= 'A' && lit[i] <= 'Z' || !(lit[i-1] >= 'a' && lit[i-1] <= 'z') {
			if rest := lit[i+1 : i+len(w)]; rest == low[i+1:i+len(w)] || rest == strings.ToUpper(rest) { // "cLine" is another word's capital
				return true
			}
		}
	}
	return false
}

// namesAllowed are the files or folders outside the runtime folders, the registry (this folder's
// own files) and the id package (agent/) whose code may still name a runtime, and why. Each entry
// must still name one (TestRuntimeNamesOutsideFolders fails on a stale entry), so the list only
// shrinks.
var namesAllowed = map[string]string{
	"gates/checks.go":             "the texts of shared rows name Claude Code, whose answer shape the shared checks read (SARIF rule texts, kept as they are)",
	"runtimes/codex/checks.go":    "a Codex fact in its row's text: it applies updatedInput only with allow, the opposite of Claude Code",
	"runtimes/copilot/checks.go":  "a Copilot fact in its rows' texts: it ignores an answer shaped as Claude Code's hookSpecificOutput",
	"runtimes/copilot/binding.go": "a Copilot fact: it ignores an answer shaped as Claude Code's hookSpecificOutput, and says so",
	"collect/read.go":             "a message that names the input formats",
	"internal/corpus/":            "generates Claude Code records for benchmarks and fuzz seeds",
}

// TestRuntimeNamesOutsideFolders: no identifier or string literal of non-test Go code names a
// runtime (claude, codex, gemini, copilot, qwen, in any case, their ids included) outside that
// runtime's folder, the registry and the id package, but in the files namesAllowed lists.
func TestRuntimeNamesOutsideFolders(t *testing.T) {
	root := ".."
	used := map[string]bool{}
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
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, h := range runtimeWords(rel, src) {
			switch allowed := allowedEntry(rel); {
			case mayName(rel, h.word):
			case allowed != "":
				used[allowed] = true
			default:
				t.Errorf("%s names runtime %q outside its folder: %s", h.pos, h.word, h.text)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for k := range namesAllowed {
		if !used[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("namesAllowed lists %s, which names no runtime any more: drop the entry", k)
	}
}

// mayName reports whether the file rel may spell the runtime word: it lies in the runtime's
// folder, in the registry's own folder (not another runtime's), or in the id package.
func mayName(rel, word string) bool {
	if strings.HasPrefix(rel, "agent/") || strings.HasPrefix(rel, "runtimes/"+runtimeNames[word]+"/") {
		return true
	}
	return strings.HasPrefix(rel, "runtimes/") && strings.Count(rel, "/") == 1
}

// allowedEntry is the namesAllowed entry that covers rel, or "".
func allowedEntry(rel string) string {
	for k := range namesAllowed {
		if rel == k || strings.HasSuffix(k, "/") && strings.HasPrefix(rel, k) {
			return k
		}
	}
	return ""
}

// wordHit is one identifier or literal that names a runtime.
type wordHit struct{ pos, word, text string }

// runtimeWords lists the identifiers and literals of a Go file (comments are not read) that
// hold a runtime's word, in any case.
func runtimeWords(rel string, src []byte) []wordHit {
	var s scanner.Scanner
	fset := token.NewFileSet()
	f := fset.AddFile(rel, -1, len(src))
	s.Init(f, src, nil, 0)
	var out []wordHit
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.IDENT && tok != token.STRING && tok != token.CHAR {
			continue
		}
		for w := range runtimeNames {
			if holdsWord(lit, w) {
				out = append(out, wordHit{fset.Position(pos).String(), w, lit})
			}
		}
	}
}

// TestRuntimeWordsFinds: the scan sees identifiers and literals in any case, never comments, and
// a runtime's folder may spell its own word but not another's.
func TestRuntimeWordsFinds(t *testing.T) {
	for lit, want := range map[string]bool{"srcLine": false, "accLine": false, "decline": false, "clineVersion": true,
		"agent.Cline": true, "isCline": true, `"cline"`: true, "kilobytes": true, "KILO_PID": true, "x_cline": true} {
		if got := holdsWord(lit, "cline") || holdsWord(lit, "kilo"); got != want {
			t.Errorf("holdsWord(%s) = %v, want %v", lit, got, want)
		}
	}
	src := "package x\n// codex in a comment\nvar GeminiX = \"copilot-cli\"\nconst c = `Claude Code`\nvar q = \"qwen-code\"\nvar plain = 1\n"
	if got := runtimeWords("x.go", []byte(src)); len(got) != 4 {
		t.Fatalf("got %d hits, want 4: %+v", len(got), got)
	}
	for _, c := range []struct {
		rel, word string
		want      bool
	}{
		{"runtimes/codex/binding.go", "codex", true},
		{"runtimes/codex/binding.go", "gemini", false},
		{"runtimes/runtimes.go", "gemini", true},
		{"agent/agent.go", "copilot", true},
		{"inputs/hookevent.go", "claude", false},
		{"runtimes/qwen/binding.go", "qwen", true},
		{"runtimes/claude/binding.go", "qwen", false},
		{"runtimes/opencode/kilo.go", "kilo", true},
		{"runtimes/cline/binding.go", "opencode", false},
	} {
		if got := mayName(c.rel, c.word); got != c.want {
			t.Errorf("mayName(%s, %s) = %v, want %v", c.rel, c.word, got, c.want)
		}
	}
}
