package redact

import (
	"fmt"
	"regexp"
	"strings"
)

// value matches the value of an assignment: double-quoted (also as escaped \"…\" inside JSON
// text), single-quoted, or bare up to a delimiter. Each form has its own group.
const value = `(?:\\"([^"\\\n]{1,300})\\"|"([^"\n]{1,300})"|'([^'\n]{1,300})'|([^\s"'\x60,;<>(){}\[\]\\]{1,300})(?:[\s"'\x60,;<>)}\]\\]|$))`

// ownSpec is one of our own rules before compiling.
type ownSpec struct {
	id       string
	re       string
	keywords []string
	check    func(secret string) bool
}

// ownRules are the rules gitleaks' default set does not cover, or covers only in exact shapes:
// passwords in URLs, assignments, flags and headers by their names, and broader forms of the
// major platforms' tokens.
func ownRules() ([]*rule, error) {
	specs := []ownSpec{
		{"github-token", `\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})`,
			[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, nil},
		{"gitlab-token", `\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent|soat|ffct|wt)-[A-Za-z0-9_-]{20,}`, []string{"gl"}, nil},
		{"aws-access-key", `\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`, []string{"akia", "asia", "abia", "acca", "a3t"}, nil},
		{"aws-secret-key", `(?i)aws[a-z0-9_.-]{0,30}(?:secret|sk)[a-z0-9_.-]{0,30}\\?["']?\s*(?:=|:|=>)\s*\\?["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`,
			[]string{"aws"}, nil},
		{"google-api-key", `\bAIza[0-9A-Za-z_-]{35}`, []string{"aiza"}, nil},
		{"slack-token", `\bxox[abposre]-[A-Za-z0-9-]{10,}`, []string{"xox"}, nil},
		{"slack-webhook", `hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`, []string{"hooks.slack.com"}, nil},
		{"stripe-key", `\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}`, []string{"_live_", "_test_"}, nil},
		{"anthropic-key", `\bsk-ant-[a-z0-9]{2,10}-[A-Za-z0-9_-]{20,}`, []string{"sk-ant-"}, nil},
		{"openai-key", `\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`, []string{"sk-"}, hasDigit},
		{"npm-token", `\bnpm_[A-Za-z0-9]{36}\b`, []string{"npm_"}, nil},
		{"pypi-token", `\bpypi-[A-Za-z0-9_-]{40,}`, []string{"pypi-"}, nil},
		{"huggingface-token", `\bhf_[A-Za-z0-9]{30,}`, []string{"hf_"}, nil},
		{"jwt", `\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, []string{"eyj"}, nil},
		// A JWT whatever white space its header holds ({ "alg" is eyAi…, {\n is ewo…): three
		// base64url parts whose first decodes to a JSON object naming alg or typ.
		{"jwt", `\be[wy][A-Za-z0-9_-]{6,}={0,2}\.e[wy][A-Za-z0-9_-]{6,}={0,2}\.[A-Za-z0-9_-]{8,}`, []string{".ey", ".ew"}, jwtHeader},
		// Without an END line (a key cut short), the body runs on, its armour headers
		// (Proc-Type, DEK-Info) included.
		{"private-key-block", `-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?:(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):[^\n\\]*|[A-Za-z0-9+/=\s\\])+)`,
			[]string{"private key"}, nil},
		// The password may hold an unencoded "@": it runs to the last "@" before the host.
		{"url-password", `\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s/?#@:"'<>]{0,100}:([^\s/?#"'<>]{1,200})@[^\s/?#@"'<>]*`, []string{"://"}, notPlaceholder},
		{"authorization-header", `(?i)\b(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?(?:(?:bearer|basic|token|bot|digest|apikey|negotiate|ntlm|sso-key)\s+)?([^\s"'\\,;]{6,})`,
			[]string{"authorization"}, func(s string) bool { return notPlaceholder(s) && !authSchemes[strings.ToLower(s)] }},
		{"bearer-token", `(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})`, []string{"bearer"}, hasDigit},
		{"secret-flag", `(?i)--[a-z0-9-]*(?:secret|token|password|passwd|pwd|credentials?|api-?key|access-key|private-key|auth)(?:=|\s+)` + value,
			[]string{"--"}, func(s string) bool { return !strings.HasPrefix(s, "-") && notPlaceholder(s) }},
	}
	out := make([]*rule, 0, len(specs))
	for _, s := range specs {
		re, err := regexp.Compile(s.re)
		if err != nil {
			return nil, fmt.Errorf("redact rule %s: %w", s.id, err)
		}
		out = append(out, &rule{id: s.id, src: s.re, re: func() *regexp.Regexp { return re }, keywords: s.keywords, check: s.check, generic: genericOwn[s.id],
			window: s.id == "url-password"})
	}
	words := make([]string, 0, len(nameWords))
	for _, w := range nameWords {
		words = append(words, w.word)
	}
	out = append(out, &rule{id: "secret-assignment", keywords: words, generic: true, scan: scanAssignments, multiLine: true,
		check: func(s string) bool { return len(s) >= 4 && notPlaceholder(s) }})
	out = append(out, &rule{id: "cookie", keywords: []string{"cookie", " -b ", " --cookie "}, generic: true, scan: scanCookies, multiLine: true,
		check: func(string) bool { return true }})
	// Last, so that where it finds what secret-assignment finds, the older name stays on the marker.
	out = append(out, &rule{id: "prose-secret", src: proseSecret, re: lazyRegexp(proseSecret), keywords: proseWords,
		check: secretLooking, generic: true, window: true, follows: proseFollows})
	return out, nil
}

