package redact

import "strings"

// nameWords are the ends of names that say a value is secret, for the secret-assignment
// scanner; sep says the word counts only after a separator (_ . -) or in camel case.
var nameWords = []struct {
	word string
	sep  bool
}{
	{"secret", false}, {"token", false}, {"password", false}, {"passwd", false},
	{"credentials", false}, {"credential", false}, {"creds", false},
	{"apikey", false}, {"api_key", false}, {"api-key", false}, {"api.key", false},
	{"key", true}, {"pass", true}, {"auth", true}, {"pwd", true},
}

// scanAssignments finds the values of assignments whose name says they are secret —
// `export GITHUB_TOKEN=…`, `password: …`, `"api_key": "…"`, `apiKey := "…"`, `DB_PASS='…'` —
// and returns the spans of the values. It does in one pass what a regular expression with a
// leading name pattern does slowly: it starts from each occurrence of a name word in lower (s
// lower-cased in ASCII), checks the name ends there and an operator follows, and reads the
// value (double-, single- or escaped-double-quoted, or bare up to a delimiter).
func scanAssignments(s, lower string) [][2]int {
	var out [][2]int
	for _, nw := range nameWords {
		for from := 0; ; {
			i := strings.Index(lower[from:], nw.word)
			if i < 0 {
				break
			}
			i += from
			from = i + 1
			if nw.sep && !sepOrCamel(s, i) {
				continue
			}
			if v, ok := valueAfter(s, i+len(nw.word)); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// sepOrCamel reports whether the word at i follows a separator, or starts with a capital after a
// lower-case letter or digit (apiKey, dbPass).
func sepOrCamel(s string, i int) bool {
	if i == 0 {
		return false
	}
	p := s[i-1]
	if p == '_' || p == '.' || p == '-' {
		return true
	}
	return s[i] >= 'A' && s[i] <= 'Z' && (p >= 'a' && p <= 'z' || p >= '0' && p <= '9') &&
		(len(s) <= i+1 || s[i+1] < 'A' || s[i+1] > 'Z')
}

// valueAfter reads `[\]["']? space* operator [ \t]* value` from position j, where the name ended.
func valueAfter(s string, j int) ([2]int, bool) {
	n := len(s)
	if j < n && s[j] == '\\' {
		j++
	}
	if j < n && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	for j < n && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	switch {
	case j+1 < n && s[j] == ':' && s[j+1] == '=', j+1 < n && s[j] == '=' && s[j+1] == '>':
		j += 2
	case j < n && (s[j] == '=' || s[j] == ':'):
		if j+1 < n && s[j] == '=' && s[j+1] == '=' {
			return [2]int{}, false // a comparison
		}
		j++
	default:
		return [2]int{}, false
	}
	for j < n && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= n {
		return [2]int{}, false
	}
	switch {
	case s[j] == '\\' && j+1 < n && s[j+1] == '"':
		return quoted(s, j+2, func(k int) bool { return s[k] == '\\' && k+1 < n && s[k+1] == '"' }, `"\`)
	case s[j] == '"':
		return quoted(s, j+1, func(k int) bool { return s[k] == '"' }, `"`)
	case s[j] == '\'':
		return quoted(s, j+1, func(k int) bool { return s[k] == '\'' }, `'`)
	}
	k := j
	for k < n && k-j <= 300 && !strings.ContainsRune(" \t\r\n\v\f\"'`,;<>(){}[]\\", rune(s[k])) {
		k++
	}
	if k == j || k-j > 300 {
		return [2]int{}, false
	}
	if k < n && !strings.ContainsRune(" \t\r\n\v\f\"'`,;<>)}]\\", rune(s[k])) {
		return [2]int{}, false // followed by "(", "{" or "[": code, not a value
	}
	return [2]int{j, k}, true
}

// quoted reads a quoted value from start up to the closing quote (at most 300 bytes, on one
// line, without the characters in stop before the close).
func quoted(s string, start int, closes func(int) bool, stop string) ([2]int, bool) {
	for k := start; k < len(s) && k-start <= 300; k++ {
		if closes(k) {
			if k == start {
				return [2]int{}, false
			}
			return [2]int{start, k}, true
		}
		if s[k] == '\n' || strings.IndexByte(stop, s[k]) >= 0 {
			return [2]int{}, false
		}
	}
	return [2]int{}, false
}
