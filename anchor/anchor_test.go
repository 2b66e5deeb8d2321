package anchor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

const settingsJSON = `{
  "permissions": {"allow": ["Bash(git status)"]},
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/scripts/guard.sh"}
        ]
      },
      {
        "matcher": "Edit|Write",
        "hooks": [
          {"type": "command", "command": "agc-sarif record -- python3 scripts/edit_guard.py --strict"}
        ]
      }
    ],
    "PostToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "scripts/post.sh"}]}
    ]
  }
}
`

const aGo = `package a

func A() int {
	x := 1
	return x
}

func B() {}

// end
`

func gitCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testRepo makes a git repository with settings, a source file, symlinks in and out, and a
// linked work tree outside it; it returns the root and the work tree.
func testRepo(t *testing.T) (string, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "repo")
	writeFile(t, root, ".claude/settings.json", settingsJSON)
	writeFile(t, root, "src/a.go", aGo)
	writeFile(t, root, "README.md", "# r\n")
	outside := filepath.Join(base, "outside")
	writeFile(t, outside, "secret.txt", "s\n")
	if err := os.Symlink(outside, filepath.Join(root, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(root, "link-in")); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, root, "init", "-q", "-b", "main")
	gitCmd(t, root, "add", "-A")
	gitCmd(t, root, "commit", "-q", "-m", "init")
	wt := filepath.Join(base, "wt-feature")
	gitCmd(t, root, "worktree", "add", "-q", wt)
	return root, wt
}

