package gates

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// The text form is the one line runtimes show people, and a response may travel only as it:
//
//	AGC <verdict>: <gate>/<rule>[/<target>] — <message>
//
// The separator before the message is an em dash; " - " and " -- " are accepted too. It is read as
// the single finding of a runtime gate's AGC 0.1 response.

var (
	idPattern     = lazyre.New(`^[a-z0-9][a-z0-9._-]*$`)
	targetPattern = lazyre.New(`^[^\s./]+\.[^\s/]+$`)
)

// maxTextLine is the longest text-form line read; longer lines are not the text form.
const maxTextLine = 64 << 10

// maxIdent bounds the <gate>/<rule>/<target> part, so that looking for the text form at many
// places of a long line stays linear.
const maxIdent = 1024

// ParseText reads the one-line text form `AGC <verdict>: <gate>/<rule>[/<target>] — <message>`
// (surrounding space ignored) as a runtime gate's response with one finding.
func ParseText(line string) (*Response, bool) {
	line = strings.TrimSpace(line)
	if len(line) > maxTextLine || strings.ContainsAny(line, "\n\r") {
		return nil, false
	}
	return parseText(line)
}

// parseText reads the text form at the start of s, a line without line breaks and without
// trailing space; the message runs to its end. Its cost does not grow with the message.
func parseText(s string) (*Response, bool) {
	rest, ok := strings.CutPrefix(s, "AGC ")
	if !ok {
		return nil, false
	}
	colon := strings.IndexByte(rest[:min(len(rest), len("repaired")+1)], ':')
	if colon < 0 || !Verdict(rest[:colon]).Valid() || !strings.HasPrefix(rest[colon+1:], " ") {
		return nil, false
	}
	v := Verdict(rest[:colon])
	rest = strings.TrimLeft(rest[colon+1:], " ")
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
// no space and is at most maxIdent bytes long. The message must not be empty.
func cutSeparator(s string) (ident, msg string, ok bool) {
	i := strings.IndexAny(s[:min(len(s), maxIdent+1)], " \t")
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
	line = strings.TrimRight(line, " \t\r")
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
			if r, ok := parseText(line[at:]); ok {
				return r, true
			}
		}
		off = at + len("AGC ")
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
