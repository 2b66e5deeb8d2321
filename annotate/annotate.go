// Package annotate writes findings as GitHub workflow-command annotations (::error, ::warning,
// ::notice). GitHub shows at most ten annotations of each level per step, so every finding that
// fails the step comes first, as an error, whatever the filters; the rest follow heaviest first.
package annotate

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// DefaultMax is how many annotations of each level are written unless told otherwise.
const DefaultMax = 10

// GitHubLimit is how many annotations of one level GitHub keeps from one step.
const GitHubLimit = 10

// maxMessage bounds one annotation's message, in bytes, before escaping.
const maxMessage = 4096

// Options say which findings to annotate and where the rest can be found.
type Options struct {
	// Max is the most annotations written per level for findings that do not fail the step;
	// 0 means DefaultMax, a negative value writes none of them. GitHubLimit caps it.
	Max int
	// SARIFFile names the SARIF file in the closing notices ("" leaves the name out).
	SARIFFile string
	// Fails picks the findings that decide exit status 1 (collect.Fails): each is an error
	// annotation, whatever Max and Shown say. nil: none.
	Fails func(*findings.Finding) bool
	// Shown picks the other findings that may be annotated (the diff filter). nil: all.
	Shown func(*findings.Finding) bool
	// Partial says the SARIF file does not hold every finding (results were left out to stay
	// inside GitHub's limits): the notices then claim only that it holds the heaviest.
	Partial bool
}

// Stats counts what Write wrote and left out, per level; Failing counts the failing findings.
type Stats struct {
	Written map[findings.Level]int
	LeftOut map[findings.Level]int
	Failing int
}

// Write writes annotations for fs to w, which should be actionslog's Commands writer. First the
// failing findings as errors: all when they fit GitHub's ten, else the nine heaviest and one
// error saying how many more fail and where to see them. Then, per level, the heaviest shown
// findings up to Max within GitHub's ten, and one notice saying how many more the SARIF holds.
// Agent text is only ever a value (never a format), escaped by go-githubactions, with hidden
// characters made visible: it cannot start a workflow command of its own.
func Write(w io.Writer, fs []findings.Finding, opts Options) Stats {
	gha := githubactions.New(githubactions.WithWriter(safeWriter{w}), githubactions.WithGetenv(func(string) string { return "" }))
	failing, rest := split(fs, opts)
	st := Stats{Written: map[findings.Level]int{}, LeftOut: map[findings.Level]int{}, Failing: len(failing)}
	findings.SortHeaviest(failing)
	if len(failing) > GitHubLimit {
		for _, f := range failing[:GitHubLimit-1] {
			emit(gha, findings.Error, f, true)
		}
		more := len(failing) - (GitHubLimit - 1)
		gha.WithFieldsMap(map[string]string{"title": "agc-sarif: " + strconv.Itoa(more) + " more findings fail this step"}).Errorf("%s",
			fmt.Sprintf("%d more findings fail this step and are not annotated here (GitHub keeps %d errors per step); "+
				"the job summary lists them under \"Why this step failed\", heaviest first, and %s.", more, GitHubLimit, holds(opts)))
		st.Written[findings.Error] = GitHubLimit
	} else {
		for _, f := range failing {
			emit(gha, findings.Error, f, true)
		}
		st.Written[findings.Error] = len(failing)
	}
	writeRest(gha, rest, opts, &st)
	return st
}

// split separates the failing findings from the shown rest.
func split(fs []findings.Finding, opts Options) (failing, rest []findings.Finding) {
	for i := range fs {
		f := &fs[i]
		switch {
		case opts.Fails != nil && opts.Fails(f):
			failing = append(failing, *f)
		case opts.Shown == nil || opts.Shown(f):
			rest = append(rest, *f)
		}
	}
	return failing, rest
}