func newAnchorer(t *testing.T, opts Options) *Anchorer {
	t.Helper()
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestPath(t *testing.T) {
	root, wt := testRepo(t)
	a := newAnchorer(t, Options{Root: root, ProjectDirs: []string{"/home/dev/proj", `C:\Users\dev\proj`}})
	tests := []struct {
		p, cwd string
		want   string // "" = refused
	}{
		{"src/a.go", "", "src/a.go"},
		{"./src//a.go", "", "src/a.go"},
		{root + "/src/a.go", "", "src/a.go"},
		{"file://" + root + "/src/a.go", "", "src/a.go"},
		{root + "/.claude/worktrees/agent-1/src/a.go", "", "src/a.go"},
		{".claude/worktrees/agent-1/src/a.go", "", "src/a.go"},
		{"/home/someone/elsewhere/.claude/worktrees/x/src/a.go", "", "src/a.go"},
		{wt + "/src/a.go", "", "src/a.go"},
		{"/home/dev/proj/src/a.go", "", "src/a.go"},
		{`C:\Users\dev\proj\src\a.go`, "", "src/a.go"},
		{`c:\users\DEV\proj\src\a.go`, "", "src/a.go"},
		{`src\a.go`, "", "src/a.go"},
		{"a.go", root + "/src", "src/a.go"},
		{"a.go", wt + "/src", "src/a.go"},
		{"src/new.go", "", "src/new.go"},
		{"link-in/a.go", "", "src/a.go"},
		{"link-out/secret.txt", "", ""},
		{"link-out/new.txt", "", ""},
		{"link-out/deeper/new.txt", "", ""},
		{"link-in/new.go", "", "src/new.go"},
		{"link-in/deep/er/new.go", "", "src/deep/er/new.go"},
		{"src/deep/new.go", "", "src/deep/new.go"},
		{"../../etc/passwd", "", ""},
		{"src/../../etc/passwd", "", ""},
		{"../outside/secret.txt", root, ""},
		{"/etc/passwd", "", ""},
		{"/etc/passwd", "/home/dev/proj", ""},
		{"/etc/passwd", "/", ""},
		{"/etc/passwd", "/etc", "passwd"}, // the agent worked in /etc: its files map to the repository's
		{"/Users/dev/proj/src/a.go", "/Users/dev/proj", "src/a.go"},
		{"/Users/dev/proj/src/a.go", "/Users/dev/proj/src", "src/a.go"},
		{"/Users/dev/proj/src/new.go", "/Users/dev/proj", "src/new.go"},
		{"/Users/dev/other/x.go", "/Users/dev/proj", ""},
		{`D:\other\x.go`, "", ""},
		{".git/config", "", ""},
		{root, "", ""},
		{root + "/", "", ""},
		{"", "", ""},
		{"src/a\x00.go", "", ""},
	}
	for pass := range 2 { // the second from what the first remembered of files and folders
		for _, tt := range tests {
			got, ok := a.Path(tt.p, tt.cwd)
			if !ok {
				got = ""
			}
			if got != tt.want {
				t.Errorf("pass %d: Path(%q, %q) = %q, %v; want %q", pass+1, tt.p, tt.cwd, got, ok, tt.want)
			}
		}
	}
}

func call(tool, hook, file, input string) *findings.Call {
	c := &findings.Call{Runtime: "claude-code", Event: "PreToolUse", Tool: tool, Hook: hook, FilePath: file}
	if input != "" {
		c.Input = []byte(input)
	}
	return c
}

func TestAnchor(t *testing.T) {
	root, _ := testRepo(t)
	a := newAnchorer(t, Options{Root: root})
	base := findings.Finding{RuleID: "guard/r", Kind: findings.RuntimeGate, Message: "blocked"}
	with := func(mod func(*findings.Finding)) findings.Finding {
		f := base
		mod(&f)
		return f
	}
	tests := []struct {
		name     string
		in       findings.Finding
		want     findings.Location
		anchored string // "" = none; "*" = any non-empty sentence
		msgHas   string
		placed   findings.Placement // the step of the chain that placed it
	}{
		{"own location, absolute, clamped", with(func(f *findings.Finding) {
			f.Location = &findings.Location{Path: root + "/src/a.go", StartLine: 99, StartCol: 3}
		}), findings.Location{Path: "src/a.go", StartLine: 10}, "", "", findings.PlacedOwn},
		{"own location, columns fit", with(func(f *findings.Finding) {
			f.Location = &findings.Location{Path: "src/a.go", StartLine: 4, EndLine: 5, StartCol: 2, EndCol: 10}
		}), findings.Location{Path: "src/a.go", StartLine: 4, EndLine: 5, StartCol: 2, EndCol: 10}, "", "", findings.PlacedOwn},
		{"own location, columns past the line", with(func(f *findings.Finding) {
			f.Location = &findings.Location{Path: "src/a.go", StartLine: 8, StartCol: 40}
		}), findings.Location{Path: "src/a.go", StartLine: 8}, "", "", findings.PlacedOwn},
		{"own location, end before start", with(func(f *findings.Finding) {
			f.Location = &findings.Location{Path: "src/a.go", StartLine: 5, EndLine: 2, StartCol: 4, EndCol: 1}
		}), findings.Location{Path: "src/a.go", StartLine: 5}, "", "", findings.PlacedOwn},
		{"own location, no line", with(func(f *findings.Finding) {
			f.Location = &findings.Location{Path: "src/a.go"}
		}), findings.Location{Path: "src/a.go", StartLine: 1}, "", "", findings.PlacedOwn},
		{"own location refused, falls to the hook", with(func(f *findings.Finding) {
			f.Location = &findings.Location{Path: "../../etc/passwd", StartLine: 1}
			f.Call = call("Bash", `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`, "", `{"command":"cat /etc/passwd"}`)
		}), findings.Location{Path: ".claude/settings.json", StartLine: 8}, "*", "../../etc/passwd", findings.PlacedHook},
		{"edit: lines of new_string", with(func(f *findings.Finding) {
			f.Call = call("Edit", "", root+"/src/a.go", `{"file_path":"`+root+`/src/a.go","old_string":"x := 0","new_string":"\tx := 1\n\treturn x"}`)
		}), findings.Location{Path: "src/a.go", StartLine: 4, EndLine: 5}, "", "", findings.PlacedFile},
		{"multiedit from input only, in an agent worktree", with(func(f *findings.Finding) {
			f.Call = call("MultiEdit", "", "", `{"file_path":"`+root+`/.claude/worktrees/a1/src/a.go","edits":[{"old_string":"q","new_string":"func B() {}"}]}`)
		}), findings.Location{Path: "src/a.go", StartLine: 8}, "", "", findings.PlacedFile},
		{"write: text not in the file", with(func(f *findings.Finding) {
			f.Call = call("Write", "", "src/a.go", `{"file_path":"src/a.go","content":"package zzz\n"}`)
		}), findings.Location{Path: "src/a.go", StartLine: 1}, "Anchored to line 1 of src/a.go, the file the call touched: the call's new text is not in the checked-out file.", "", findings.PlacedFile},
		{"read: no text", with(func(f *findings.Finding) {
			f.Call = call("Read", "", root+"/README.md", `{"file_path":"`+root+`/README.md"}`)
		}), findings.Location{Path: "README.md", StartLine: 1}, "*", "", findings.PlacedFile},
		{"write of a new file that was blocked: hook line", with(func(f *findings.Finding) {
			f.Call = call("Write", "agc-sarif record -- python3 scripts/edit_guard.py --strict", root+"/src/new.go", `{"content":"x"}`)
		}), findings.Location{Path: ".claude/settings.json", StartLine: 14},
			"Anchored to the hook's line in .claude/settings.json: the file the call touched, src/new.go, is not a file in the checkout.", "", findings.PlacedHook},
		{"call file outside: hook line, path kept in message", with(func(f *findings.Finding) {
			f.Call = call("Read", `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`, "/etc/shadow", "")
		}), findings.Location{Path: ".claude/settings.json", StartLine: 8}, "*", "/etc/shadow", findings.PlacedHook},
		{"bash: hook's line, exact command", with(func(f *findings.Finding) {
			f.Call = call("Bash", `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`, "", `{"command":"rm -rf /"}`)
		}), findings.Location{Path: ".claude/settings.json", StartLine: 8},
			"Anchored to the hook's line in .claude/settings.json: the call touched no file.", "", findings.PlacedHook},
		{"bash: hook's line by script name (hook log argv)", with(func(f *findings.Finding) {
			f.Call = call("Bash", "/home/dev/proj/scripts/guard.sh", "", "")
		}), findings.Location{Path: ".claude/settings.json", StartLine: 8}, "*", "", findings.PlacedHook},
		{"bash: hook's line, event preferred", with(func(f *findings.Finding) {
			f.Call = call("Bash", "scripts/post.sh", "", "")
			f.Call.Event = "PostToolUse"
		}), findings.Location{Path: ".claude/settings.json", StartLine: 19}, "*", "", findings.PlacedHook},
		{"unknown hook: the hooks line", with(func(f *findings.Finding) {
			f.Call = call("Bash", "/opt/other-guard", "", "")
		}), findings.Location{Path: ".claude/settings.json", StartLine: 3},
			"Anchored to the \"hooks\" line of .claude/settings.json: the call touched no file; the hook's command is not in the settings.", "", findings.PlacedHook},
		{"runtime finding without call: the hooks line", base, findings.Location{Path: ".claude/settings.json", StartLine: 3}, "*", "", findings.PlacedHook},
		{"judgment without location: fallback", with(func(f *findings.Finding) {
			f.Kind = findings.JudgmentGate
		}), findings.Location{Path: ".claude/settings.json", StartLine: 1},
			"Anchored to line 1 of .claude/settings.json, the fallback file: the finding names no file.", "", findings.PlacedFallback},
		{"judgment, location not in checkout: fallback", with(func(f *findings.Finding) {
			f.Kind = findings.JudgmentGate
			f.Location = &findings.Location{Path: "gone.go", StartLine: 3}
		}), findings.Location{Path: ".claude/settings.json", StartLine: 1},
			"Anchored to line 1 of .claude/settings.json, the fallback file: its own location, gone.go, is not a file in the checkout.", "", findings.PlacedFallback},
		{"location is a directory", with(func(f *findings.Finding) {
			f.Kind = findings.JudgmentGate
			f.Location = &findings.Location{Path: "src", StartLine: 3}
		}), findings.Location{Path: ".claude/settings.json", StartLine: 1}, "*", "", findings.PlacedFallback},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before *findings.Location
			if tt.in.Location != nil {
				c := *tt.in.Location
				before = &c
			}
			got := a.Anchor(tt.in)
			if got.Location == nil {
				t.Fatal("no location")
			}
			if *got.Location != tt.want {
				t.Errorf("location = %+v, want %+v", *got.Location, tt.want)
			}
			switch {
			case tt.anchored == "*" && got.Anchored == "":
				t.Errorf("Anchored is empty")
			case tt.anchored != "*" && got.Anchored != tt.anchored:
				t.Errorf("Anchored = %q, want %q", got.Anchored, tt.anchored)
			}
			if got.Placed != tt.placed {
				t.Errorf("Placed = %q, want %q", got.Placed, tt.placed)
			}
			if tt.msgHas != "" && !strings.Contains(got.Message, tt.msgHas) {
				t.Errorf("message %q lost the path %q", got.Message, tt.msgHas)
			}
			if before != nil && *tt.in.Location != *before {
				t.Errorf("Anchor changed the input's location")
			}
		})
	}
}

