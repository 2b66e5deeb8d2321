package summary

import "strings"

// FrictionShare is the part of Limit kept for the Friction section (`agc-sarif friction`): with
// the section, the rest of the summary is rendered within Limit - FrictionShare.
const FrictionShare = 64 << 10

// AddSection appends a rendered section (Markdown already escaped, such as the Friction section)
// to a rendered summary, never past limit bytes (0 → Limit): a section that does not fit is
// replaced by a one-line note.
func AddSection(md, section string, limit int) string {
	if limit <= 0 {
		limit = Limit
	}
	if section == "" {
		return md
	}
	var b strings.Builder
	b.WriteString(md)
	if !strings.HasSuffix(md, "\n") {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	if b.Len()+len(section) > limit {
		const note = "\n_A section was left out to keep the summary inside GitHub's 1 MiB._\n"
		if b.Len()+len(note) > limit {
			return md
		}
		b.WriteString(note)
		return b.String()
	}
	b.WriteString(section)
	return b.String()
}
