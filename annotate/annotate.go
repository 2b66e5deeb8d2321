// Package annotate writes findings as GitHub workflow-command annotations (::error, ::warning,
// ::notice), the heaviest first and at most a few per level, as GitHub shows only about ten of each
// per step.
package annotate

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/findings"
)

// DefaultMax is how many annotations of each level are written unless told otherwise.
const DefaultMax = 10

// maxMessage bounds one annotation's message, in bytes, before escaping.
const maxMessage = 4096

// Options say how many annotations to write and where the rest can be found.
type Options struct {
	// Max is the most annotations written per level (error, warning, notice); 0 means DefaultMax,
	// a negative value writes none.
	Max int
	// SARIFFile names the SARIF file in the closing notice ("" leaves the name out).
	SARIFFile string
}

// Stats counts what Write wrote and left out, per level.
type Stats struct {
	Written map[findings.Level]int
	LeftOut map[findings.Level]int
}

// Write writes annotations for fs to w: per level the heaviest Max findings (by verdict, then
// number of events), then one notice saying how many more the SARIF holds. Messages and titles are
// agent text, so they are only ever passed as arguments (never as a format) and escaped by
// go-githubactions: they cannot start a workflow command of their own.
func Write(w io.Writer, fs []findings.Finding, opts Options) Stats {
	max := opts.Max
	if max == 0 {
		max = DefaultMax
	}
	if max < 0 {
		max = 0
	}
	byLevel := map[findings.Level][]findings.Finding{}
	for _, f := range fs {
		l := f.Level
		if l.Weight() == 0 {
			l = findings.Warning
		}
		byLevel[l] = append(byLevel[l], f)
	}
	st := Stats{Written: map[findings.Level]int{}, LeftOut: map[findings.Level]int{}}
	overflow := len(byLevel[findings.Error]) > max || len(byLevel[findings.Warning]) > max || len(byLevel[findings.Note]) > max
	gha := githubactions.New(githubactions.WithWriter(safeWriter{w}), githubactions.WithGetenv(func(string) string { return "" }))
	for _, l := range []findings.Level{findings.Error, findings.Warning, findings.Note} {
		list := byLevel[l]
		sortHeaviest(list)
		limit := max
		if l == findings.Note && overflow && limit > 0 {
			limit-- // room for the closing notice
		}
		if len(list) > limit {
			st.LeftOut[l] = len(list) - limit
			list = list[:limit]
		}
		for _, f := range list {
			emit(gha, l, f)
			st.Written[l]++
		}
	}
	if n := st.LeftOut[findings.Error] + st.LeftOut[findings.Warning] + st.LeftOut[findings.Note]; n > 0 {
		where := "the SARIF file"
		if opts.SARIFFile != "" {
			where = opts.SARIFFile
		}
		gha.WithFieldsMap(map[string]string{"title": "agc-sarif"}).Noticef("%s",
			fmt.Sprintf("%d more findings are not annotated here (%d errors, %d warnings, %d notes); all of them are in %s and the job summary.",
				n, st.LeftOut[findings.Error], st.LeftOut[findings.Warning], st.LeftOut[findings.Note], where))
	}
	return st
}

// sortHeaviest orders findings heaviest first: verdict weight, then events, then input order.
func sortHeaviest(fs []findings.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if a, b := fs[i].Verdict.Weight(), fs[j].Verdict.Weight(); a != b {
			return a > b
		}
		return fs[i].Count > fs[j].Count
	})
}

// emit writes one annotation.
func emit(gha *githubactions.Action, l findings.Level, f findings.Finding) {
	fields := map[string]string{"title": f.RuleID}
	if f.Target != "" {
		fields["title"] = f.RuleID + " (" + f.Target + ")"
	}
	if loc := f.Location; loc != nil && loc.Path != "" {
		fields["file"] = loc.Path
		if loc.StartLine > 0 {
			fields["line"] = strconv.Itoa(loc.StartLine)
			end := loc.EndLine
			if end < loc.StartLine {
				end = loc.StartLine
			}
			fields["endLine"] = strconv.Itoa(end)
		}
	}
	a := gha.WithFieldsMap(fields)
	msg := Message(f)
	switch l {
	case findings.Error:
		a.Errorf("%s", msg)
	case findings.Warning:
		a.Warningf("%s", msg)
	default:
		a.Noticef("%s", msg)
	}
}

// Message is the text of a finding's annotation: verdict, message, and how often it happened.
func Message(f findings.Finding) string {
	verdict := string(f.Verdict)
	if f.Kind == findings.Contract {
		verdict = "contract"
	}
	msg := f.Message
	if len(msg) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	s := msg
	if verdict != "" {
		s = "AGC " + verdict + ": " + msg
	}
	if f.Count > 1 {
		s += fmt.Sprintf(" (%d times)", f.Count)
	}
	return s
}

// safeWriter drops write errors, so that go-githubactions (which panics when its writer fails)
// cannot crash the run when stdout is closed.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	s.w.Write(p) //nolint:errcheck // annotations are best effort; the SARIF holds everything
	return len(p), nil
}
