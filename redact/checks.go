package redact

import (
	"encoding/base64"
	"strings"
)

// checks are the last tests that a rule of the data files names with check = "…".
var checks = map[string]func(secret string) bool{
	"value": contextValue,
	"word":  func(s string) bool { return contextValue(s) && len(s) >= 4 && !stopWords[strings.ToLower(s)] },
	"path":  func(s string) bool { return contextValue(s) && !strings.ContainsAny(s[:1], "/~.") },
}

// stopWords are words of prose that follow a context's name without being its value
// ("requirepass is set").
var stopWords = map[string]bool{"is": true, "was": true, "are": true, "the": true, "and": true, "for": true,
	"from": true, "with": true, "must": true, "should": true, "will": true, "can": true, "set": true,
	"yes": true, "off": true, "option": true, "directive": true, "setting": true, "value": true,
	"reset": true, "prompt": true, "field": true, "page": true, "manager": true, "policy": true, "change": true,
	"hash": true, "required": true, "expired": true, "login": true, "please": true}

// contextValue reports whether the value found after a secret-bearing context is worth hiding:
// not a placeholder (notPlaceholder), not the next flag, not empty.
func contextValue(s string) bool {
	t := strings.TrimSpace(s)
	return t != "" && t[0] != '-' && notPlaceholder(t)
}

// jwtHeader reports whether the first part of a JWT-shaped token decodes to a JSON object naming
// its algorithm or type, whatever white space its header holds.
func jwtHeader(token string) bool {
	head, _, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	if err != nil {
		return false
	}
	h := strings.TrimLeft(string(b), " \t\r\n")
	return strings.HasPrefix(h, "{") && (strings.Contains(h, `"alg"`) || strings.Contains(h, `"typ"`))
}

// cookieNames are the attributes of a Set-Cookie header, which are not cookies.
var cookieAttrs = map[string]bool{"path": true, "domain": true, "expires": true, "max-age": true, "samesite": true,
	"secure": true, "httponly": true, "priority": true, "partitioned": true, "version": true, "comment": true}

// scanCookies finds the values of cookies: in Cookie: and Set-Cookie: headers (as a header line,
// a curl -H argument or a JSON key) and in curl's -b / --cookie. A value is a secret when it is
// long (16 characters or more, as session ids are) or its cookie's name says it is (session,
// sid, token, auth, jwt, key, secret).
func scanCookies(s, lower string) [][2]int {
	var out [][2]int
	for _, k := range []string{"cookie", " -b ", " --cookie "} {
		for from := 0; ; {
			i := strings.Index(lower[from:], k)
			if i < 0 {
				break
			}
			i += from
			from = i + len(k)
			j := i + len(k)
			if k == "cookie" {
				// the name may end a header (Cookie:, Set-Cookie:) or a JSON key ("cookie": ").
				for j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == '\\') {
					j++
				}
				for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
					j++
				}
				if j >= len(s) || s[j] != ':' && s[j] != '=' || i > 0 && isNameChar(s[i-1]) && s[i-1] != '-' && s[i-1] != ' ' {
					continue
				}
				if s[j] == '=' && i >= 4 && lower[i-4:i] == "set-" {
					continue
				}
				j++
			}
			out = cookieValues(s, j, out)
		}
	}
	return out
}

// cookieValues reads name=value pairs separated by ";" from j to the end of the header (a line
// break, a quote that closes it) and appends the values that are secrets.
func cookieValues(s string, j int, out [][2]int) [][2]int {
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '"' || s[j] == '\'' || s[j] == '\\') {
		j++
	}
	for n := 0; j < len(s) && n < 50; n++ {
		k := j
		for k < len(s) && s[k] != '=' && s[k] != ';' && s[k] != '\n' && s[k] != '\r' && s[k] != '"' && s[k] != '\'' && s[k] != '\\' && s[k] != ' ' {
			k++
		}
		if k >= len(s) || s[k] != '=' {
			return out
		}
		name := strings.ToLower(s[j:k])
		v := k + 1
		e := v
		for e < len(s) && s[e] != ';' && s[e] != '\n' && s[e] != '\r' && s[e] != '"' && s[e] != '\'' && s[e] != '\\' && s[e] != ' ' && s[e] != ',' {
			e++
		}
		val := s[v:e]
		if !cookieAttrs[name] && notPlaceholder(val) && (len(val) >= 16 || secretName(name) && len(val) >= 6) {
			out = append(out, [2]int{v, e})
		}
		j = e
		for j < len(s) && (s[j] == ';' || s[j] == ' ') {
			j++
		}
		if j >= len(s) || s[j] == '\n' || s[j] == '\r' || s[j] == '"' || s[j] == '\'' || s[j] == '\\' {
			return out
		}
	}
	return out
}

