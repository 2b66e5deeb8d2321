package permissions

import (
	"encoding/json"
	"testing"
)

func TestParseRule(t *testing.T) {
	for _, c := range []struct {
		text, tool, content, dropped string
		paren                        bool
	}{
		{"Bash", "Bash", "", "", false},
		{"Bash(npm test:*)", "Bash", "npm test:*", "", true},
		{"bash(npm test)", "bash", "npm test", "a tool name must start upper-case", true},
		{"Bash()", "Bash", "", "Tool() with nothing inside", true},
		{"Bash(:*)", "Bash", ":*", "Bash(:*) names no command", true},
		{"Read(src/**:*)", "Read", "src/**:*", `":*" is not a path pattern`, true},
		{"WebFetch(https://x.test)", "WebFetch", "https://x.test", `a WebFetch rule needs "domain:host"`, true},
		{"Bash(npm", "Bash", "", "a malformed rule: no closing parenthesis", false},
		{"mcp__srv__tool", "mcp__srv__tool", "", "", false},
	} {
		r := ParseRule(c.text)
		if r.Tool != c.tool || r.Content != c.content || r.Dropped != c.dropped || r.Paren != c.paren {
			t.Errorf("ParseRule(%q) = tool %q content %q paren %v dropped %q; want %q %q %v %q", c.text, r.Tool, r.Content, r.Paren, r.Dropped, c.tool, c.content, c.paren, c.dropped)
		}
	}
}

func TestBashMatch(t *testing.T) {
	for _, c := range []struct {
		rule, text string
		want       bool
	}{
		{"npm run test:*", "npm run test", true},
		{"npm run test:*", "npm run test -- -x", true},
		{"npm run test:*", "npm run testing", false},
		{"npm run test:*", "npm run test:unit", false},
		{"npm run test:*", "xargs npm run test", true},
		{"make *", "make", true},
		{"make *", "make build", true},
		{"make *", "makefoo", false},
		{"npm run test*", "npm run testing", true},
		{"git * main", "git push origin main", true},
		{`echo \*`, "echo *", true},
		{`echo \*`, "echo x", false},
		{"./scripts/check.sh", "./scripts/check.sh", true},
		{"./scripts/check.sh", "scripts/check.sh", false},
		{"./scripts/check.sh", "./scripts/check.sh --fast", false},
	} {
		if got := bashMatch(c.rule, c.text); got != c.want {
			t.Errorf("bashMatch(%q, %q) = %v, want %v", c.rule, c.text, got, c.want)
		}
	}
}

func TestSplitShell(t *testing.T) {
	for _, c := range []struct {
		cmd, complex string
		allow, deny  []string
	}{
		{"npm  run   test", "", []string{"npm run test"}, []string{"npm run test"}},
		{"FOO=1 npm test", "", []string{"FOO=1 npm test"}, []string{"npm test"}},
		{"NODE_ENV=test npm test", "", []string{"npm test"}, []string{"npm test"}},
		{"env git push", "", []string{"env git push"}, []string{"git push"}},
		{"sudo -u root rm x", "", []string{"sudo -u root rm x"}, []string{"rm x"}},
		{"timeout 10 npm test", "", []string{"npm test"}, []string{"npm test"}},
		{"time go test ./...", "", []string{"go test ./..."}, []string{"go test ./..."}},
		{"a && b || c; d | e", "", []string{"a", "b", "c", "d", "e"}, []string{"a", "b", "c", "d", "e"}},
		{"./x.sh > out.txt 2>&1", "", []string{"./x.sh"}, []string{"./x.sh"}},
		{"'npm' test", "", []string{"npm test"}, []string{"npm test"}},
		{"(a; b)", "shell-operators", nil, nil},
		{"echo $(date)", "too-complex", []string{"echo $(date)"}, []string{"echo $(date)"}},
		{"a & b", "backgroundOperator", []string{"a", "b"}, []string{"a", "b"}},
		{"if true; then a; fi", "too-complex", nil, nil},
	} {
		sh := splitShell(c.cmd)
		if sh.Complex != c.complex {
			t.Errorf("%q: complex %q, want %q", c.cmd, sh.Complex, c.complex)
		}
		if len(sh.Parts) != len(c.allow) {
			t.Errorf("%q: %d parts, want %d", c.cmd, len(sh.Parts), len(c.allow))
			continue
		}
		for i, p := range sh.Parts {
			if p.Allow != c.allow[i] || p.Deny != c.deny[i] {
				t.Errorf("%q part %d: allow %q deny %q; want %q %q", c.cmd, i, p.Allow, p.Deny, c.allow[i], c.deny[i])
			}
		}
	}
	if w := splitShell("echo hi > out.txt").Parts[0].Writes; len(w) != 1 || w[0] != "out.txt" {
		t.Errorf("writes of echo hi > out.txt: %q", w)
	}
	if w := splitShell("x 2>/dev/null").Parts[0].Writes; len(w) != 0 {
		t.Errorf("writes of x 2>/dev/null: %q", w)
	}
}

