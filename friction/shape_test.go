package friction

import (
	"path"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/agent"
)

// testPaths is a repository at /repo: paths under it map to repo-relative ones, others leave it.
type testPaths struct{}

func (testPaths) Path(p, cwd string) (string, bool) {
	if !strings.HasPrefix(p, "/") {
		if cwd == "" {
			cwd = "/repo"
		}
		p = cwd + "/" + p
	}
	p = path.Clean(p)
	rel, ok := strings.CutPrefix(p, "/repo/")
	return rel, ok && rel != "" && !strings.HasPrefix(rel, "..")
}

func TestShape(t *testing.T) {
	tests := []struct {
		tool, input, pattern string
	}{
		{"Bash", `{"command":"python scripts/build.py"}`, "python <path>"},
		{"Bash", `{"command":"python3 -m unittest discover -s src"}`, "python3 -m <value> -s <value>"},
		{"Bash", `{"command":"gh pr view 12 --json title"}`, "gh pr view <value> --json <value>"},
		{"Bash", `{"command":"git push --force origin main"}`, "git push --force <value>"},
		{"Bash", `{"command":"rm -rf /etc/passwd /srv/x"}`, "rm -rf <path>"},
		{"Bash", `{"command":"/repo/scripts/check.sh --fast"}`, "scripts/check.sh --fast"},
		{"Bash", `{"command":"/opt/secret/tool.sh"}`, "<outside>/tool.sh"},
		{"Bash", `{"command":"cd /srv && make test"}`, "cd <path> …"},
		{"Bash", `{"command":"FOO=1 go test ./... | tee out"}`, "go test <path> …"},
		{"Bash", `{"command":"curl --header=Authorization https://x.example/a"}`, "curl --header=<value> <url>"},
		{"Bash", `{"command":"echo \"$HOME\" 'a b'"}`, "echo <expr> <value>"},
		{"Bash", `{"command":"mysql -u root -pzSE9tSM3gUrr6P -h db --Token=x --ZSE9tS"}`, "mysql -u <value> -p<value> -h <value>"},
		{"Bash", `{"command":"find . -name x -delete"}`, "find <path> -name <value> -delete"},
		{"Bash", `{"command":"if then ((("}`, "if <value>"},
		{"Read", `{"file_path":"/repo/src/app.py"}`, "Read src/*.py"},
		{"Write", `{"file_path":"/repo/README.md"}`, "Write *.md"},
		{"Read", `{"file_path":"/etc/hostname"}`, "Read <outside>/*"},
		{"Edit", `{"file_path":"/repo/../etc/x.conf"}`, "Edit <outside>/*.conf"},
		{"WebFetch", `{"url":"https://example.com"}`, "WebFetch"},
	}
	for _, tt := range tests {
		got, _ := Shape(tt.tool, []byte(tt.input), "/repo", testPaths{})
		if got != tt.pattern {
			t.Errorf("Shape(%s %s) = %q, want %q", tt.tool, tt.input, got, tt.pattern)
		}
	}
}

// call is a shaped call of tool with input, its one field set to arg.
func call(tool, arg string) shaped {
	field := "command"
	if f, ok := fileTools[tool]; ok {
		field = f
	}
	return shapeCall(&Call{Tool: tool, Cwd: "/repo", Input: []byte(`{"` + field + `":` + quote(arg) + `}`)}, testPaths{})
}

func TestSameIntentAndCorrection(t *testing.T) {
	tests := []struct {
		tool, a, tool2, b string
		same              bool
		before, after     string
	}{
		{"Bash", "python scripts/build.py", "Bash", "python3 scripts/build.py", true, "python", "python3"},
		{"Bash", "python scripts/build.py --fast", "Bash", "python3 scripts/build.py --fast", true, "python", "python3"},
		// Another script by the same interpreter family is still the same intent; the correction
		// is then the whole command, which makes corrections vary (a steer, not a rewrite).
		{"Bash", "python scripts/build.py", "Bash", "python3 scripts/lint.py", true, "python scripts/build.py", "python3 scripts/lint.py"},
		{"Bash", "gh pr view 12 --json title", "Bash", "gh pr view 12 --json title,body", true, "title", "title,body"},
		{"Bash", "rm -rf build", "Bash", "ls src", false, "", ""},
		{"Bash", "git push --force origin main", "Bash", "git push origin main", true, "--force", ""},
		{"Bash", "git push origin main", "Bash", "git status", false, "", ""},
		{"Bash", "tsc -p a", "Bash", "npx tsc -p a", true, "", "npx"},
		{"Write", "/repo/NOTES.md", "Write", "/repo/CHANGES.md", false, "", ""},
		{"Write", "/repo/NOTES.md", "Edit", "NOTES.md", true, "", ""},
		{"Write", "/repo/NOTES.md", "Bash", "cat NOTES.md", false, "", ""},
	}
	for _, tt := range tests {
		a, b := call(tt.tool, tt.a), call(tt.tool2, tt.b)
		if got := sameIntent(&a, &b); got != tt.same {
			t.Errorf("sameIntent(%q, %q) = %v", tt.a, tt.b, got)
		}
		if !tt.same || tt.tool != "Bash" {
			continue
		}
		before, after := correction(a.words, b.words)
		if before != tt.before || after != tt.after {
			t.Errorf("correction(%q, %q) = %q → %q, want %q → %q", tt.a, tt.b, before, after, tt.before, tt.after)
		}
	}
}