func TestFallbackChain(t *testing.T) {
	judg := findings.Finding{RuleID: "review/r", Kind: findings.JudgmentGate, Message: "m"}
	tests := []struct {
		name  string
		files map[string]string
		git   bool
		opts  Options
		want  string
	}{
		{"fallback option", map[string]string{"docs/agents.md": "x\n", "README.md": "r\n"}, false, Options{Fallback: "docs/agents.md"}, "docs/agents.md"},
		{"fallback option missing", map[string]string{"README.md": "r\n"}, false, Options{Fallback: "docs/none.md"}, "README.md"},
		{"workflow file", map[string]string{".github/workflows/agc.yml": "on: push\n", "README.md": "r\n"}, false,
			Options{Workflow: "octo/repo/.github/workflows/agc.yml@refs/heads/main"}, ".github/workflows/agc.yml"},
		{"readme", map[string]string{"README.md": "r\n", "a.txt": "a\n"}, false, Options{}, "README.md"},
		{"first tracked file", map[string]string{"z.txt": "z\n", "b/a.txt": "a\n"}, true, Options{}, "b/a.txt"},
		// Without git nothing says which file is the repository's: not any file found (a binary,
		// a build output), but the documented end of the chain.
		{"no first file without git", map[string]string{"z.txt": "z\n", "b/a.txt": "a\n"}, false, Options{}, "README.md"},
		{"empty repository", nil, true, Options{}, "README.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for rel, c := range tt.files {
				writeFile(t, root, rel, c)
			}
			if tt.git {
				gitCmd(t, root, "init", "-q")
				if len(tt.files) > 0 {
					gitCmd(t, root, "add", "-A")
				}
			}
			tt.opts.Root = root
			got := newAnchorer(t, tt.opts).Anchor(judg)
			if got.Location == nil || got.Location.Path != tt.want || got.Location.StartLine != 1 {
				t.Errorf("location = %+v, want %s:1", got.Location, tt.want)
			}
			if !strings.Contains(got.Anchored, tt.want) {
				t.Errorf("Anchored %q does not name %s", got.Anchored, tt.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("New without root succeeded")
	}
	if _, err := New(Options{Root: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("New with a missing root succeeded")
	}
}

func TestSettingsOutsideRepoIgnored(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "r")
	writeFile(t, base, "evil/settings.json", settingsJSON)
	writeFile(t, root, "README.md", "r\n")
	if err := os.Symlink(filepath.Join(base, "evil"), filepath.Join(root, ".claude")); err != nil {
		t.Fatal(err)
	}
	a := newAnchorer(t, Options{Root: root})
	if len(a.settings) != 0 {
		t.Errorf("read settings through a link out of the repository")
	}
	got := a.Anchor(findings.Finding{Kind: findings.RuntimeGate, Call: call("Bash", `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`, "", "")})
	if got.Location.Path != "README.md" {
		t.Errorf("location %+v", got.Location)
	}
}

func TestSettingsLinkInsideRepo(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "config/claude-settings.json", settingsJSON)
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../config/claude-settings.json", filepath.Join(root, ".claude/settings.json")); err != nil {
		t.Fatal(err)
	}
	a := newAnchorer(t, Options{Root: root})
	got := a.Anchor(findings.Finding{Kind: findings.RuntimeGate, Call: call("Bash", `"$CLAUDE_PROJECT_DIR"/scripts/guard.sh`, "", "")})
	if got.Location.Path != "config/claude-settings.json" || got.Location.StartLine != 8 {
		t.Errorf("location %+v, want the link's target at line 8", got.Location)
	}
}

