package friction

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/visible"
	"github.com/agc-sarif/agc-sarif/summary"
)

// WriteJSON writes the report as one indented JSON document (the documented shape).
func WriteJSON(w io.Writer, rep Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return fmt.Errorf("could not write the friction report: %w", err)
	}
	return nil
}

// style renders the parts of a report: Markdown escapes agent text and fences code, plain text
// only makes hidden characters visible.
type style struct {
	md bool
}

// text is agent-written text, safe for the style.
func (s style) text(t string) string {
	if s.md {
		return summary.Cell(t)
	}
	return visible.String(strings.ReplaceAll(t, "\n", " "))
}

// Markdown renders the report as a "Friction" section of at most limit bytes (0: no limit):
// patterns that would not fit are left out, with a line saying how many.
func Markdown(rep Report, limit int) string { return render(rep, limit, style{md: true}) }

// Text renders the report as plain text for a terminal: the same content as Markdown, with no
// Markdown escapes or entities.
func Text(rep Report) string { return render(rep, 0, style{}) }

// render writes the report in a style.
func render(rep Report, limit int, s style) string {
	var b strings.Builder
	if s.md {
		b.WriteString("## Friction\n\n")
	} else {
		b.WriteString("Friction\n\n")
	}
	if len(rep.Patterns) == 0 {
		fmt.Fprintf(&b, "No call of the %d read met a guard or a permission prompt.\n", rep.Calls)
		return b.String()
	}
	fmt.Fprintf(&b, "What the guards and permission prompts cost the agent over %s in %s, by what matched them, heaviest first (retries across sessions, then calls; the ladder working last).\n\n",
		plural(rep.Calls, "call"), plural(rep.Sessions, "session"))
	// Each pattern takes a table row (Markdown) and a block; those that do not fit are left out.
	var rows, parts strings.Builder
	left := 0
	for i, p := range rep.Patterns {
		row := ""
		if s.md {
			row = fmt.Sprintf("| %d | %s %s | %s | %d | %d | %s | %d | %s |\n", i+1, p.Kind, s.text(p.Pattern), s.text(p.Commands),
				p.Count, p.Sessions, rungText(p.Rungs), p.Retries, p.Suggest)
		}
		part := s.pattern(i+1, p)
		if limit > 0 && b.Len()+rows.Len()+parts.Len()+len(row)+len(part)+512 > limit {
			left++
			continue
		}
		rows.WriteString(row)
		parts.WriteString(part)
	}
	if rows.Len() > 0 {
		b.WriteString("| # | Matched | Calls ran | Calls | Sessions | Rungs | Retries | Fix |\n|--:|---|---|--:|--:|---|--:|---|\n")
		b.WriteString(rows.String())
		b.WriteString("\n")
	}
	b.WriteString(parts.String())
	if left > 0 {
		fmt.Fprintf(&b, "%d more patterns are left out to keep the summary inside its size; run `agc-sarif friction` for all.\n", left)
	}
	return b.String()
}

// pattern is one pattern's block: what matched, what it cost, the fix and its evidence.
func (s style) pattern(n int, p Pattern) string {
	var b strings.Builder
	item := func(format string, args ...any) {
		if s.md {
			b.WriteString("- ")
		} else {
			b.WriteString("   ")
		}
		fmt.Fprintf(&b, format+"\n", args...)
	}
	if s.md {
		fmt.Fprintf(&b, "### %d. %s: %s %s\n\n", n, p.Suggest, p.Kind, s.text(p.Pattern))
	} else {
		fmt.Fprintf(&b, "%d. %s: %s %s\n", n, p.Suggest, p.Kind, s.text(p.Pattern))
	}
	item("calls: %s (%s), %s in %s: %s; %s over %s", s.text(p.Commands), s.text(p.Tool), plural(p.Count, "call"),
		plural(p.Sessions, "session"), rungText(p.Rungs), plural(p.Retries, "retry"), plural(p.Turns, "turn"))
	item("why: %s", s.text(p.Why))
	if p.Example != nil {
		item("correction: %s → %s, e.g. %s → %s", s.text(orNothing(p.Before)), s.text(orNothing(p.After)),
			s.text(p.Example.Before), s.text(p.Example.After))
	}
	for _, r := range p.Repairs {
		item("repair the gate should send (%s):", s.text(r.Runtime))
		b.WriteString(s.code(r.Answer, "json"))
	}
	switch {
	case p.Allow != "":
		item("allow: add %s to %s", s.quote(p.Allow), p.AllowIn)
	case p.AllowIn != "":
		item("allowlist: %s", p.AllowIn)
	}
	if p.AllowChecked != "" {
		item("checked: %s", s.text(p.AllowChecked))
	}
	for _, a := range p.Asked {
		item("asked because: %s", s.text(a))
	}
	if len(p.Examples) > 0 {
		e := p.Examples[0]
		item("first seen: %s (%s:%d)", s.text(e.Command), s.text(e.Source), e.Line)
	}
	b.WriteString("\n")
	return b.String()
}

// quote shows an entry to paste: as a Markdown code span, or in quotes as plain text.
func (s style) quote(t string) string {
	if !s.md {
		return `"` + visible.String(t) + `"`
	}
	t = visible.String(t)
	if !strings.Contains(t, "`") {
		return "`" + t + "`"
	}
	fence := "`"
	for strings.Contains(t, fence) {
		fence += "`"
	}
	return fence + " " + t + " " + fence
}

// code is a block to paste: a fenced Markdown code block, or indented plain text.
func (s style) code(t, lang string) string {
	t = visible.String(t)
	if !s.md {
		return "     " + t + "\n"
	}
	fence := "```"
	for strings.Contains(t, fence) {
		fence += "`"
	}
	return "\n  " + fence + lang + "\n  " + t + "\n  " + fence + "\n\n"
}

// rungText lists the rungs that fired: "block 3, prompted 1".
func rungText(r Rungs) string {
	var parts []string
	for _, x := range []struct {
		name string
		n    int
	}{{"block", r.Block}, {"steer", r.Steer}, {"repaired", r.Repaired}, {"prompted", r.Prompted}, {"denied", r.Denied}, {"failed open", r.FailedOpen}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.name, x.n))
		}
	}
	return strings.Join(parts, ", ")
}