// proseSecret finds a password, token or key given in prose or a loose note: "the password is
// …", "Token: …", "KEY = …", "api key: …", "the secret access key for prod was …", in any case.
// The name may be two words and may be followed by a short "for <something>"; the verb or operator
// comes next, then the value (quoted, or one bare word). secretLooking keeps ordinary prose ("the
// token is expired", "the key is in the drawer") as it is. It is run only on the stretches around
// its keywords, line by line (it names a line break \x0a: a \n would mark it as a rule that
// spans lines), and has no counted repetitions (the check bounds the value's length), which
// would multiply the states the regular expression engine steps through on every byte.
const proseSecret = `(?i)(?:\b|\\[nrt])(?:pass(?:word|wd|phrase|code)?|secret|token|key|credentials?|` +
	`(?:api|access|secret|private|client|auth|master|admin|root|db|database|account|storage|signing|encryption|bot|app)[ \t_.-]?(?:key|secret|token|password|pass)|` +
	`secret[ \t]+access[ \t]+key|access[ \t]+key[ \t]+secret|client[ \t]+secret[ \t]+value)` +
	`(?:[ \t]+(?:for|of|on|to)(?:[ \t]+(?:the|our|my|this|that|your|its))?[ \t]+[\w.@:/-]+(?:[ \t]+[\w.@:/-]+)?)?` +
	`(?:[ \t]+(?:is|was|are|were|reads|becomes|now)(?:[ \t]+now)?(?:[ \t]*[:=])?|[ \t]*(?::=|=>|[:=]))[ \t]*` +
	`(?:\\"([^"\\\x0a]+)\\"|"([^"\x0a]+)"|'([^'\x0a]+)'|\x60([^\x60\x0a]+)\x60|([^\s"'\x60,;<>(){}\[\]\\]+))`

// proseWords are the keywords of proseSecret (the ends of its names, lower case).
var proseWords = []string{"pass", "secret", "token", "key", "credential"}

// proseVerbs are the words of proseSecret that can stand between a name and its value.
var proseVerbs = []string{"is", "was", "are", "were", "reads", "becomes", "now"}

// proseFollows reports whether proseSecret can match after a keyword that ends at j: within 80
// bytes of name characters (a second word of the name, "for the staging db") comes an operator
// (':' or '=') or one of proseVerbs as a word. It keeps the regular expression off the many
// stretches where a keyword is only a word of a sentence or a JSON key.
func proseFollows(s string, j int) bool {
	word := j
	for k := j; k < len(s) && k-j <= 80; k++ {
		c := s[k]
		if c == ':' || c == '=' {
			return true
		}
		if c != ' ' && c != '\t' && c != '@' && c != '/' && !isNameChar(c) {
			return false
		}
		if c == ' ' || c == '\t' {
			for _, v := range proseVerbs {
				if k-word == len(v) && strings.EqualFold(s[word:k], v) {
					return true
				}
			}
			word = k + 1
		}
	}
	return false
}

// secretLooking reports whether a value found after a name in prose looks like a secret rather
// than a word: not a placeholder, a path or a URL, at least 6 characters without the sentence's
// closing mark, and holding a digit, a capital after its first letter or a symbol, or at least 16
// characters.
func secretLooking(s string) bool {
	t := strings.TrimRight(s, ".,!?:)")
	if len(t) < 6 || len(t) > 300 || !notPlaceholder(t) || strings.ContainsAny(t[:1], "/~.") || strings.Contains(t, "://") {
		return false
	}
	if len(t) >= 16 {
		return true
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9', i > 0 && c >= 'A' && c <= 'Z', strings.IndexByte("!#$%&*+=/_~^|@?", c) >= 0:
			return true
		}
	}
	return false
}

// genericOwn are our rules that find secrets by a name or shape rather than a platform format;
// when one overlaps a platform rule, the platform rule names the redaction.
var genericOwn = map[string]bool{"url-password": true, "authorization-header": true, "bearer-token": true,
	"secret-flag": true, "secret-assignment": true, "prose-secret": true}

// authSchemes are the names of HTTP authentication schemes: after "Authorization:", one of them
// followed by a placeholder ("Bearer ${{ secrets.X }}") is not a secret.
var authSchemes = map[string]bool{"bearer": true, "basic": true, "digest": true, "negotiate": true, "token": true}

// hasDigit reports whether s holds a digit; tokens do, words of prose rarely.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// placeholders are values that stand for a secret without being one.
var placeholders = map[string]bool{"true": true, "false": true, "null": true, "none": true, "nil": true,
	"undefined": true, "str": true, "string": true, "int": true, "bool": true, "required": true,
	"optional": true, "redacted": true, "hidden": true, "your_token": true, "your-token": true}

// notPlaceholder reports whether a value found by name is a secret worth hiding: not a variable
// reference ($X, ${X}, %X%, ${{ secrets.X }}), a template, a mask, a short number or a word such
// as "string" or "null", and not already redacted.
func notPlaceholder(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" || strings.HasPrefix(t, "$") || strings.HasPrefix(t, "%") || strings.HasPrefix(t, "{{") ||
		strings.HasPrefix(t, "<") || strings.HasPrefix(t, "[REDACTED") || placeholders[strings.ToLower(t)] {
		return false
	}
	same := true
	for i := 1; i < len(t); i++ {
		if t[i] != t[0] {
			same = false
			break
		}
	}
	if same && len(t) > 1 {
		return false // ****, xxxx
	}
	if len(t) < 8 && strings.Trim(t, "0123456789") == "" {
		return false
	}
	return true
}