func TestAnchorManyFindings(t *testing.T) {
	root, _ := testRepo(t)
	a := newAnchorer(t, Options{Root: root})
	big := strings.Repeat("filler line of a large file\n", 200000) + "needle line that was edited\n"
	writeFile(t, root, "big.txt", big)
	gitCmd(t, root, "add", "big.txt") // a place must be a file of the commit
	in := findings.Finding{Kind: findings.RuntimeGate, Call: call("Edit", "", root+"/big.txt",
		`{"new_string":"needle line that was edited"}`)}
	for i := 0; i < 10000; i++ {
		got := a.Anchor(in)
		if got.Location.StartLine != 200001 {
			t.Fatalf("line %d, want 200001", got.Location.StartLine)
		}
	}
}

// BenchmarkAnchorEdit anchors an Edit in a 5.6 MB file; repeats are answered from the cache.
func BenchmarkAnchorEdit(b *testing.B) {
	root := b.TempDir()
	writeFile(b, root, "big.txt", strings.Repeat("filler line of a large file\n", 200000)+"needle line that was edited\n")
	a, err := New(Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	in := findings.Finding{Kind: findings.RuntimeGate, Call: call("Edit", "", root+"/big.txt",
		`{"new_string":"needle line that was edited"}`)}
	for b.Loop() {
		a.Anchor(in)
	}
}

func TestConcurrentAnchor(t *testing.T) {
	root, _ := testRepo(t)
	a := newAnchorer(t, Options{Root: root})
	done := make(chan findings.Finding)
	for g := 0; g < 4; g++ {
		go func() {
			var f findings.Finding
			for i := 0; i < 20; i++ {
				f = a.Anchor(findings.Finding{Kind: findings.JudgmentGate, Location: &findings.Location{Path: root + "/src/a.go", StartLine: i + 1}})
			}
			done <- f
		}()
	}
	for g := 0; g < 4; g++ {
		if f := <-done; f.Location.Path != "src/a.go" || f.Location.StartLine != 10 {
			t.Errorf("location %+v", f.Location)
		}
	}
}

// TestAnchorAtSource places a finding with no file of its own at the line of the input it was
// read from when that input lies in the repository (a reviewer's message committed with the
// change), and falls back when the input lies outside.
func TestAnchorAtSource(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "README.md", "r\n")
	writeFile(t, root, "reviews/final.md", "a\nb\nc\nd\n")
	a := newAnchorer(t, Options{Root: root, InputDir: filepath.Join(root, "reviews")})
	f := findings.Finding{RuleID: "agc/judgment-prose-disagrees", Kind: findings.Contract, Message: "m",
		Source: findings.Source{File: "final.md", Line: 3}}
	got := a.Anchor(f)
	if got.Location == nil || got.Location.Path != "reviews/final.md" || got.Location.StartLine != 3 {
		t.Fatalf("location = %+v, want reviews/final.md:3", got.Location)
	}
	if !strings.Contains(got.Anchored, "where the gate's answer was read") || got.Placed != findings.PlacedInput {
		t.Errorf("Anchored = %q, Placed = %q, want the input's line", got.Anchored, got.Placed)
	}
	f.Source.File = filepath.Join(t.TempDir(), "elsewhere.md")
	writeFile(t, filepath.Dir(f.Source.File), "elsewhere.md", "x\n")
	if got := a.Anchor(f); got.Location == nil || got.Location.Path != "README.md" || got.Placed != findings.PlacedFallback {
		t.Fatalf("input outside the repository: location = %+v, placed %q, want the fallback README.md", got.Location, got.Placed)
	}
}

// TestHookEventNotAtSource: a hook event read from a log inside the repository is not placed at
// its log line (each event has its own, so repeats would never merge); it takes the fallback.
func TestHookEventNotAtSource(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "README.md", "r\n")
	writeFile(t, root, "hook-log.jsonl", "{}\n{}\n{}\n")
	a := newAnchorer(t, Options{Root: root, InputDir: root})
	f := findings.Finding{RuleID: "guard/r", Kind: findings.RuntimeGate, Message: "m",
		Call: &findings.Call{Event: "PreToolUse", Tool: "Bash"}, Source: findings.Source{File: "hook-log.jsonl", Line: 3}}
	if got := a.Anchor(f); got.Location == nil || got.Location.Path != "README.md" {
		t.Fatalf("location = %+v, want the fallback README.md", got.Location)
	}
}
