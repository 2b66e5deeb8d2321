package summary

import (
	"fmt"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/plural"
)

// sessionOpen is how many calls the Session section shows before the rest is collapsed.
const sessionOpen = 20

// maxSession bounds the calls the Session section lists at all.
const maxSession = 500

// writeSession writes the Session section: one row per tool call that met a hook, in the order
// the calls happened, with what each hook answered and what the runtime then did; the rows past
// sessionOpen are collapsed. A call is one row however many records and findings tell of it.
func writeSession(b *strings.Builder, calls []findings.SessionCall, dropped, budget int, inSARIF string) {
	if len(calls) == 0 {
		return
	}
	days := map[string]bool{}
	for _, c := range calls {
		if at := at(c); !at.IsZero() {
			days[at.UTC().Format(time.DateOnly)] = true
		}
	}
	total := len(calls) + dropped
	fmt.Fprintf(b, "### Session (%s)\n\n", plural.N(total, "call", "calls"))
	b.WriteString("The agent's tool calls that met a hook, in the order they happened (times UTC): what the hooks answered, " +
		"and what the runtime then did with the call. A call a hook failed open on ran unguarded; calls that passed every gate are not recorded.\n\n")
	const header = "| # | Time | Tool | Command or file | Hooks answered | What the runtime did |\n|--:|---|---|---|---|---|\n"
	b.WriteString(header)
	listed := 0
	for i, c := range calls {
		if i == maxSession {
			break
		}
		if i == sessionOpen {
			more := "calls"
			if len(calls)-i == 1 {
				more = "call"
			}
			fmt.Fprintf(b, "\n<details><summary>%d more %s</summary>\n\n%s", len(calls)-i, more, header)
		}
		what := c.What
		if what == "" {
			what = "—"
		}
		row := fmt.Sprintf("| %d | %s | %s | %s | %s | %s |\n", i+1, clock(at(c), len(days) > 1), Cell(clip(c.Tool, 30)),
			Text(clip(what, 100)), answered(c), didCell(c))
		if b.Len()+len(row) > budget {
			break
		}
		b.WriteString(row)
		listed++
	}
	if listed > sessionOpen {
		b.WriteString("\n</details>\n")
	}
	if n := total - listed; n > 0 {
		fmt.Fprintf(b, "\n… %s more are not listed here; %s.\n", plural.N(n, "call", "calls"), inSARIF)
	}
	b.WriteString("\n")
}

// at is the time of a call, zero when the records gave none.
func at(c findings.SessionCall) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, c.Time)
	return t
}

// clock is the time of a call to the millisecond, with the date when the calls span days.
func clock(at time.Time, withDate bool) string {
	if at.IsZero() {
		return "—"
	}
	if withDate {
		return at.UTC().Format("2006-01-02 15:04:05.000")
	}
	return at.UTC().Format("15:04:05.000")
}

// answered lists each rule that met the call once, with its verdict (or "contract").
func answered(c findings.SessionCall) string {
	var parts []string
	seen := map[string]bool{}
	for _, o := range c.Outcomes {
		col := string(o.Verdict)
		if o.Kind == findings.Contract {
			col = "contract"
		}
		k := col + " " + o.RuleID
		if seen[k] {
			continue
		}
		seen[k] = true
		parts = append(parts, "**"+col+"** "+Text(clip(o.RuleID, 60)))
		if len(parts) == 4 {
			break
		}
	}
	return strings.Join(parts, "; ")
}

// didCell is what the runtime did, bold when the call ran unguarded or a gate's claim was not
// carried out.
func didCell(c findings.SessionCall) string {
	d := c.Did()
	if d == "" {
		return "not recorded"
	}
	d = Text(clip(d, 160))
	if c.Unguarded() || strings.Contains(c.Did(), "not the gate's") {
		return "**" + d + "**"
	}
	return d
}