// writeRest annotates the findings that do not fail the step, per level, within the room left.
func writeRest(gha *githubactions.Action, rest []findings.Finding, opts Options, st *Stats) {
	limit := opts.Max
	if limit == 0 {
		limit = DefaultMax
	}
	limit = min(max(limit, 0), GitHubLimit)
	byLevel := map[findings.Level][]findings.Finding{}
	for _, f := range rest {
		l := f.Level
		if l.Weight() == 0 {
			l = findings.Warning
		}
		byLevel[l] = append(byLevel[l], f)
	}
	room := map[findings.Level]int{
		findings.Error:   min(limit, GitHubLimit-st.Written[findings.Error]),
		findings.Warning: limit,
		findings.Note:    limit,
	}
	overflow := false
	for l, list := range byLevel {
		overflow = overflow || len(list) > room[l]
	}
	if overflow && room[findings.Note] > 0 && room[findings.Note] == GitHubLimit {
		room[findings.Note]-- // room for the closing notice
	}
	for _, l := range []findings.Level{findings.Error, findings.Warning, findings.Note} {
		list := byLevel[l]
		findings.SortHeaviest(list)
		if n := room[l]; len(list) > n {
			st.LeftOut[l] = len(list) - n
			list = list[:n]
		}
		for _, f := range list {
			emit(gha, l, f, false)
			st.Written[l]++
		}
	}
	if n := st.LeftOut[findings.Error] + st.LeftOut[findings.Warning] + st.LeftOut[findings.Note]; n > 0 {
		gha.WithFieldsMap(map[string]string{"title": "agc-sarif"}).Noticef("%s",
			fmt.Sprintf("%s not annotated here (%s, %s, %s); %s.",
				plural.N(n, "more finding is", "more findings are"), plural.N(st.LeftOut[findings.Error], "error", "errors"),
				plural.N(st.LeftOut[findings.Warning], "warning", "warnings"), plural.N(st.LeftOut[findings.Note], "note", "notes"), holds(opts)))
	}
}

// holds says what the SARIF file holds: every finding, or, when results were left out of it,
// the heaviest.
func holds(opts Options) string {
	if opts.Partial {
		return where(opts) + " holds the heaviest of them (some results were left out to stay inside GitHub's limits)"
	}
	return where(opts) + " holds every one of them"
}

func where(opts Options) string {
	if opts.SARIFFile != "" {
		return visible.String(opts.SARIFFile)
	}
	return "the SARIF file"
}

// emit writes one annotation; failing ones say so in their title.
func emit(gha *githubactions.Action, l findings.Level, f findings.Finding, failing bool) {
	fields := map[string]string{"title": Title(f, failing)}
	if loc := f.Location; loc != nil && loc.Path != "" {
		fields["file"] = visible.String(loc.Path)
		if loc.StartLine > 0 {
			fields["line"] = strconv.Itoa(loc.StartLine)
			fields["endLine"] = strconv.Itoa(max(loc.EndLine, loc.StartLine))
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

// Title is an annotation's title: the rule and target, marked when the finding fails the step.
func Title(f findings.Finding, failing bool) string {
	t := f.RuleID
	if f.Target != "" {
		t += " (" + f.Target + ")"
	}
	if failing {
		t = "Fails this step: " + t
	}
	return visible.String(t)
}

// Message is the text of a finding's annotation: findings.AlertText, the one text of a finding
// that SARIF and the summary show too (verdict, gate, what the agent did, count), bounded and
// with hidden characters made visible.
func Message(f findings.Finding) string {
	msg := findings.AlertText(&f)
	if len(msg) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return visible.String(msg)
}

// Line is a finding that fails the step on one line of text, "file:line: rule: message", where
// file, line and message are those of its annotation (Message), so that a log read without the
// annotations says the same. A finding placed nowhere is named by its input's file and line.
func Line(f findings.Finding) string {
	where := f.Source.File
	line := f.Source.Line
	if loc := f.Location; loc != nil && loc.Path != "" {
		where, line = loc.Path, loc.StartLine
	}
	if line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	msg := strings.Join(strings.Fields(Message(f)), " ") // one line: the annotation's text, its breaks as spaces
	return visible.String(where) + ": " + Title(f, false) + ": " + msg
}

// safeWriter drops write errors, so that go-githubactions (which panics when its writer fails)
// cannot crash the run when stdout is closed.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	s.w.Write(p) //nolint:errcheck // annotations are best effort; the SARIF holds everything
	return len(p), nil
}
