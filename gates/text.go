package gates

import (
	"regexp"
	"strings"
)

// The text form is the one line runtimes show people, and a response may travel only as it:
//
//	AGC <verdict>: <gate>/<rule>[/<target>] — <message>
//
// The separator before the message is an em dash; " - " and " -- " are accepted too. It is read as
// the single finding of a runtime gate's AGC 0.1 response.

var (
	idPattern     = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
	targetPattern = regexp.MustCompile(`^[^\s./]+\.[^\s/]+$`)
)

// maxTextLine is the longest text-form line read; longer lines are not the text form.
const maxTextLine = 64 << 10

// ParseText reads the one-line text form `AGC <verdict>: <gate>/<rule>[/<target>] — <message>`
// (surrounding space ignored) as a runtime gate's response with one finding.
func ParseText(line string) (*Response, bool) {
	line = strings.TrimSpace(line)
	if len(line) > maxTextLine || strings.ContainsAny(line, "\n\r") {
		return nil, false
	}
	rest, ok := strings.CutPrefix(line, "AGC ")
	if !ok {
		return nil, false
	}
	word, rest, ok := strings.Cut(rest, ": ")
	if !ok {
		return nil, false
	}
	v := Verdict(word)
	if !v.Valid() {
		return nil, false
	}
	rest = strings.TrimLeft(rest, " ")
	ident, msg, ok := cutSeparator(rest)
	if !ok {
		return nil, false
	}
	parts := strings.Split(ident, "/")
	if len(parts) < 2 || len(parts) > 3 || !idPattern.MatchString(parts[0]) || !idPattern.MatchString(parts[1]) {
		return nil, false
	}
	f := Finding{Rule: parts[1], Message: msg}
	if len(parts) == 3 {
		if !targetPattern.MatchString(parts[2]) {
			return nil, false
		}
		f.Target = parts[2]
	}
	return &Response{AGC: "0.1", Gate: Gate{ID: parts[0], Kind: Runtime}, Verdict: v, Findings: []Finding{f}}, true
}

// cutSeparator splits "<ident> — <message>" at the first separator after the identity, which holds
// no space. The message must not be empty.
func cutSeparator(s string) (ident, msg string, ok bool) {
	i := strings.IndexAny(s, " \t")
	if i <= 0 {
		return "", "", false
	}
	ident, rest := s[:i], strings.TrimLeft(s[i:], " \t")
	for _, sep := range []string{"—", "--", "-", "–"} {
		if m, found := strings.CutPrefix(rest, sep); found && (m == "" || m[0] == ' ' || m[0] == '\t') {
			msg = strings.TrimSpace(m)
			return ident, msg, msg != ""
		}
	}
	return "", "", false
}

// FindText finds the first text-form line inside s, such as a hook's stderr or additionalContext:
// a line that is the text form, or that ends with it after a prefix ("…hook error: [cmd]: AGC …").
func FindText(s string) (*Response, bool) {
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if r, ok := findInLine(line); ok {
			return r, true
		}
	}
	return nil, false
}

// findInLine tries the text form at every "AGC " in line that starts a word.
func findInLine(line string) (*Response, bool) {
	if len(line) > maxTextLine {
		return nil, false
	}
	for off := 0; ; {
		i := strings.Index(line[off:], "AGC ")
		if i < 0 {
			return nil, false
		}
		at := off + i
		if at == 0 || !isWordByte(line[at-1]) {
			if r, ok := ParseText(line[at:]); ok {
				return r, true
			}
		}
		off = at + len("AGC ")
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
