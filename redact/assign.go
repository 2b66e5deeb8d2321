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
	colon := false
	switch {
	case j+1 < n && s[j] == ':' && s[j+1] == '=', j+1 < n && s[j] == '=' && s[j+1] == '>':
		j += 2
	case j < n && (s[j] == '=' || s[j] == ':'):
		if j+1 < n && s[j] == '=' && s[j+1] == '=' {
			return [2]int{}, false // a comparison
		}
		colon = s[j] == ':'
		j++
	default:
		return [2]int{}, false
	}
	for j < n && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if colon {
		if v, ok := nextLineValue(s, j); ok {
			return v, true
		}
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

// nextLineValue reads a YAML value that stands on the line after its key: `password:` then an
// indented scalar, or a block scalar (`password: |`). j is where the value would have begun on
// the key's line. The value must be one word on its line, so that a nested mapping
// (`credentials:` then `user: bob`) is not taken for one.
func nextLineValue(s string, j int) ([2]int, bool) {
	n := len(s)
	if j < n && (s[j] == '|' || s[j] == '>') {
		j++
		for j < n && (s[j] == '-' || s[j] == '+' || s[j] >= '0' && s[j] <= '9' || s[j] == ' ' || s[j] == '\t') {
			j++
		}
	}
	nl := newlineAt(s, j)
	if nl == 0 {
		return [2]int{}, false
	}
	j += nl
	k := j
	for k < n && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == j || k >= n {
		return [2]int{}, false // not indented: the next key, not a value
	}
	end := k
	for end < n && s[end] != '\n' && s[end] != '\r' && s[end] != '\\' && s[end] != '"' {
		end++
	}
	v := strings.TrimRight(s[k:end], " \t")
	if v == "" || len(v) > 300 || strings.ContainsAny(v, " \t") || strings.HasSuffix(v, ":") ||
		strings.HasPrefix(v, "#") || strings.HasPrefix(v, "-") {
		return [2]int{}, false
	}
	if q := v[0]; (q == '"' || q == '\'') && len(v) > 2 && v[len(v)-1] == q {
		return [2]int{k + 1, k + len(v) - 1}, true
	}
	return [2]int{k, k + len(v)}, true
}

// newlineAt is the length of the line break at j: \n or \r\n, or the same escaped as in JSON
// text (behind any number of backslashes, as JSON inside JSON doubles them); 0 when there is
// none.
func newlineAt(s string, j int) int {
	start := j
	if j < len(s) && s[j] == '\r' {
		j++
	}
	if j < len(s) && s[j] == '\n' {
		return j + 1 - start
	}
	j = start
	for range 2 { // \r then \n, or \n alone
		k := j
		for k < len(s) && k-j < 16 && s[k] == '\\' {
			k++
		}
		if k == j || k >= len(s) {
			return 0
		}
		switch s[k] {
		case 'n':
			return k + 1 - start
		case 'r':
			j = k + 1
			continue
		}
		return 0
	}
	return 0
}
