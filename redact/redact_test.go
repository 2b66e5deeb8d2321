package redact

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

func TestCorpusRedacted(t *testing.T) {
	r := New(Options{})
	cats := map[string]int{}
	places := map[string]int{}
	for i, p := range secrettest.Planted() {
		cats[p.Category]++
		places[p.Where]++
		if !strings.Contains(p.Text, p.Secret) {
			t.Fatalf("case %d: the secret is not in its text", i)
		}
		got := r.String(p.Text)
		if strings.Contains(got, p.Secret) {
			t.Errorf("case %d (%s in %s): secret survived:\n  %s", i, p.Category, p.Where, got)
		}
		if !strings.Contains(got, "[REDACTED:") {
			t.Errorf("case %d: no redaction marker in %q", i, got)
		}
		if again := r.String(got); again != got {
			t.Errorf("case %d: redacting twice changed the text:\n  %s\n  %s", i, got, again)
		}
		if strings.HasPrefix(p.Text, "{") {
			out := r.JSON([]byte(p.Text))
			if !json.Valid(out) || strings.Contains(string(out), p.Secret) {
				t.Errorf("case %d: JSON redaction gave %s", i, out)
			}
		}
	}
	if n := len(secrettest.Planted()); n < 60 {
		t.Errorf("corpus has %d secrets, want at least 60", n)
	}
	for _, c := range []string{"github", "gitlab", "aws", "google", "slack", "stripe", "openai", "anthropic", "npm", "pypi",
		"jwt", "private-key", "url-password", "authorization", "bearer", "assignment", "flag"} {
		if cats[c] == 0 {
			t.Errorf("no planted secret of category %s", c)
		}
	}
	for _, w := range []string{"command", "tool input", "tool output", "message"} {
		if places[w] == 0 {
			t.Errorf("no planted secret in a %s", w)
		}
	}
	t.Logf("categories: %v; places: %v", cats, places)
}

func TestOrdinaryTextUntouched(t *testing.T) {
	r := New(Options{})
	for _, s := range []string{
		"commit 3f2a9c1d0e4b5a6978877665544332211aabbccd",
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"session 123e4567-e89b-12d3-a456-426614174000 ended",
		"/home/runner/work/agc-sarif/agc-sarif/.claude/worktrees/fix-1/src/main.go",
		`C:\Users\dev\project\src\main.go`,
		"AGC block: workstream-isolation/main-checkout-access/Bash.command — the command ran in the main checkout.",
		"The token budget was exceeded; the password prompt was skipped.",
		`{"input_tokens": 1234, "output_tokens": 56, "max_tokens": 4096}`,
		"git log --oneline --token-file /tmp/none",
		"export PATH=/usr/local/bin:$PATH PWD=/work/main OLDPWD=/work",
		`{"password": "$DB_PASSWORD", "token": "${{ secrets.GITHUB_TOKEN }}", "api_key": "<your-key>"}`,
		"git clone https://github.com/agc-sarif/agc-sarif.git",
		"https://x-access-token:${GITHUB_TOKEN}@github.com/o/r.git",
		"Edit src/auth/token_store.go: rename Token() to AccessToken()",
		"password: str",
		"run `npm ci` then `npm test`",
	} {
		if got := r.String(s); got != s {
			t.Errorf("ordinary text changed:\n  %s\n  %s", s, got)
		}
	}
}

