package collect

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/redact"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// maxExamples is how many occurrences a merged finding keeps.
const maxExamples = 5

// preparation is what every finding goes through as it is read (anchoring and redaction), and,
// with the change's diff, the sessions' edits and the events that wait for them (waiting.go).
type preparation struct {
	cfg      Config
	res      *Result
	anc      *anchor.Anchorer
	red      *redact.Redactor
	files    []file
	fallback func() *findings.Location
	calls    *callMemo
}

// newPrepare makes what every finding goes through as it is read: anchoring to a file of the
// checkout at res.Root (with the change's diff when there is one) and redaction of every field
// (anchorRedacted). It runs at read time because the place is part of what merges repeats, so
// that memory follows the distinct results. With the diff, the sessions' edits are read with the
// findings (read).
func newPrepare(cfg Config, res *Result, files []file, red *redact.Redactor) (*preparation, error) {
	calls := &callMemo{red: red, seed: maphash.MakeSeed()}
	anc, err := anchor.New(anchor.Options{
		Root:        res.Root,
		ProjectDirs: projectDirs(cfg),
		Workflow:    cfg.Getenv("GITHUB_WORKFLOW_REF"),
		InputDir:    cfg.Dir,
		Diff:        res.Diff,
		Session:     cfg.SessionAnchor,
		Input:       calls.input, // redacted when anchoring reads it, not for every finding
	})
	if err != nil {
		return nil, fmt.Errorf("repository root %s: %w", res.Root, err)
	}
	return &preparation{cfg: cfg, res: res, anc: anc, red: red, files: files, calls: calls,
		fallback: sync.OnceValue(func() *findings.Location { return anc.Anchor(findings.Finding{}).Location })}, nil
}

// prepare anchors and redacts f as it is read; with w, an event that may go beside its session's
// edit waits in w.
func (p *preparation) prepare(w *waiting) func(findings.Finding) findings.Finding {
	return func(f findings.Finding) findings.Finding {
		return anchorRedacted(p.red, p.anc, f, p.fallback, p.calls, w)
	}
}

// anchorLater anchors and redacts a finding that waited (see waiting.settle).
func (p *preparation) anchorLater(f findings.Finding, hidden bool) findings.Finding {
	return redactAnchored(p.red, p.anc.Anchor(f), hidden, p.fallback, p.calls)
}

// callMemo redacts tool calls once each: the findings of one record (each gate's, each breach)
// share their call, and the records of one call (PreToolUse, PostToolUse) carry the same tool
// input — up to 64 KiB of an edit's text, which redaction decodes, scans and encodes again.
// It is safe for concurrent use and holds a few calls and inputs.
type callMemo struct {
	red    *redact.Redactor
	seed   maphash.Seed
	mu     sync.Mutex
	done   map[*findings.Call]*findings.Call
	inputs map[uint64]redactedInput
}

// redactedInput is a tool input and its redaction.
type redactedInput struct{ raw, redacted []byte }

// callMemoSize bounds the calls and the inputs a callMemo holds (each worker's last few records).
const callMemoSize = 16

// redacted is red.Call(*c) but for its input, computed once per call. With keepInput, the input
// is kept as it is, for anchoring, which redacts it if it reads it (anchor.Options.Input through
// m.input, once per content); without, the call has no input: nothing after anchoring reads it.
func (m *callMemo) redacted(c *findings.Call, keepInput bool) *findings.Call {
	m.mu.Lock()
	r, ok := m.done[c]
	m.mu.Unlock()
	if ok {
		return r
	}
	bare := *c
	bare.Input = nil
	r = m.red.Call(bare)
	if keepInput {
		r.Input = c.Input
	}
	m.mu.Lock()
	if m.done == nil || len(m.done) >= callMemoSize {
		m.done = make(map[*findings.Call]*findings.Call, callMemoSize)
	}
	m.done[c] = r
	m.mu.Unlock()
	return r
}

