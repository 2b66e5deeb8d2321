// Package secrettest holds a corpus of planted fake secrets for tests that check no output of
// agc-sarif leaks one. Tokens are built from pieces at run time, so the repository holds no
// literal token for secret scanners to flag; none is anybody's real secret.
package secrettest

import "strings"

// Fake returns n characters of a fixed pseudo-random sequence over alphabet, different per
// seed: well-formed, high-entropy, and not anybody's secret. Tokens are built from pieces at run
// time so that the repository holds no literal token for push protection to flag.
func Fake(seed, n int, alphabet string) string {
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

// Alphabets for Fake.
const (
	Alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	Upnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0234567"
	B64   = Alnum + "+/"
	URL64 = Alnum + "-_"
	Lowal = "abcdefghijklmnopqrstuvwxyz0123456789"
)

// Secret is one planted secret in a context: the category it covers, where it appears, the
// text, and the secret part that must not survive redaction.
type Secret struct {
	Category string // e.g. "github", "private-key", "assignment"
	Where    string // "command", "tool input", "tool output" or "message"
	Text     string // the text the secret is planted in
	Secret   string // the part that must never reach an output
}

// Join concatenates pieces, so that no literal token stands in the source.
func Join(parts ...string) string { return strings.Join(parts, "") }

// Planted returns the corpus: at least 30 fake but well-formed secrets of every category the
// redactor covers, in commands, tool inputs, tool outputs and messages.
func Planted() []Secret {
	jwtHead := Join("ey", "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
	jwtBody := Join("ey", "J", Fake(40, 40, URL64))
	pem := func(kind string, seed int, sep string) string {
		return Join("-----BEGIN ", kind, "PRIVATE KEY-----", sep, Fake(seed, 64, B64), sep, Fake(seed+1, 64, B64), sep, Fake(seed+2, 20, B64), "==", sep, "-----END ", kind, "PRIVATE KEY-----")
	}
	ghp := Join("gh", "p_", Fake(1, 36, Alnum))
	var c []Secret
	add := func(cat, where, text, secret string) { c = append(c, Secret{cat, where, text, secret}) }
	// GitHub
	add("github", "command", "export GITHUB_TOKEN="+ghp+" && gh pr list", ghp)
	add("github", "tool output", "remote: using "+Join("gh", "o_", Fake(2, 36, Alnum))+" for auth", Join("gh", "o_", Fake(2, 36, Alnum)))
	add("github", "message", "The hook saw "+Join("gh", "u_", Fake(3, 36, Alnum))+" in the call.", Join("gh", "u_", Fake(3, 36, Alnum)))
	add("github", "tool input", `{"command":"curl -u x:`+Join("gh", "s_", Fake(4, 36, Alnum))+` https://api.github.com"}`, Join("gh", "s_", Fake(4, 36, Alnum)))
	add("github", "tool output", "refresh="+Join("gh", "r_", Fake(5, 36, Alnum)), Join("gh", "r_", Fake(5, 36, Alnum)))
	add("github", "command", "gh auth login --with-token <<< "+Join("github", "_pat_", Fake(6, 22, Alnum), "_", Fake(7, 59, Alnum)), Join("github", "_pat_", Fake(6, 22, Alnum), "_", Fake(7, 59, Alnum)))
	// GitLab
	add("gitlab", "command", "git push https://oauth2@gitlab.com/x.git -o token="+Join("gl", "pat-", Fake(8, 20, URL64)), Join("gl", "pat-", Fake(8, 20, URL64)))
	// AWS
	add("aws", "command", "AWS_ACCESS_KEY_ID="+Join("AK", "IA", Fake(9, 16, Upnum))+" aws s3 ls", Join("AK", "IA", Fake(9, 16, Upnum)))
	add("aws", "tool output", `{"AccessKeyId": "`+Join("AS", "IA", Fake(10, 16, Upnum))+`"}`, Join("AS", "IA", Fake(10, 16, Upnum)))
	add("aws", "tool input", `{"file_path":"/r/.env","content":"aws_secret_access_key = `+Fake(11, 40, B64)+`\n"}`, Fake(11, 40, B64))
	// Google
	add("google", "message", "Blocked: the call embeds "+Join("AI", "za", Fake(12, 35, URL64))+" in a URL.", Join("AI", "za", Fake(12, 35, URL64)))
	// Slack
	add("slack", "command", "curl -d token="+Join("xo", "xb-", Fake(13, 12, "0123456789"), "-", Fake(14, 24, Alnum))+" https://slack.com/api", Join("xo", "xb-", Fake(13, 12, "0123456789"), "-", Fake(14, 24, Alnum)))
	add("slack", "tool output", "SLACK="+Join("xo", "xp-", Fake(15, 12, "0123456789"), "-", Fake(16, 24, Alnum)), Join("xo", "xp-", Fake(15, 12, "0123456789"), "-", Fake(16, 24, Alnum)))
	// Stripe
	add("stripe", "tool input", `{"command":"stripe charges list --api-key `+Join("sk", "_live_", Fake(17, 24, Alnum))+`"}`, Join("sk", "_live_", Fake(17, 24, Alnum)))
	// OpenAI
	add("openai", "command", "OPENAI_API_KEY="+Join("sk", "-proj-", Fake(18, 48, URL64), "7")+" python run.py", Join("sk", "-proj-", Fake(18, 48, URL64), "7"))
	add("openai", "message", "key "+Join("sk", "-", Fake(19, 40, Alnum), "1")+" was printed", Join("sk", "-", Fake(19, 40, Alnum), "1"))
	// Anthropic
	add("anthropic", "tool output", "using "+Join("sk", "-ant-", "api03-", Fake(20, 93, URL64), "AA"), Join("sk", "-ant-", "api03-", Fake(20, 93, URL64), "AA"))
	// npm, PyPI
	add("npm", "command", "echo //registry.npmjs.org/:_authToken="+Join("np", "m_", Fake(21, 36, Alnum))+" > .npmrc", Join("np", "m_", Fake(21, 36, Alnum)))
	add("pypi", "command", "twine upload -p "+Join("py", "pi-", "AgEIcHlwaS5vcmc", Fake(22, 60, URL64))+" dist/*", Join("py", "pi-", "AgEIcHlwaS5vcmc", Fake(22, 60, URL64)))
	// JWT
	add("jwt", "tool output", "session="+jwtHead+"."+jwtBody+"."+Fake(23, 43, URL64), jwtBody)
	// Private keys: plain, in a JSON string (escaped newlines), and OpenSSH.
	add("private-key", "tool input", pem("RSA ", 24, "\n"), Fake(24, 64, B64))
	add("private-key", "tool input", `{"content":"`+pem("", 27, `\n`)+`"}`, Fake(28, 64, B64))
	add("private-key", "tool output", pem("OPENSSH ", 30, "\n"), Fake(31, 64, B64))
	// URL passwords
	add("url-password", "command", "git clone https://deploy:"+Fake(33, 20, Alnum)+"@git.example.com/r.git", Fake(33, 20, Alnum))
	add("url-password", "message", "DATABASE_URL uses postgres://app:"+Fake(34, 16, Alnum)+"@db:5432/app", Fake(34, 16, Alnum))
	// Authorization / Bearer
	add("authorization", "command", `curl -H "Authorization: Basic `+Fake(35, 28, B64)+`=" https://x`, Fake(35, 28, B64))
	add("authorization", "tool input", `{"headers":{"Authorization":"token `+Fake(36, 40, "0123456789abcdef")+`"}}`, Fake(36, 40, "0123456789abcdef"))
	add("bearer", "message", "the hook found Bearer "+Fake(37, 32, Alnum)+"9 in the request", Fake(37, 32, Alnum)+"9")
	// Names that say secret: env assignments, flags, JSON / YAML keys.
	add("assignment", "command", "export DB_PASSWORD=correct-horse-battery-staple && ./migrate", "correct-horse-battery-staple")
	add("assignment", "tool input", `{"file_path":"/r/config.yaml","content":"smtp:\n  password: Summer2026!xyz\n"}`, "Summer2026!xyz")
	add("assignment", "tool output", `{"api_key": "`+Fake(38, 24, Lowal)+`", "user": "bob"}`, Fake(38, 24, Lowal))
	add("assignment", "message", `client_secret='`+Fake(39, 12, Alnum)+`' was in the command`, Fake(39, 12, Alnum))
	add("assignment", "command", `MYSQL_PWD=tr0ub4dor mysql -u root`, "tr0ub4dor")
	add("flag", "command", "mysql --password hunter2hunter2 -h db", "hunter2hunter2")
	add("flag", "command", `vault login --token="`+Fake(41, 26, Alnum)+`"`, Fake(41, 26, Alnum))
	add("flag", "tool input", `{"command":"deploy --client-secret `+Fake(42, 30, Alnum)+` --env prod"}`, Fake(42, 30, Alnum))
	return c
}
