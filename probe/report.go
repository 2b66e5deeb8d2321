package probe

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/hookprog"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// AllRows are the rows every probe finding is described by: the contract checks of every
// binding, then probe's own rules.
func AllRows() gates.Rows { return append(runtimes.Checks(), Rows()...) }

// WriteText writes the report for people: one line per finding with its fix, then the table of
// events. esc is applied to every text that came from the guard or its input.
func WriteText(w io.Writer, rep *Report, guard string, esc func(string) string) {
	rows := AllRows()
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "%s: %s: %s: %s [%s] %s\n", guard, f.Level, f.Rule, f.Case.Runtime, esc(f.Case.What()), esc(f.Message))
		fmt.Fprintf(w, "    input: %s\n    guard: %s\n", esc(inputOf(f.Case)), esc(f.Did))
		if row, ok := rows.Lookup(f.Rule); ok {
			fmt.Fprintf(w, "    fix: %s\n", row.Fix)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUNTIME\tEVENT\tINPUT\tEXIT\tDECISION\tTIME\tRUNS")
	for _, r := range rep.Rows {
		exit := fmt.Sprint(r.Run.Exit)
		if r.Run.TimedOut {
			exit = "killed"
		}
		name := r.Case.Name
		if r.Case.Hostile {
			name = "hostile: " + name
		}
		if r.Case.Origin != "" {
			name += " (" + r.Case.Origin + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\n", r.Case.Runtime, esc(r.Case.Event), esc(name), exit,
			AnswerOf(r.Case, r.Run).Decision, r.Worst.Round(time.Millisecond), r.Runs)
	}
	_ = tw.Flush()
	errs := rep.Errors()
	switch {
	case len(rep.Findings) == 0:
		fmt.Fprintf(w, "ok: %d inputs, no findings\n", len(rep.Rows))
	default:
		fmt.Fprintf(w, "%d findings (%d errors) on %d inputs\n", len(rep.Findings), errs, len(rep.Rows))
	}
	if rep.Replayed > 0 {
		fmt.Fprintf(w, "replayed %d recorded calls: %d answer differently\n", rep.Replayed, rep.Changed)
	}
}

// inputOf is the case's input as a finding quotes it: the tool's input of a real call (what
// tells one call from another), else the start of stdin.
func inputOf(c Case) string {
	if c.Closed {
		return "(stdin closed at once)"
	}
	var m map[string]json.RawMessage
	if !c.Hostile && json.Unmarshal(c.Stdin, &m) == nil {
		for _, k := range inputKeys {
			if v, ok := m[k]; ok {
				return Short(v)
			}
		}
	}
	return Short(c.Stdin)
}

// GuardFile is the guard's program file, repo-relative, when it is a file inside root; "" when
// the guard is a command found on the PATH or a file outside the repository.
func GuardFile(root, dir string, argv []string) string {
	word := hookprog.OfArgv(argv).Word
	if word == "" {
		return ""
	}
	for _, v := range agent.ProjectDirVars() {
		word = strings.TrimPrefix(strings.TrimPrefix(word, "$"+v+"/"), "${"+v+"}/")
	}
	p := word
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	} else {
		return ""
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// SARIFOptions are what BuildSARIF needs besides the report.
type SARIFOptions struct {
	Root     string // the repository root (absolute, symlinks resolved)
	Dir      string // the folder the guard's command is relative to
	Argv     []string
	Version  string
	Start    time.Time
	End      time.Time
	Redact   func(string) string
	Notes    []sarif.Notification
	Category string
}

// BuildSARIF turns the report into one SARIF run: each finding on the guard's file when it is in
// the repository, else on the line of the runtime's hook config that runs it (else the
// documented fallback), one result per rule and place with the events as examples.
func BuildSARIF(rep *Report, o SARIFOptions) (*sarif.Log, error) {
	a, err := anchor.New(anchor.Options{Root: o.Root, InputDir: o.Dir})
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	file := GuardFile(o.Root, o.Dir, o.Argv)
	red := o.Redact
	if red == nil {
		red = func(s string) string { return s }
	}
	var fs []findings.Finding
	for _, p := range rep.Findings {
		gate, rule, _ := strings.Cut(p.Rule, "/")
		f := findings.Finding{RuleID: p.Rule, Gate: gate, Rule: rule, Kind: findings.Contract,
			Level: p.Level, Severity: p.Level,
			Message: red(fmt.Sprintf("%s %s: %s Input: %s. Guard: %s.", p.Case.Runtime, p.Case.What(), p.Message, inputOf(p.Case), p.Did)),
			Source:  sourceOf(p.Case),
			Call:    &findings.Call{Runtime: p.Case.Runtime, Event: p.Case.Event, Hook: shellJoin(o.Argv)}}
		if !p.Case.Hostile {
			f.Call.Tool = p.Case.Name
		}
		if file != "" {
			f.Location = &findings.Location{Path: file, StartLine: 1}
		}
		fs = append(fs, a.Anchor(f))
	}
	cat := o.Category
	if cat == "" {
		cat = "agc-probe/"
	}
	return sarif.Build(fs, sarif.Options{
		ToolName: "agc-sarif", ToolVersion: o.Version, InformationURI: "https://github.com/agc-sarif/agc-sarif",
		Category: cat, Root: o.Root, Fallback: findings.Location{Path: "README.md", StartLine: 1},
		Notifications: o.Notes, ExecutionSuccessful: true, Start: o.Start, End: o.End, Checks: AllRows(),
	})
}

// sourceOf is where a finding's input came from: the user's file and line, the built-in event's
// file, or what kind of hostile input it was.
func sourceOf(c Case) findings.Source {
	switch {
	case c.Origin != "":
		file, line, _ := strings.Cut(c.Origin, ":")
		n, _ := strconv.Atoi(line)
		return findings.Source{File: file, Line: max(n, 1)}
	case c.Hostile:
		return findings.Source{File: "hostile input (" + c.Name + ")", Line: 1}
	}
	return findings.Source{File: "probe/events/" + c.Runtime + "/" + c.Event + "." + c.Name + ".json", Line: 1}
}

// shellJoin is argv as one shell line, quoting words that need it, as a hook config spells it.
func shellJoin(argv []string) string {
	var out []string
	for _, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}
