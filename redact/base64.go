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
		j := i
		for j < len(s) && isBase64Byte(s[j]) {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if j-i >= minBase64 {
			if text, ok := decodeBase64(s[i:j]); ok {
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