// secretName reports whether a cookie's or a variable's name says it holds a secret.
func secretName(name string) bool {
	for _, w := range []string{"sess", "sid", "token", "auth", "jwt", "key", "secret", "pass", "csrf", "xsrf"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// minEntropyRun is the shortest run of token characters the high-entropy fallback looks at.
const minEntropyRun = 32

// scanHighEntropy is the fallback for secrets with no context and no known shape: a run of at
// least 32 token characters ([A-Za-z0-9+/_-], padding '=' after) that reads as random. The test
// is a pure function of the run, so the same value is redacted in every run, and its thresholds
// are far from where random values fall (measured on 200,000 random values of each alphabet at
// the shortest length, none near them):
//   - both cases, at least two of each, and not hexadecimal only (hashes, commit ids, UUIDs are
//     hex and are not secrets here);
//   - not word-like: under 66% of its characters in runs of three or more lower-case letters,
//     under 45% when it holds no digit (identifiers, paths and kebab-case names are words and
//     seldom hold digits; in random text such runs are short and digits are nearly always there);
//   - few separators (/ + - _): at most a fifth of it (paths and dates are cut by them); a run
//     holding a slash and - or _ (both alphabets of base64 at once) is parts joined by slashes,
//     each judged alone, and ids and keys of several parts are left (idOrPath);
//   - Shannon entropy of at least 3.5 bits a character (random values of 32 characters from a
//     62-letter alphabet never fell below 3.8).
func scanHighEntropy(s, _ string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isTokenByte(s[j]) {
			j++
		}
		if j-i >= minEntropyRun && !joinedName(s, i, j) && !idOrPath(s[i:j]) {
			if strings.Contains(s[i:j], "/") && strings.ContainsAny(s[i:j], "-_") {
				// Both alphabets of base64 at once: not base64 but parts joined by slashes (a
				// path, a key of ids); each part is judged alone.
				for k := i; k < j; {
					e := k + strings.IndexByte(s[k:j]+"/", '/')
					if e-k >= minEntropyRun && randomLooking(s[k:e]) {
						out = append(out, [2]int{k, e})
					}
					k = e + 1
				}
			} else if randomLooking(s[i:j]) && !encodedText(s[i:j]) {
				end := j
				for end < len(s) && end-j < 2 && s[end] == '=' {
					end++
				}
				out = append(out, [2]int{i, end})
			}
		}
		i = j
	}
	return out
}

// idPrefixes begin the ids that agent runtimes and model APIs give tool calls, messages and
// requests: random, but not secrets, and findings are keyed by them.
var idPrefixes = []string{"toolu_", "srvtoolu_", "msg_", "req_", "call_", "chatcmpl-", "resp_", "run_", "thread_", "asst_", "file-", "batch_"}

// idOrPath reports whether a run is an id of a known form or a path or key of several parts
// ("claude-code/<session>/<tool use id>/PreToolUse"): two of its parts between slashes are words
// (five or more lower-case letters, with - _ .) or hexadecimal (eight or more hex digits, with -,
// as UUIDs and hashes are). In random base64 a slash is rare and the parts it cuts are seldom
// either (one in a few thousand values has one such part; two, about never).
func idOrPath(run string) bool {
	for _, p := range idPrefixes {
		if strings.HasPrefix(run, p) {
			return true
		}
	}
	if !strings.Contains(run, "/") {
		return false
	}
	marks := 0
	for _, part := range strings.Split(run, "/") {
		word, hex := len(part) >= 5, len(part) >= 8
		letters, digits := 0, 0
		for k := 0; k < len(part); k++ {
			c := part[k]
			switch {
			case c >= 'a' && c <= 'z':
				letters++
				hex = hex && c <= 'f'
			case c == '-' || c == '_' || c == '.':
			case c >= '0' && c <= '9':
				word = false
				digits++
			default:
				word, hex = false, false
			}
		}
		if word && letters >= 5 || hex && digits > 0 {
			marks++
		}
	}
	return marks >= 2
}

// encodedText reports whether a run is base64 of text: encoded text is not random (base64Spans
// looks for secrets inside it).
func encodedText(run string) bool {
	_, ok := decodeBase64(run)
	return ok
}

// isTokenByte reports whether c can be part of a random token (base64 in either alphabet).
func isTokenByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// joinedName reports whether the run s[i:j] is part of a longer name: a dotted name, a domain,
// an e-mail address, a file name with its extension (a dot or @ joins it to a letter or digit).
func joinedName(s string, i, j int) bool {
	if i > 0 && (s[i-1] == '.' || s[i-1] == '@') {
		return true
	}
	return j+1 < len(s) && (s[j] == '.' || s[j] == '@') && isAlnum(s[j+1])
}

func isAlnum(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// randomLooking applies the fallback's tests to a run.
func randomLooking(r string) bool {
	var upper, lower, digits, hex, seps, wordy, lowRun int
	var counts [256]int
	for i := 0; i < len(r); i++ {
		c := r[i]
		counts[c]++
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digits++
		case c == '+' || c == '/' || c == '-' || c == '_':
			seps++
		}
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-' {
			hex++
		}
		if c >= 'a' && c <= 'z' {
			lowRun++
		} else {
			if lowRun >= 3 {
				wordy += lowRun
			}
			lowRun = 0
		}
	}
	if lowRun >= 3 {
		wordy += lowRun
	}
	n := len(r)
	if upper < 2 || lower < 2 || hex == n || wordy*100 >= n*66 || digits == 0 && wordy*100 >= n*45 || seps*5 > n {
		return false
	}
	return entropyCounts(&counts, n) >= 3.5
}