// TestSettingsLines: every rule keeps the line it stands on, whatever the file's layout.
func TestSettingsLines(t *testing.T) {
	src := "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\"}]},\n \"permissions\": {\n  \"allow\": [\"Bash(a)\",\n   \"Bash(b)\"], \"deny\": [\n\n\"Read(./x)\"],\n  \"defaultMode\": \"acceptEdits\", \"additionalDirectories\": [\"../o\"]},\n \"env\": {\"allow\": [\"not a rule\"]}}\n"
	var s Settings
	if err := parseSettings([]byte(src), &s, "/p"); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text string
		b    Decision
		line int
	}{{"Bash(a)", Allow, 3}, {"Bash(b)", Allow, 4}, {"Read(./x)", Deny, 6}}
	if len(s.Rules) != len(want) {
		t.Fatalf("rules %+v, want %d", s.Rules, len(want))
	}
	for i, w := range want {
		if r := s.Rules[i]; r.Text != w.text || r.Behavior != w.b || r.Line != w.line {
			t.Errorf("rule %d: %s %s line %d; want %s %s %d", i, r.Text, r.Behavior, r.Line, w.text, w.b, w.line)
		}
	}
	if s.DefaultMode != "acceptEdits" || s.ModeLine != 7 || len(s.AddDirs) != 1 {
		t.Errorf("mode %q line %d dirs %q", s.DefaultMode, s.ModeLine, s.AddDirs)
	}
	if err := parseSettings([]byte("{\"permissions\": {\"allow\": [\n"), &Settings{}, "/p"); err == nil {
		t.Error("a cut file parsed without error")
	}
}

// TestEveryAskNamesItsRule: on every case of the differential set, a decision by a rule names
// the rule and its line, and one that no rule made says so by its reason.
func TestEveryAskNamesItsRule(t *testing.T) {
	cases, _ := loadCases(t, "cases")
	for _, c := range cases {
		res := policyOf(t, c).Decide(c.call())
		if res.Decision == Allow {
			continue
		}
		if res.Rule != nil {
			if res.Rule.Line < 1 || res.Rule.File == "" {
				t.Errorf("%s: rule %s without its place", c.ID, res.Rule.Text)
			}
			continue
		}
		if res.Reason == "" || res.Why == "" {
			t.Errorf("%s: %s by no rule, and no reason given", c.ID, res.Decision)
		}
	}
}

func FuzzDecide(f *testing.F) {
	for _, s := range []string{"npm test", "a && (b; c) | d &", "FOO=1 env sudo -u x timeout 3 ./x.sh > f 2>&1", "echo $(x) `y` $Z", "cd .. && git push", "'"} {
		f.Add(s, "Bash(npm test:*)", "Bash(git:*)")
	}
	f.Fuzz(func(t *testing.T, cmd, allow, deny string) {
		files := Settings{Source: LocalSettings, File: "l.json"}
		for _, x := range []struct {
			text string
			b    Decision
		}{{allow, Allow}, {deny, Deny}} {
			r := ParseRule(x.text)
			r.Behavior, r.Source, r.File, r.Line = x.b, LocalSettings, "l.json", 1
			files.Rules = append(files.Rules, r)
		}
		pol := NewPolicy(Env{Project: "/p", Home: "/h"}, files)
		in, _ := json.Marshal(map[string]string{"command": cmd, "file_path": cmd})
		for _, tool := range []string{"Bash", "Write", "Read"} {
			res := pol.Decide(Call{Tool: tool, Input: in, Cwd: "/p"})
			switch res.Decision {
			case Allow, Ask, Deny:
			default:
				t.Fatalf("%s %q: decision %q", tool, cmd, res.Decision)
			}
			if res.Decision != Allow && res.Rule == nil && res.Reason == "" {
				t.Fatalf("%s %q: %s with no rule and no reason", tool, cmd, res.Decision)
			}
		}
	})
}