// input is red.JSON(in), computed once per content.
func (m *callMemo) input(in []byte) []byte {
	if len(in) == 0 {
		return m.red.JSON(in)
	}
	h := maphash.Bytes(m.seed, in)
	m.mu.Lock()
	e, ok := m.inputs[h]
	m.mu.Unlock()
	if ok && bytes.Equal(e.raw, in) {
		return e.redacted
	}
	out := m.red.JSON(in)
	m.mu.Lock()
	if m.inputs == nil || len(m.inputs) >= callMemoSize {
		m.inputs = make(map[uint64]redactedInput, callMemoSize)
	}
	m.inputs[h] = redactedInput{raw: in, redacted: out}
	m.mu.Unlock()
	return out
}

// finish turns the findings read — anchored, redacted, and repeats of one rule at one place
// merged as they were read — into the final findings and the SARIF log: what merging added (the
// files that reported each event) is redacted, and the heaviest come first.
func finish(ctx context.Context, cfg Config, res *Result, start time.Time, red *redact.Redactor) error {
	// In place: the set's findings are handed over to res.Findings (no copy of them is kept).
	fs := res.Set.Findings
	res.Set.Findings = nil
	for i := range fs {
		if i&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		// Every field was redacted as it was read, but Sources names the raw input files that
		// reported the event, gathered while merging: only they are left to redact.
		fs[i].Sources = red.Strings(fs[i].Sources)
	}
	setLevels(cfg.FailOn, cfg.Levels, fs)
	// The level is part of a group's key: groups read apart (a gate's severity error and
	// warning of one rule at one place) can have one output level now, and merge.
	fs = findings.AggregateOver(fs, maxExamples)
	findings.SortHeaviest(fs)
	res.Findings = fs

	// Problems, skip reasons and the names of inputs quote what was read; they reach stderr, the
	// summary and the SARIF, so they are redacted too.
	red.Set(res.Set)
	res.Missing = red.Strings(res.Missing)
	res.Files.Unreadable = red.Strings(res.Files.Unreadable)
	res.Unrecognised, res.Warnings, res.Notices = red.Strings(res.Unrecognised), red.Strings(res.Warnings), red.Strings(res.Notices)

	log, err := sarif.Build(fs, sarif.Options{
		ToolName:            "agc-sarif",
		ToolVersion:         cfg.Version,
		InformationURI:      "https://github.com/agc-sarif/agc-sarif",
		Category:            res.Category,
		Root:                res.Root,
		Fallback:            findings.Location{Path: "README.md", StartLine: 1},
		Notifications:       redactNotifications(red, append(notifications(res), leftOutNote(cfg, res.Set)...)),
		ExecutionSuccessful: true, // an unreadable input is an error notification, not a failed run
		Start:               start,
		End:                 cfg.Now(),
	})
	if err != nil {
		return fmt.Errorf("building SARIF: %w", err)
	}
	res.SARIF = log.Bytes() // the log is not used again: its bytes need no copy
	res.LeftOut = log.LeftOut()
	if l := leftOutLine(cfg, res.Set); l != "" {
		res.LeftOut = append([]string{l}, res.LeftOut...)
	}
	return nil
}

// anchorRedacted anchors f and redacts every field. The paths and the call are redacted before
// anchoring as well: anchoring cleans paths ("https://" becomes "https:/") into forms the
// redactor no longer knows and quotes them in its note, and a path that holds a secret cannot
// be shown, so it cannot be where the finding points either. Such a finding is placed by the
// rest of the anchoring chain, or at line 1 of the fallback file, and says why.
func anchorRedacted(red *redact.Redactor, anc *anchor.Anchorer, f findings.Finding, fallback func() *findings.Location, calls *callMemo, w *waiting) findings.Finding {
	hidden := false
	if f.Location != nil {
		if p := red.String(f.Location.Path); p != f.Location.Path {
			loc := *f.Location
			loc.Path, hidden = p, true
			f.Location = &loc
		}
	}
	if f.Call != nil {
		c := calls.redacted(f.Call, true) // its input is redacted if anchoring reads it
		hidden = hidden || c.FilePath != f.Call.FilePath
		f.Call = c
	}
	f.Source.File = red.String(f.Source.File)
	if w == nil {
		return redactAnchored(red, anc.Anchor(f), hidden, fallback, calls)
	}
	a, ok := anc.AnchorWhileReading(f)
	if !ok {
		return w.hold(a, hidden)
	}
	return redactAnchored(red, a, hidden, fallback, calls)
}

