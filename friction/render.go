package friction

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

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

// moves explains each suggested move in one line of the Markdown.
var moves = map[string]string{
	SuggestRewrite:   "rewrite: the hook can run the agent's correction (exit 0, updatedInput)",
	SuggestSteer:     "steer: the corrections varied; say what to do instead (additionalContext)",
	SuggestAllowlist: "allowlist: read-only; add the entry to permissions.allow in .claude/settings.json",
	SuggestGuardRule: "guard rule: not read-only; let a guard decide it instead of a person",
	SuggestFixHook:   "fix the hook: it failed open and the call ran unguarded",
	SuggestNone:      "none: the ladder working",
}

// Markdown renders the report as a "Friction" section of at most limit bytes (0: no limit):
// rows that would not fit are left out, with a line saying how many.
func Markdown(rep Report, limit int) string {
	var b strings.Builder
	b.WriteString("## Friction\n\n")
	if len(rep.Patterns)+len(rep.Once) == 0 {
		fmt.Fprintf(&b, "No call of the %d read met a guard or a permission prompt.\n", rep.Calls)
		return b.String()
	}
	fmt.Fprintf(&b, "What the guards and permission prompts cost the agent over %d calls, by pattern, heaviest first (retries, then calls).\n\n", rep.Calls)
	budget := func(extra int) bool { return limit <= 0 || b.Len()+extra+256 <= limit }
	left := 0
	const header = "| Pattern | Tool | Calls | Rungs | Retries | Turns | Suggested move | Evidence |\n|---|---|--:|---|--:|--:|---|---|\n"
	rows := 0
	for _, p := range rep.Patterns {
		row := patternRow(p)
		if rows == 0 {
			row = header + row // no header without a row: never an empty table
		}
		if !budget(len(row)) {
			left++
			continue
		}
		b.WriteString(row)
		rows++
	}
	if len(rep.Once) > 0 {
		b.WriteString("\n**Seen once**\n\n")
		for _, p := range rep.Once {
			item := fmt.Sprintf("- %s (%s): %s; %s\n", summary.Cell(p.Pattern), summary.Cell(p.Tool), rungText(p.Rungs), moveName(p.Suggest))
			if !budget(len(item)) {
				left++
				continue
			}
			b.WriteString(item)
		}
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n%d more patterns are left out to keep the summary inside its size; run `agc-sarif friction` for all.\n", left)
	}
	return b.String()
}

// patternRow is one table row.
func patternRow(p Pattern) string {
	return fmt.Sprintf("| %s | %s | %d | %s | %d | %d | %s | %s |\n", summary.Cell(p.Pattern), summary.Cell(p.Tool),
		p.Count, rungText(p.Rungs), p.Retries, p.Turns, summary.Cell(moves[p.Suggest]), evidence(p))
}

// evidence is what backs the move: before → after, the allow entry, and an example.
func evidence(p Pattern) string {
	var parts []string
	if p.Before != "" || p.After != "" {
		parts = append(parts, summary.Cell(p.Before)+" → "+summary.Cell(p.After))
	}
	if p.Allow != "" {
		parts = append(parts, "allow "+summary.Cell(p.Allow))
	}
	if len(p.Examples) > 0 {
		e := p.Examples[0]
		parts = append(parts, fmt.Sprintf("e.g. %s (%s:%d)", summary.Cell(e.Command), summary.Cell(e.Source), e.Line))
	}
	return strings.Join(parts, "; ")
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

// moveName is a move's short name for the list of patterns seen once.
func moveName(s string) string {
	name, _, _ := strings.Cut(moves[s], ":")
	return name
}