func TestPermissionRule(t *testing.T) {
	tests := []struct {
		tool, arg, rule string
		safe            bool
	}{
		{"Bash", "gh pr view 12 --json title", "Bash(gh pr view:*)", true},
		{"Bash", "ls src", "Bash(ls:*)", true},
		{"Bash", "find . -delete", "Bash(find:*)", false},
		{"Bash", "rm -rf build", "Bash(rm:*)", false},
		{"Bash", "git status && git push", "Bash(git status:*)", false},
		{"Bash", "git push --force origin main", "Bash(git push:*)", false},
		{"Read", "/repo/src/app.py", "Read(src/**)", true},
		{"Read", "/repo/README.md", "Read(**)", true},
		{"Read", "/etc/hostname", "Read(<outside>/**)", false},
		{"Write", "/repo/NOTES.md", "Edit(*.md)", true},
		{"Write", "docs/a.md", "Edit(docs/*.md)", true},
		{"Edit", "/srv/x.conf", "Edit(<outside>/*.conf)", false},
		{"WebFetch", "", "WebFetch", false},
	}
	for _, tt := range tests {
		c := call(tt.tool, tt.arg)
		rule, own, _, safe := permissionRule(&c, Options{Paths: testPaths{}})
		if own != rule {
			t.Errorf("permissionRule(%s %q): own rule %q, want %q with no suggestion", tt.tool, tt.arg, own, rule)
		}
		if rule != tt.rule || safe != tt.safe {
			t.Errorf("permissionRule(%s %q) = %q, %v; want %q, %v", tt.tool, tt.arg, rule, safe, tt.rule, tt.safe)
		}
	}
	// The runtime's own suggestion wins, paths in it made relative to the repository.
	c := call("Bash", "gh pr view 12")
	c.Suggestions = []byte(`[{"type":"setMode","mode":"acceptEdits"},{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"gh pr *"}]}]`)
	if rule, own, _, _ := permissionRule(&c, Options{Paths: testPaths{}}); rule != "Bash(gh pr *)" || own != "Bash(gh pr view:*)" {
		t.Errorf("with a suggestion: %q, own %q", rule, own)
	}
	c.Suggestions = []byte(`[{"type":"addRules","rules":[{"toolName":"Read","ruleContent":"//repo/src/**"}]}]`)
	if rule, _, _, _ := permissionRule(&c, Options{Paths: testPaths{}}); rule != "Read(src/**)" {
		t.Errorf("with a suggestion naming an absolute path: %q", rule)
	}
}

func TestAllowFor(t *testing.T) {
	tests := []struct {
		runtime string
		file    bool
		allow   string
		in      string
	}{
		{"claude-code", false, "Bash(git status:*)", "permissions.allow in .claude/settings.json"},
		{"codex", false, `prefix_rule(pattern = ["git", "status"], decision = "allow")`, "execpolicy"},
		{"codex", true, "", "none: "},
		{"gemini-cli", false, "run_shell_command(git status)", "tools.allowed in .gemini/settings.json"},
		{"gemini-cli", true, "", "none: "},
		{"copilot-cli", false, "shell(git status)", "--allow-tool"},
		{"copilot-cli", true, "", "none: "},
		{agent.Qwen, false, "", "none: "},
		{agent.Qwen, true, "", "none: "},
		{agent.Droid, false, "", "none: "},
		{agent.Crush, false, "", "none: "},
		{"other-cli", false, "Bash(git status:*)", "permissions.allow in .claude/settings.json"},
	}
	for _, tt := range tests {
		allow, in, _ := allowFor(tt.runtime, "Bash(git status:*)", []string{"git", "status"}, tt.file, nil)
		if allow != tt.allow || !strings.Contains(in, tt.in) {
			t.Errorf("allowFor(%s, file %v) = %q in %q; want %q in …%s…", tt.runtime, tt.file, allow, in, tt.allow, tt.in)
		}
	}
}

