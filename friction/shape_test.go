package friction

import (
	"path"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
		{"Bash", `{"command":"/repo/scripts/check.sh --fast"}`, "<repo>/scripts/check.sh --fast"},
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

func TestSameIntentAndCorrection(t *testing.T) {
	tests := []struct {
		a, b          string
		same          bool
		before, after string
	}{
		{"python scripts/build.py", "python3 scripts/build.py", true, "python", "python3"},
		{"python scripts/build.py", "python3 scripts/lint.py", false, "", ""},
		{"gh pr view 12 --json title", "gh pr view 12 --json title,body", true, "title", "title,body"},
		{"rm -rf build", "ls src", false, "", ""},
		{"git push --force origin main", "git push origin main", true, "--force", ""},
	}
	for _, tt := range tests {
		a, _ := commandWords(tt.a)
		b, _ := commandWords(tt.b)
		if got := sameIntent(a, b); got != tt.same {
			t.Errorf("sameIntent(%q, %q) = %v", tt.a, tt.b, got)
		}
		if !tt.same {
			continue
		}
		before, after := correction(a, b)
		if before != tt.before || after != tt.after {
			t.Errorf("correction(%q, %q) = %q → %q, want %q → %q", tt.a, tt.b, before, after, tt.before, tt.after)
		}
	}
}

func TestAllowEntry(t *testing.T) {
	tests := []struct{ tool, pattern, want string }{
		{"Bash", "gh pr view <value> --json <value>", "Bash(gh pr view:*)"},
		{"Bash", "ls <path>", "Bash(ls:*)"},
		{"Bash", "find <path> -delete", ""},
		{"Bash", "rm -rf <path>", ""},
		{"Bash", "git status …", ""},
		{"Bash", "git push --force <value>", ""},
		{"Read", "Read src/*.py", "Read(src/**)"},
		{"Read", "Read *.md", "Read(**)"},
		{"Read", "Read <outside>/*", ""},
		{"Write", "Write src/*.py", ""},
	}
	for _, tt := range tests {
		if got := allowEntry(tt.tool, tt.pattern); got != tt.want {
			t.Errorf("allowEntry(%s, %q) = %q, want %q", tt.tool, tt.pattern, got, tt.want)
		}
	}
}

func TestScrub(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cat /repo/src/a.py", "cat <repo>/src/a.py"},
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
