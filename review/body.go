package review

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
	"github.com/agc-sarif/agc-sarif/redact"
)

// MaxBody is GitHub's limit on a comment's body, in characters; bodies stay under it.
const MaxBody = 65536

// redactedMark starts the placeholder of a redacted secret ("[REDACTED:<rule>]"): a suggestion
// holding one was redacted where the findings were collected, and committing it would put the
// placeholder in the code.
const redactedMark = "[REDACTED:"

// maxMessage caps the gate's message in a comment, in runes.
const maxMessage = 2000

// markerRE finds the hidden marker of a comment agc-sarif made, with its finding's key.
var markerRE = lazyre.New(`<!-- agcFindingKey/v1:([0-9a-f]{64}) -->`)

// keyRE is the form of a finding key.
var keyRE = lazyre.New(`^[0-9a-f]{64}$`)

// Marker is the hidden line that ties a comment to its finding.
func Marker(key string) string { return "<!-- agcFindingKey/v1:" + key + " -->" }

// KeyOf is the finding key of a comment agc-sarif made, or "".
func KeyOf(body string) string {
	if m := markerRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// commentBody is a comment's Markdown: the rule's title, the gate's message, one line of
// provenance, the suggested change when there is one, and the marker. Every text it takes is
// redacted (the items' are already; the file's lines in a suggestion are not), and a suggestion
// that held a secret or would not fit is left out with a sentence saying so.
func commentBody(it Item, sug *Suggestion, red *redact.Redactor) (string, bool) {
	var b strings.Builder
	b.WriteString("**" + escape(red.String(it.Title)) + "**\n\n")
	b.WriteString(escape(red.String(findings.Clip(it.Message, maxMessage))) + "\n\n")
	b.WriteString("<sub>" + escape(red.String(provenance(it))) + "</sub>\n")
	head := b.String()
	tail := "\n" + Marker(it.Key)
	if sug == nil {
		return head + tail, false
	}
	text := red.String(sug.Text)
	switch {
	case text != sug.Text || strings.Contains(text, redactedMark):
		return head + "\nThe suggested change is not shown: it holds text that looks like a secret.\n" + tail, false
	case len(head)+len(tail)+len(text)+64 >= MaxBody:
		return head + "\nThe suggested change is too long for a review comment; the SARIF file holds it as a fix.\n" + tail, false
	}
	return head + "\n" + suggestionBlock(text) + "\n" + tail, true
}

// provenance is the comment's line on who decided and where it was recorded.
func provenance(it Item) string {
	parts := []string{"agc-sarif"}
	if it.Verdict != "" {
		parts = append(parts, "verdict "+it.Verdict)
	}
	if it.Gate != "" {
		parts = append(parts, "gate "+it.Gate)
	}
	if it.Recorded != "" {
		parts = append(parts, "recorded at "+it.Recorded)
	}
	return strings.Join(parts, " · ")
}

// escape makes agent text inert Markdown on one line: whitespace collapsed, Markdown and HTML
// punctuation backslash-escaped (so that no text forges a marker, a link, an image or a heading), and
// mentions broken with a zero-width space (so that no text notifies anyone).
func escape(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i, r := range s {
		switch {
		case strings.ContainsRune("\\`*_[]<>|~&", r), i == 0 && strings.ContainsRune("#-+=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '@':
			b.WriteString("@\u200b")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
