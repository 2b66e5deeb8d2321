package review

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
	"github.com/agc-sarif/agc-sarif/internal/textsafe"
	"github.com/agc-sarif/agc-sarif/internal/visible"
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

// markerRE is the hidden marker of a comment agc-sarif made, with its finding's key: the whole
// last line of the body, where commentBody writes it.
var markerRE = lazyre.New(`^<!-- agcFindingKey/v1:([0-9a-f]{64}) -->$`)

// keyRE is the form of a finding key.
var keyRE = lazyre.New(`^[0-9a-f]{64}$`)

// markerLike finds text that could pass for a marker, in any case.
var markerLike = lazyre.New(`(?i)agcFindingKey`)

// Marker is the hidden line that ties a comment to its finding.
func Marker(key string) string { return "<!-- agcFindingKey/v1:" + key + " -->" }

// KeyOf is the finding key of a comment agc-sarif made, or "": read only from the marker on the
// body's last line, where agc-sarif writes it, so that no marker in agent text above it counts.
func KeyOf(body string) string {
	body = strings.TrimRight(body, " \t\r\n")
	last := body[strings.LastIndexByte(body, '\n')+1:]
	if m := markerRE.FindStringSubmatch(strings.TrimSuffix(last, "\r")); m != nil {
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
	b.WriteString("**" + textsafe.Markdown(red.String(it.Title)) + "**\n\n")
	b.WriteString(textsafe.Markdown(red.String(findings.Clip(it.Message, maxMessage))) + "\n\n")
	b.WriteString("<sub>" + textsafe.Markdown(red.String(provenance(it))) + "</sub>\n")
	head := b.String()
	tail := "\n" + Marker(it.Key)
	if sug == nil {
		return head + tail, false
	}
	text := red.String(sug.Text)
	switch {
	case text != sug.Text || strings.Contains(text, redactedMark):
		return head + "\nThe suggested change is not shown: it holds text that looks like a secret.\n" + tail, false
	case markerLike.MatchString(text):
		// A suggestion is applied as written, so it cannot be escaped: one that could pass for
		// the marker is left out (the comment stays a plain one).
		return head + "\nThe suggested change is not shown: it holds text that looks like agc-sarif's comment marker.\n" + tail, false
	case hidden(text):
		return head + "\nThe suggested change is not shown: it holds characters that cannot be seen (controls, bidi or zero-width).\n" + tail, false
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

// hidden reports whether text holds a character that visible.String would escape (a tab is
// code's own): committed, it would read otherwise than it runs.
func hidden(text string) bool {
	return visible.String(strings.ReplaceAll(text, "\t", " ")) != strings.ReplaceAll(text, "\t", " ")
}
