package summary

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/plural"
)

// sessionOpen is how many calls the Session section shows before the rest is collapsed.
const sessionOpen = 20

// maxSession bounds the calls the Session section lists at all.
const maxSession = 500

// event is one tool call that met a gate, placed in time.
type event struct {
	f  findings.Finding
	at time.Time // zero when the records gave no time
}

// timeline is the findings about a tool call, in the order the calls happened: by time, then,
// for calls without one, by where they were recorded.
func timeline(fs []findings.Finding) []event {
	var evs []event
	for _, f := range fs {
		if f.Call == nil || (f.Call.Tool == "" && f.Call.Command == "" && f.Call.FilePath == "") {
			continue
		}
		t := f.FirstTime
		if t == "" {
			t = f.Time
		}
		at, _ := time.Parse(time.RFC3339Nano, t)
		evs = append(evs, event{f: f, at: at})
	}
	sort.SliceStable(evs, func(i, j int) bool {
		a, b := evs[i], evs[j]
		if a.at.IsZero() != b.at.IsZero() {
			return !a.at.IsZero()
		}
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		if a.f.Source.File != b.f.Source.File {
			return a.f.Source.File < b.f.Source.File
		}
		return a.f.Source.Line < b.f.Source.Line
	})
	return evs
}

// writeSession writes the Session section: the agent's tool calls that met a gate, in order, with
// what followed each; the rows past sessionOpen are collapsed, and inSARIF says where the calls
// not listed are.
func writeSession(b *strings.Builder, fs []findings.Finding, budget int, inSARIF string) {
	evs := timeline(fs)
	if len(evs) == 0 {
		return
	}
	days := map[string]bool{}
	for _, e := range evs {
		if !e.at.IsZero() {
			days[e.at.UTC().Format(time.DateOnly)] = true
		}
	}
	fmt.Fprintf(b, "### Session (%s)\n\n", plural.N(len(evs), "call", "calls"))
	b.WriteString("The agent's tool calls that met a gate, in the order they happened (times UTC). " +
		"Then: what followed: the call as the gate rewrote it, or the same session's next call that met a gate " +
		"(calls that passed every gate are not recorded).\n\n")
	const header = "| # | Time | Tool | Command or file | Verdict | Then |\n|--:|---|---|---|---|---|\n"
	b.WriteString(header)
	listed := 0
	for i, e := range evs {
		if i == maxSession {
			break
		}
		if i == sessionOpen {
			more := "calls"
			if len(evs)-i == 1 {
				more = "call"
			}
			fmt.Fprintf(b, "\n<details><summary>%d more %s</summary>\n\n%s", len(evs)-i, more, header)
		}
		row := fmt.Sprintf("| %d | %s | %s | %s | %s | %s |\n", i+1, clock(e, len(days) > 1), Cell(clip(e.f.Call.Tool, 30)),
			Text(clip(callWhat(e.f.Call), 100)), verdictCell(e.f), Text(clip(then(evs, i), 120)))
		if b.Len()+len(row) > budget {
			break
		}
		b.WriteString(row)
		listed++
	}
	if listed > sessionOpen {
		b.WriteString("\n</details>\n")
	}
	if n := len(evs) - listed; n > 0 {
		fmt.Fprintf(b, "\n… %s more are not listed here; %s.\n", plural.N(n, "call", "calls"), inSARIF)
	}
	b.WriteString("\n")
}

// clock is the time of an event to the millisecond, with the date when the calls span days.
func clock(e event, withDate bool) string {
	if e.at.IsZero() {
		return "—"
	}
	if withDate {
		return e.at.UTC().Format("2006-01-02 15:04:05.000")
	}
	return e.at.UTC().Format("15:04:05.000")
}

func callWhat(c *findings.Call) string {
	switch {
	case c.Command != "":
		return c.Command
	case c.FilePath != "":
		return c.FilePath
	}
	return "—"
}

// verdictCell is the verdict and the gate's rule, with the number of events when repeats merged.
func verdictCell(f findings.Finding) string {
	s := "**" + column(f) + "** " + Text(clip(ruleName(f), 60))
	if c := count(f); c > 1 {
		s += fmt.Sprintf(" ×%d", c)
	}
	return s
}

// then says what followed event i: a repair's rewritten call, else the same session's next call
// that met a gate, else that none did.
func then(evs []event, i int) string {
	f := evs[i].f
	if f.Verdict == gates.Repaired && f.Repair != nil {
		return "ran as rewritten: " + orEmpty(findings.Clip(f.Repair.After, 100))
	}
	for _, n := range evs[i+1:] {
		if n.f.Call.SessionID != f.Call.SessionID {
			continue
		}
		if n.f.Call.ToolUseID != "" && n.f.Call.ToolUseID == f.Call.ToolUseID {
			continue // the same call, met by another gate
		}
		s := "next: " + n.f.Call.Tool + " " + findings.Clip(callWhat(n.f.Call), 60) + " (" + column(n.f) + ")"
		if !n.at.IsZero() && !evs[i].at.IsZero() {
			s = fmt.Sprintf("after %s, %s", n.at.Sub(evs[i].at).Round(time.Millisecond), s)
		}
		return s
	}
	return "no later call met a gate"
}