func TestScrub(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cat /repo/src/a.py", "cat src/a.py"},
		{"cat /etc/shadow ~/.ssh/id_rsa", "cat <outside> <outside>"},
		{"curl https://example.com/a/b", "curl https://example.com/a/b"},
		{"cp --from=/srv/x.txt y", "cp --from=<outside> y"},
		{"cat ../../etc/passwd src/../a src/../../../etc/x", "cat <outside> src/../a <outside>"},
	}
	for _, tt := range tests {
		if got := Scrub(tt.in, "/repo", testPaths{}); got != tt.want {
			t.Errorf("Scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzShape checks the pattern extraction's promises on any command: it returns, it is valid
// UTF-8 when the input is, it is bounded, and it never holds a path outside the repository.
func FuzzShape(f *testing.F) {
	for _, s := range []string{"python scripts/build.py", "gh pr view 12 --json title", "cd /srv && make test",
		"echo \"$(cat /etc/passwd)\"", "/opt/x/tool.sh -v", "a=$((1+2)) b", "cat <<EOF\n/etc/x\nEOF", "'unterminated"} {
		f.Add("Bash", s)
	}
	f.Add("Read", "/etc/hostname")
	f.Add("Edit", "/repo/src/../../etc/x.py")
	f.Fuzz(func(t *testing.T, tool, arg string) {
		field := "command"
		if tool != "Bash" {
			field = "file_path"
		}
		input := []byte(`{"` + field + `":` + quote(arg) + `}`)
		var pattern string
		done := make(chan bool)
		go func() { pattern, _ = Shape(tool, input, "/repo", testPaths{}); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("HANG %q", input)
		}
		if len(pattern) > len(tool)+maxShapeWords*64+16 && len(pattern) > 2*len(arg)+64 {
			t.Errorf("pattern of %d bytes from %d", len(pattern), len(arg))
		}
		if utf8.ValidString(arg) && !utf8.ValidString(pattern) {
			t.Errorf("pattern %q is not UTF-8", pattern)
		}
		for _, w := range strings.Fields(pattern) {
			if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") {
				t.Errorf("pattern %q holds a raw absolute path %q", pattern, w)
			}
		}
		scrubbed := Scrub(arg, "/repo", testPaths{})
		for _, w := range strings.Fields(scrubbed) {
			if strings.HasPrefix(w, "/") {
				t.Errorf("Scrub(%q) = %q holds a raw absolute path", arg, scrubbed)
			}
		}
	})
}

// quote is a JSON string of s.
func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, []byte(`\u00`)...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&15])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(append(b, '"'))
}

// TestShapeNestingBounded: a deeply nested command is not handed to the shell parser (whose time
// grows with the square of the nesting); its shape comes from its words.
func TestShapeNestingBounded(t *testing.T) {
	cmd := "echo " + strings.Repeat("$((", 1300)
	if !deeplyNested(cmd) || deeplyNested("a $(b) ${c} [d] `e`") {
		t.Error("deeplyNested misjudges")
	}
	if got, _ := Shape("Bash", []byte(`{"command":`+quote(cmd)+`}`), "/repo", testPaths{}); got != "echo <value>" {
		t.Errorf("shape %q", got)
	}
}

// FuzzPermissionRule checks the permission rule of any call and any permission_suggestions: it
// returns, and no rule or allowlist entry holds an absolute path (outside the repository it is
// <outside>, inside it relative).
func FuzzPermissionRule(f *testing.F) {
	f.Add("Bash", "gh pr view 12", `[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"gh pr *"}]}]`)
	f.Add("Read", "/etc/hostname", `[{"type":"addRules","rules":[{"toolName":"Read","ruleContent":"//etc/**"}]}]`)
	f.Add("Write", "/repo/a.md", `[{"type":"setMode","mode":"acceptEdits"}]`)
	f.Add("Bash", "ls", `[{"type":"addRules","rules":[]}, 1, null]`)
	f.Fuzz(func(t *testing.T, tool, arg, suggestions string) {
		c := call(tool, arg)
		c.Suggestions = []byte(suggestions)
		rule, own, _, _ := permissionRule(&c, Options{Paths: testPaths{}})
		allow, _, _ := allowFor("claude-code", own, nil, c.file, nil)
		for _, s := range []string{rule, own, allow} {
			if strings.Contains(s, "(/") && !strings.Contains(s, "(/)") || strings.Contains(s, "/repo/") {
				t.Errorf("permissionRule(%s %q, %q) = %q, %q, allow %q: holds an absolute path", tool, arg, suggestions, rule, own, allow)
			}
		}
	})
}