func TestRuleNames(t *testing.T) {
	r := New(Options{})
	ghp := secrettest.Join("gh", "p_", secrettest.Fake(1, 36, secrettest.Alnum))
	tests := []struct{ in, want string }{
		{"export GITHUB_TOKEN=" + ghp, "export GITHUB_TOKEN=[REDACTED:github-pat]"},
		{"https://u:" + secrettest.Fake(2, 12, secrettest.Alnum) + "@h/x", "https://u:[REDACTED:url-password]@h/x"},
		{"mysql --password hunter2hunter2", "mysql --password [REDACTED:secret-flag]"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDisabled(t *testing.T) {
	r := New(Options{Disabled: true})
	s := "export GITHUB_TOKEN=" + secrettest.Join("gh", "p_", secrettest.Fake(1, 36, secrettest.Alnum))
	if r.String(s) != s {
		t.Error("a disabled redactor changed text")
	}
	f := findings.Finding{Message: s}
	if r.Finding(f).Message != s {
		t.Error("a disabled redactor changed a finding")
	}
}

func TestFinding(t *testing.T) {
	r := New(Options{})
	secret := secrettest.Join("gh", "p_", secrettest.Fake(9, 36, secrettest.Alnum))
	f := findings.Finding{
		Message:  "blocked " + secret,
		Anchored: "Anchored: " + secret,
		Repair:   &findings.Repair{Before: "curl -H 'Authorization: token " + secret + "'", After: "curl " + secret},
		Call: &findings.Call{Command: "export TOKEN=" + secret, FilePath: "/tmp/" + secret, Hook: "guard --token " + secret,
			Cwd: "/w/" + secret, Input: []byte(`{"command":"export TOKEN=` + secret + `","nested":[{"k":"` + secret + `"}]}`)},
		Examples: []findings.Example{{Message: "e " + secret}, {Message: "plain"}},
	}
	orig := f
	origInput := string(f.Call.Input)
	g := r.Finding(f)
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	all := string(b) + string(g.Call.Input)
	if strings.Contains(all, secret) {
		t.Errorf("secret survived in %s", all)
	}
	if !json.Valid(g.Call.Input) {
		t.Errorf("input is no longer JSON: %s", g.Call.Input)
	}
	if g.Examples[1].Message != "plain" {
		t.Errorf("example changed: %q", g.Examples[1].Message)
	}
	if !strings.Contains(orig.Message, secret) || !strings.Contains(orig.Repair.Before, secret) ||
		string(orig.Call.Input) != origInput || !strings.Contains(orig.Examples[0].Message, secret) {
		t.Error("Finding changed its argument")
	}
}

func TestRulesCompile(t *testing.T) {
	rs, err := defaultRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.rules) < 200 {
		t.Errorf("only %d rules", len(rs.rules))
	}
}

// BenchmarkRedactKinds measures redaction (without the memo) on text without candidates, on
// hook-like JSON that has keywords but no secret, and on text full of secrets.
func BenchmarkRedactKinds(b *testing.B) {
	var withSecrets strings.Builder
	for _, p := range secrettest.Planted() {
		withSecrets.WriteString(p.Text)
		withSecrets.WriteString("\n")
	}
	cases := map[string]string{
		"prose":        strings.Repeat("The guard blocked a command that ran in the main checkout at /work/x. ", 15),
		"hook json":    strings.Repeat(`{"hookEventName":"PreToolUse","tool_input":{"command":"git status","description":"auth check of key files"},"permissionDecision":"deny"} `, 8),
		"with secrets": withSecrets.String(),
	}
	for name, s := range cases {
		b.Run(name, func(b *testing.B) {
			r := New(Options{})
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				r.redact(s) // not String: its memo would answer
			}
		})
	}
}

func BenchmarkString(b *testing.B) {
	r := New(Options{})
	s := strings.Repeat(`{"hookEventName":"PreToolUse","tool_input":{"command":"git status","description":"auth check of key files"}} `, 8)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		r.redact(s)
	}
}

func ExampleRedactor_String() {
	r := New(Options{})
	fmt.Println(r.String("git clone https://ci:" + "pa55" + "word" + "99@git.example.com/app.git"))
	// Output: git clone https://ci:[REDACTED:url-password]@git.example.com/app.git
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := compile(gitleaksTOML); err != nil {
			b.Fatal(err)
		}
	}
}

func TestConcurrent(t *testing.T) {
	r := New(Options{})
	done := make(chan string)
	for g := 0; g < 4; g++ {
		go func() {
			out := ""
			for i := 0; i < 20; i++ {
				out = r.String(fmt.Sprintf("export DB_PASSWORD=correct-horse-%d", i%3))
			}
			done <- out
		}()
	}
	for g := 0; g < 4; g++ {
		if got := <-done; strings.Contains(got, "correct-horse") {
			t.Errorf("not redacted: %s", got)
		}
	}
}

// TestWindowsAgreeWithFullSearch checks that running rules only on the windows around their
// keywords (and only where an operator follows) finds what running them on every line finds.
func TestWindowsAgreeWithFullSearch(t *testing.T) {
	rs, err := compile(gitleaksTOML)
	if err != nil {
		t.Fatal(err)
	}
	windowed := 0
	for _, r := range rs.rules {
		if r.window {
			windowed++
		}
		r.window, r.gate = false, false
	}
	full := &Redactor{rules: rs, memo: map[string]string{}}
	fast := New(Options{})
	var texts []string
	for _, p := range secrettest.Planted() {
		texts = append(texts, p.Text)
	}
	for _, name := range []string{"gitleaks.toml", "redact.go", "own.go", "redact_test.go"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n")...)
	}
	for i := 0; i < 40; i++ {
		v := secrettest.Fake(100+i, 12+i, secrettest.Alnum)
		texts = append(texts, fmt.Sprintf(`auth_token = "%s"`, v), fmt.Sprintf(`my access key: '%s'`, v),
			fmt.Sprintf(`client.secret=%s`, v), fmt.Sprintf(`{"x_api_key" :  "%s", "n": 1}`, v))
	}
	differ := 0
	for _, s := range texts {
		if a, b := fast.redact(s), full.redact(s); a != b {
			differ++
			if differ < 5 {
				t.Errorf("windowed and full search differ:\n  %s\n  %s", a, b)
			}
		}
	}
	t.Logf("%d texts, %d windowed rules, %d differ", len(texts), windowed, differ)
}
