package redact

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
)

// fake returns n characters of a fixed pseudo-random sequence over alphabet, different per
// seed: well-formed, high-entropy, and not anybody's secret. Tokens are built from pieces at run
// time so that the repository holds no literal token for push protection to flag.
func fake(seed, n int, alphabet string) string {
	x := uint64(seed)*2654435761 + 12345
	b := make([]byte, n)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = alphabet[x%uint64(len(alphabet))]
	}
	return string(b)
}

const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0234567"
	b64   = alnum + "+/"
	url64 = alnum + "-_"
	lowal = "abcdefghijklmnopqrstuvwxyz0123456789"
)

// planted is one secret in a context: the category it covers, where it appears (command, tool
// input, tool output, message), the text, and the secret part that must not survive.
type planted struct {
	category, where, text, secret string
}

func join(parts ...string) string { return strings.Join(parts, "") }

func corpus() []planted {
	jwtHead := join("ey", "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
	jwtBody := join("ey", "J", fake(40, 40, url64))
	pem := func(kind string, seed int, sep string) string {
		return join("-----BEGIN ", kind, "PRIVATE KEY-----", sep, fake(seed, 64, b64), sep, fake(seed+1, 64, b64), sep, fake(seed+2, 20, b64), "==", sep, "-----END ", kind, "PRIVATE KEY-----")
	}
	ghp := join("gh", "p_", fake(1, 36, alnum))
	var c []planted
	add := func(cat, where, text, secret string) { c = append(c, planted{cat, where, text, secret}) }
	// GitHub
	add("github", "command", "export GITHUB_TOKEN="+ghp+" && gh pr list", ghp)
	add("github", "tool output", "remote: using "+join("gh", "o_", fake(2, 36, alnum))+" for auth", join("gh", "o_", fake(2, 36, alnum)))
	add("github", "message", "The hook saw "+join("gh", "u_", fake(3, 36, alnum))+" in the call.", join("gh", "u_", fake(3, 36, alnum)))
	add("github", "tool input", `{"command":"curl -u x:`+join("gh", "s_", fake(4, 36, alnum))+` https://api.github.com"}`, join("gh", "s_", fake(4, 36, alnum)))
	add("github", "tool output", "refresh="+join("gh", "r_", fake(5, 36, alnum)), join("gh", "r_", fake(5, 36, alnum)))
	add("github", "command", "gh auth login --with-token <<< "+join("github", "_pat_", fake(6, 22, alnum), "_", fake(7, 59, alnum)), join("github", "_pat_", fake(6, 22, alnum), "_", fake(7, 59, alnum)))
	// GitLab
	add("gitlab", "command", "git push https://oauth2@gitlab.com/x.git -o token="+join("gl", "pat-", fake(8, 20, url64)), join("gl", "pat-", fake(8, 20, url64)))
	// AWS
	add("aws", "command", "AWS_ACCESS_KEY_ID="+join("AK", "IA", fake(9, 16, upnum))+" aws s3 ls", join("AK", "IA", fake(9, 16, upnum)))
	add("aws", "tool output", `{"AccessKeyId": "`+join("AS", "IA", fake(10, 16, upnum))+`"}`, join("AS", "IA", fake(10, 16, upnum)))
	add("aws", "tool input", `{"file_path":"/r/.env","content":"aws_secret_access_key = `+fake(11, 40, b64)+`\n"}`, fake(11, 40, b64))
	// Google
	add("google", "message", "Blocked: the call embeds "+join("AI", "za", fake(12, 35, url64))+" in a URL.", join("AI", "za", fake(12, 35, url64)))
	// Slack
	add("slack", "command", "curl -d token="+join("xo", "xb-", fake(13, 12, "0123456789"), "-", fake(14, 24, alnum))+" https://slack.com/api", join("xo", "xb-", fake(13, 12, "0123456789"), "-", fake(14, 24, alnum)))
	add("slack", "tool output", "SLACK="+join("xo", "xp-", fake(15, 12, "0123456789"), "-", fake(16, 24, alnum)), join("xo", "xp-", fake(15, 12, "0123456789"), "-", fake(16, 24, alnum)))
	// Stripe
	add("stripe", "tool input", `{"command":"stripe charges list --api-key `+join("sk", "_live_", fake(17, 24, alnum))+`"}`, join("sk", "_live_", fake(17, 24, alnum)))
	// OpenAI
	add("openai", "command", "OPENAI_API_KEY="+join("sk", "-proj-", fake(18, 48, url64), "7")+" python run.py", join("sk", "-proj-", fake(18, 48, url64), "7"))
	add("openai", "message", "key "+join("sk", "-", fake(19, 40, alnum), "1")+" was printed", join("sk", "-", fake(19, 40, alnum), "1"))
	// Anthropic
	add("anthropic", "tool output", "using "+join("sk", "-ant-", "api03-", fake(20, 93, url64), "AA"), join("sk", "-ant-", "api03-", fake(20, 93, url64), "AA"))
	// npm, PyPI
	add("npm", "command", "echo //registry.npmjs.org/:_authToken="+join("np", "m_", fake(21, 36, alnum))+" > .npmrc", join("np", "m_", fake(21, 36, alnum)))
	add("pypi", "command", "twine upload -p "+join("py", "pi-", "AgEIcHlwaS5vcmc", fake(22, 60, url64))+" dist/*", join("py", "pi-", "AgEIcHlwaS5vcmc", fake(22, 60, url64)))
	// JWT
	add("jwt", "tool output", "session="+jwtHead+"."+jwtBody+"."+fake(23, 43, url64), jwtBody)
	// Private keys: plain, in a JSON string (escaped newlines), and OpenSSH.
	add("private-key", "tool input", pem("RSA ", 24, "\n"), fake(24, 64, b64))
	add("private-key", "tool input", `{"content":"`+pem("", 27, `\n`)+`"}`, fake(28, 64, b64))
	add("private-key", "tool output", pem("OPENSSH ", 30, "\n"), fake(31, 64, b64))
	// URL passwords
	add("url-password", "command", "git clone https://deploy:"+fake(33, 20, alnum)+"@git.example.com/r.git", fake(33, 20, alnum))
	add("url-password", "message", "DATABASE_URL uses postgres://app:"+fake(34, 16, alnum)+"@db:5432/app", fake(34, 16, alnum))
	// Authorization / Bearer
	add("authorization", "command", `curl -H "Authorization: Basic `+fake(35, 28, b64)+`=" https://x`, fake(35, 28, b64))
	add("authorization", "tool input", `{"headers":{"Authorization":"token `+fake(36, 40, "0123456789abcdef")+`"}}`, fake(36, 40, "0123456789abcdef"))
	add("bearer", "message", "the hook found Bearer "+fake(37, 32, alnum)+"9 in the request", fake(37, 32, alnum)+"9")
	// Names that say secret: env assignments, flags, JSON / YAML keys.
	add("assignment", "command", "export DB_PASSWORD=correct-horse-battery-staple && ./migrate", "correct-horse-battery-staple")
	add("assignment", "tool input", `{"file_path":"/r/config.yaml","content":"smtp:\n  password: Summer2026!xyz\n"}`, "Summer2026!xyz")
	add("assignment", "tool output", `{"api_key": "`+fake(38, 24, lowal)+`", "user": "bob"}`, fake(38, 24, lowal))
	add("assignment", "message", `client_secret='`+fake(39, 12, alnum)+`' was in the command`, fake(39, 12, alnum))
	add("assignment", "command", `MYSQL_PWD=tr0ub4dor mysql -u root`, "tr0ub4dor")
	add("flag", "command", "mysql --password hunter2hunter2 -h db", "hunter2hunter2")
	add("flag", "command", `vault login --token="`+fake(41, 26, alnum)+`"`, fake(41, 26, alnum))
	add("flag", "tool input", `{"command":"deploy --client-secret `+fake(42, 30, alnum)+` --env prod"}`, fake(42, 30, alnum))
	return c
}

func TestCorpusRedacted(t *testing.T) {
	r := New(Options{})
	cats := map[string]int{}
	places := map[string]int{}
	for i, p := range corpus() {
		cats[p.category]++
		places[p.where]++
		if !strings.Contains(p.text, p.secret) {
			t.Fatalf("case %d: the secret is not in its text", i)
		}
		got := r.String(p.text)
		if strings.Contains(got, p.secret) {
			t.Errorf("case %d (%s in %s): secret survived:\n  %s", i, p.category, p.where, got)
		}
		if !strings.Contains(got, "[REDACTED:") {
			t.Errorf("case %d: no redaction marker in %q", i, got)
		}
		if again := r.String(got); again != got {
			t.Errorf("case %d: redacting twice changed the text:\n  %s\n  %s", i, got, again)
		}
		if strings.HasPrefix(p.text, "{") {
			out := r.JSON([]byte(p.text))
			if !json.Valid(out) || strings.Contains(string(out), p.secret) {
				t.Errorf("case %d: JSON redaction gave %s", i, out)
			}
		}
	}
	if n := len(corpus()); n < 30 {
		t.Errorf("corpus has %d secrets, want at least 30", n)
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
	ghp := join("gh", "p_", fake(1, 36, alnum))
	tests := []struct{ in, want string }{
		{"export GITHUB_TOKEN=" + ghp, "export GITHUB_TOKEN=[REDACTED:github-pat]"},
		{"https://u:" + fake(2, 12, alnum) + "@h/x", "https://u:[REDACTED:url-password]@h/x"},
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
	s := "export GITHUB_TOKEN=" + join("gh", "p_", fake(1, 36, alnum))
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
	secret := join("gh", "p_", fake(9, 36, alnum))
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

// TestSpeed measures the cost per KB (without the memo) on text without candidates, on hook-like JSON text that
// has keywords but no secret, and on text full of secrets; it fails only when far too slow.
func TestSpeed(t *testing.T) {
	r := New(Options{})
	var withSecrets strings.Builder
	for _, p := range corpus() {
		withSecrets.WriteString(p.text)
		withSecrets.WriteString("\n")
	}
	cases := map[string]string{
		"prose":        strings.Repeat("The guard blocked a command that ran in the main checkout at /work/x. ", 15),
		"hook json":    strings.Repeat(`{"hookEventName":"PreToolUse","tool_input":{"command":"git status","description":"auth check of key files"},"permissionDecision":"deny"} `, 8),
		"with secrets": withSecrets.String(),
	}
	for name, s := range cases {
		n := 50
		start := time.Now()
		for i := 0; i < n; i++ {
			r.redact(s) // not String: its memo would answer
		}
		per := float64(time.Since(start).Nanoseconds()) / float64(n) / (float64(len(s)) / 1024)
		t.Logf("%-12s %6d bytes: %8.0f ns/KB", name, len(s), per)
		if per > 50e6 && !raceOn {
			t.Errorf("%s: %.0f ns/KB is far too slow", name, per)
		}
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
	for _, p := range corpus() {
		texts = append(texts, p.text)
	}
	for _, name := range []string{"gitleaks.toml", "redact.go", "own.go", "redact_test.go"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n")...)
	}
	for i := 0; i < 40; i++ {
		v := fake(100+i, 12+i, alnum)
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
