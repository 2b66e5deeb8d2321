package redact

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// minBase64 is the shortest run of base64 worth decoding: 24 characters are 18 bytes, shorter
// than any token the rules know by shape.
const minBase64 = 24

// base64Spans finds runs of base64 (standard or URL alphabet) in s whose decoded bytes are text
// holding a secret, and returns each whole run as a span: `echo Z2hwX…= | base64 -d` hides a
// token from every pattern.
func (r *Redactor) base64Spans(s string, depth int) []span {
	var out []span
	for i := 0; i < len(s); {
		if !isBase64Byte(s[i]) {
			i++
			continue
		}
		if i > 0 && s[i-1] == '\\' && (s[i] == 'n' || s[i] == 'r' || s[i] == 't') {
			i++ // an escaped line break or tab in JSON text, not the run's first letter
			continue
		}
		j := i
		for j < len(s) && isBase64Byte(s[j]) {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		run := s[i:j]
		if j2, joined, ok := unwrap(s, i, j); ok {
			// Base64 wrapped at a fixed width (76 by MIME and base64(1), 64 by PEM): the lines
			// are one run.
			j, run = j2, joined
			for end = j; end < len(s) && end-j < 2 && s[end] == '='; end++ {
			}
		}
		if len(run) >= minBase64 {
			if text, ok := decodeBase64(run); ok {
				if inner := r.hidden(text, depth+1); len(inner) > 0 {
					out = append(out, span{start: i, end: end, rule: "base64-" + inner[0].rule})
				}
			}
		}
		i = end
		if i == j {
			i = j + 1
		}
	}
	return out
}

// unwrap joins the lines of base64 wrapped at a fixed width that starts with the run s[i:j]:
// while the line is exactly as long as the first (a multiple of 4, from 40 to 100 characters)
// and a line break (or an escaped one, \n in JSON text) is followed by more base64, the next
// line belongs to the same run. It returns the end of the last line and the joined run.
func unwrap(s string, i, j int) (int, string, bool) {
	w := j - i
	if w < 40 || w > 100 || w%4 != 0 {
		return j, "", false
	}
	var b strings.Builder
	b.WriteString(s[i:j])
	lines := 1
	for {
		k := j
		switch {
		case strings.HasPrefix(s[k:], "\r\n"):
			k += 2
		case strings.HasPrefix(s[k:], "\n"):
			k++
		case strings.HasPrefix(s[k:], `\r\n`):
			k += 4
		case strings.HasPrefix(s[k:], `\n`):
			k += 2
		default:
			return j, b.String(), lines > 1
		}
		e := k
		for e < len(s) && e-k <= w && isBase64Byte(s[e]) {
			e++
		}
		if e == k {
			return j, b.String(), lines > 1
		}
		b.WriteString(s[k:e])
		lines++
		j = e
		if e-k != w {
			return j, b.String(), true // the last line, shorter
		}
	}
}

// isBase64Byte reports whether c is in the standard or the URL base64 alphabet.
func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// decodeBase64 decodes a run (without its padding) in whichever alphabet it uses, and returns
// the bytes when they are printable text: random bytes are not worth searching.
func decodeBase64(run string) (string, bool) {
	std, url := strings.ContainsAny(run, "+/"), strings.ContainsAny(run, "-_")
	if std && url {
		return "", false
	}
	if len(run)%4 == 1 {
		run = run[:len(run)-1]
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	b, err := enc.DecodeString(run)
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return "", false
		}
	}
	return string(b), true
}