// redactAnchored is the end of anchorRedacted: a is anchored, and hidden says a path it named
// held a secret.
func redactAnchored(red *redact.Redactor, a findings.Finding, hidden bool, fallback func() *findings.Location, calls *callMemo) findings.Finding {
	// red.Finding redacts the call once more: done here through the memo, once per call rather
	// than once per finding. Its input (json:"-", read by anchoring only, which is done) is
	// dropped: it is never shown, and nothing redacted it unless anchoring read it.
	call := a.Call
	a.Call = nil
	g := red.Finding(a)
	if call != nil {
		g.Call = calls.redacted(call, false)
	}
	if a.Location != nil && g.Location.Path != a.Location.Path {
		// The place anchoring chose (a fallback file) has a secret in its own name.
		g.Location, hidden = nil, true
		if fb := fallback(); fb != nil && red.String(fb.Path) == fb.Path {
			g.Location = &findings.Location{Path: fb.Path, StartLine: 1}
		}
	}
	if len(a.Related) > 0 {
		// A related place whose path holds a secret names no file once hidden: it is left out.
		g.Related = g.Related[:0:0]
		for i, l := range a.Related {
			if red.String(l.Path) == l.Path {
				g.Related = append(g.Related, a.Related[i])
			}
		}
	}
	if hidden {
		g.Anchored = strings.TrimSpace("A path the finding names holds a secret, so it is not shown and not used as the location. " + g.Anchored)
	}
	return g
}

// redactNotifications redacts what the notifications quote: messages and input file names.
func redactNotifications(red *redact.Redactor, ns []sarif.Notification) []sarif.Notification {
	for i := range ns {
		ns[i].Message, ns[i].File = red.String(ns[i].Message), red.String(ns[i].File)
	}
	return ns
}

// projectDirs are the folders the agent worked in, besides the root: CLAUDE_PROJECT_DIR and
// GITHUB_WORKSPACE when set, so absolute paths from those machines map back.
func projectDirs(cfg Config) []string {
	var out []string
	for _, k := range []string{"CLAUDE_PROJECT_DIR", "GITHUB_WORKSPACE"} {
		if v := cfg.Getenv(k); v != "" && filepath.IsAbs(v) {
			out = append(out, v)
		}
	}
	return out
}

// notifications names every problem, unreadable input and skip reason for the SARIF
// invocation, so that nothing read is silently dropped.
func notifications(res *Result) []sarif.Notification {
	var ns []sarif.Notification
	for _, m := range res.Missing {
		ns = append(ns, sarif.Notification{Level: "error", Message: m})
	}
	for _, m := range res.Files.Unreadable {
		ns = append(ns, sarif.Notification{Level: "error", Message: m})
	}
	for _, m := range res.Unrecognised {
		ns = append(ns, sarif.Notification{Level: "error", Message: m})
	}
	for _, p := range res.Set.Problems {
		ns = append(ns, sarif.Notification{Level: "warning", Message: p.Message, File: p.Source.File, Line: p.Source.Line})
	}
	for _, r := range res.Set.SkipReasons() {
		ns = append(ns, sarif.Notification{Level: "note", Message: fmt.Sprintf("%s skipped: %s", plural.N(res.Set.Skips[r], "record", "records"), r)})
	}
	if res.Set.Duplicates > 0 {
		ns = append(ns, sarif.Notification{Level: "note", Message: plural.N(res.Set.Duplicates, "finding was the same event as one read from another record, and is kept once",
			"findings were the same event as one read from another record, and are kept once")})
	}
	return ns
}
