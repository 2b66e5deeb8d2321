package gates

// The patterns of the AGC 0.1 schema that the fast path (fastdecode.go) checks by hand, as the
// validator's regexps match them. The JSON itself is read by jsonscan.Reader.

// isAGCVersion matches the schema's pattern for agc: ^0\.[0-9]+$
func isAGCVersion(s string) bool {
	return len(s) > 2 && s[0] == '0' && s[1] == '.' && allDigits(s[2:])
}

// isID matches the schema's id pattern: ^[a-z0-9][a-z0-9._-]*$
func isID(s string) bool {
	if s == "" || s[0] == '.' || s[0] == '_' || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isTarget matches the schema's Tool.field pattern: ^[^\s./]+\.[^\s/]+$ (\s is [\t\n\f\r ]
// in Go's regexp syntax, which the validator uses).
func isTarget(s string) bool {
	dot := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\t', '\n', '\f', '\r', ' ', '/':
			return false
		case '.':
			if dot < 0 {
				dot = i
			}
		}
	}
	return dot > 0 && dot < len(s)-1
}

// isRFC3339 matches the schema's pattern for at:
// ^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$
func isRFC3339(s string) bool {
	const head = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(head)+1 || !matchShape(s[:len(head)], head) {
		return false
	}
	s = s[len(head):]
	if s[0] == '.' {
		n := 1
		for n < len(s) && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		s = s[n:]
	}
	return s == "Z" || s == "z" || len(s) == 6 && (s[0] == '+' || s[0] == '-') && matchShape(s[1:], "dd:dd")
}

// matchShape matches s against shape, where d is a digit, T is one of "Tt " and any other byte
// stands for itself.
func matchShape(s, shape string) bool {
	if len(s) != len(shape) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case 'T':
			if c != 'T' && c != 't' && c != ' ' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}

// allDigits reports whether s is only ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
