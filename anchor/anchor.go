// Package anchor gives every finding a place in the repository: its own location made
// repo-relative, else the file its tool call touched (at the lines where the edit now stands),
// else, when the change's diff is known, beside the nearest edit its session made that stands in
// the diff (with the hook's line kept as a related location), else the line of
// .claude/settings.json that configures the hook, else a documented fallback file. It maps absolute, worktree and Windows-style paths back to repo-relative ones and never
// lets a path leave the repository.
package anchor

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// Options configure an Anchorer.
type Options struct {
	Root        string   // repository root (absolute, symlinks resolved)
	ProjectDirs []string // other roots the agent used: CLAUDE_PROJECT_DIR, record cwds (absolute)
	Fallback    string   // repo-relative fallback file; "" → the documented chain
	// RootGuessed says Root is a working folder in no repository: findings the fallback chain
	// finds no file for stand on no file, rather than on a README.md that is not there.
	RootGuessed bool
	// Workflow is the running workflow file, repo-relative (".github/workflows/ci.yml") or as
	// GITHUB_WORKFLOW_REF gives it ("owner/repo/.github/workflows/ci.yml@refs/heads/main").
	Workflow string
	// InputDir is the folder input file names (Finding.Source.File) are relative to: the working
	// folder of the run. A finding read from a file inside the repository (a reviewer's message, an
	// AGC file) can be anchored at the line it was read from.
	InputDir string
	// Diff is the change's diff (a pull request's, or against --base); nil without a base. With
	// it and Session "edit", events that touched no file are anchored beside their session's
	// edits (see AddEdit).
	Diff    *difffilter.Diff
	Session SessionMode // "" → SessionEdit
	// Input, when set, is applied to a call's input before anchoring reads it (collect redacts
	// it): only the findings whose call touched a file need their input read.
	Input func([]byte) []byte
	// Inputs are the input files read (absolute, or relative to InputDir): the last fallback
	// when the repository holds no file of the fallback chain.
	Inputs []string
}

// Anchorer anchors findings in one repository. It is safe for concurrent use.
type Anchorer struct {
	root     string   // resolved root
	inputDir string   // folder that input file names are relative to
	inputs   []string // Options.Inputs
	exact    []string // roots that map exactly: the root as given and resolved, git work trees
	guess    []string // other roots the agent used
	settings []*settings
	fallback []string // fallback files, in order, before the "any tracked file" step
	// rootGuessed is Options.RootGuessed.
	rootGuessed bool
	mu          sync.Mutex
	files       map[string]*file
	found       map[string][2]int  // rel NUL text → lines where the text stands ({0,0}: not found)
	resolved    map[string]string  // rel → resolved rel ("" when refused)
	dirs        map[string]realDir // absolute folder → what resolving found there (under mu)
	tracked     *string            // first tracked file, once looked up ("" when none)
	diff        *difffilter.Diff   // the change's diff; nil without a base
	mode        SessionMode
	input       func([]byte) []byte // Options.Input
	edits       sessionEdits        // where each session's edits stand in the diff
	countBuf    []byte              // the buffer files are counted through (under mu)

	// trackedFiles are the files git tracks at the root, listed the first time a place is
	// checked; nil when the root is not a git repository.
	trackedFiles func() map[string]struct{}

	// fallbackRel is FallbackFile's answer, looked up the first time a finding needs it: it
	// cannot change during a run, and looking it up again cost every finding placed there.
	fallbackRel func() string
}

// New prepares an Anchorer: it resolves the root, reads the repository's git work trees and its
// .claude/settings.json and settings.local.json once. File contents are read lazily.
func New(opts Options) (*Anchorer, error) {
	if opts.Root == "" {
		return nil, fmt.Errorf("anchor: no repository root")
	}
	abs, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("anchor: root %s: %w", opts.Root, err)
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("anchor: root %s: %w", opts.Root, err)
	}
	mode, err := ParseSessionMode(string(opts.Session))
	if err != nil {
		return nil, fmt.Errorf("anchor: %w", err)
	}
	a := &Anchorer{root: root, inputDir: opts.InputDir, inputs: opts.Inputs, files: map[string]*file{}, found: map[string][2]int{}, resolved: map[string]string{}, dirs: map[string]realDir{},
		diff: opts.Diff, mode: mode, input: opts.Input, rootGuessed: opts.RootGuessed}
	exact := []string{filepath.ToSlash(root), filepath.ToSlash(abs)}
	for _, w := range worktreeRoots(root) {
		exact = append(exact, filepath.ToSlash(w))
		if r, err := filepath.EvalSymlinks(w); err == nil {
			exact = append(exact, filepath.ToSlash(r))
		}
	}
	a.trackedFiles = sync.OnceValue(func() map[string]struct{} { return gitTracked(root) })
	a.exact = uniqueLongestFirst(exact)
	for _, d := range opts.ProjectDirs {
		if d = slash(strings.TrimSpace(d)); isAbs(d) {
			a.guess = append(a.guess, cleanAbs(d))
		}
	}
	a.guess = uniqueLongestFirst(a.guess)
	read := map[string]bool{}
	for _, cf := range settingsFiles() {
		for _, rel := range a.expandConfig(cf.pattern) {
			// A settings file that is a link inside the repository is named by its target, the
			// path code scanning shows (and read once); one that leads out of it is not read.
			if r, ok := a.resolve(rel); ok && !read[r] {
				read[r] = true
				if f := a.read(r); f.hasText {
					a.settings = append(a.settings, parseSettings(r, cf.runtime, f.text))
				}
			}
		}
	}
	if fb := strings.TrimSpace(opts.Fallback); fb != "" {
		a.fallback = append(a.fallback, fb)
	}
	a.fallback = append(a.fallback, runtimes.Default().ConfigFiles()[0])
	if wf := workflowFile(opts.Workflow); wf != "" {
		a.fallback = append(a.fallback, wf)
	}
	a.fallback = append(a.fallback, "README.md")
	a.fallbackRel = sync.OnceValue(a.lookupFallback)
	return a, nil
}

// uniqueLongestFirst drops duplicates and empty roots and sorts the rest longest first.
func uniqueLongestFirst(roots []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range roots {
		if r == "" || seen[r] {
			continue
		}
		seen[r] = true
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// workflowFile reads the running workflow's path from a repo-relative path or a
// GITHUB_WORKFLOW_REF value ("owner/repo/.github/workflows/ci.yml@refs/…").
func workflowFile(w string) string {
	w = strings.TrimSpace(w)
	if i := strings.LastIndex(w, "@"); i >= 0 {
		w = w[:i]
	}
	if i := strings.Index(w, ".github/workflows/"); i >= 0 {
		return w[i:]
	}
	return ""
}

// Anchor returns f with a repo-relative Location of an existing file, clamped to its lines, by
// the chain in the package comment. Anchored says why the place is not where the event happened;
// a path that was refused is kept in the message.
func (a *Anchorer) Anchor(f findings.Finding) findings.Finding {
	cwd := ""
	if f.Call != nil {
		cwd = f.Call.Cwd
	}
	var why []string // why earlier steps of the chain did not give the place
	if f.Location != nil && strings.TrimSpace(f.Location.Path) != "" {
		if rel, ok := a.inRepo(&f, f.Location.Path, cwd, "location", "its own location", &why); ok {
			loc := *f.Location
			loc.Path = rel
			a.clamp(&loc)
			f.Location = &loc
			f.Anchored = ""
			return f
		}
	}
	// A judgment read from a run's records carries the run (runtime, session) but no tool call:
	// it touched nothing, and "the call" would name a call that never was.
	if f.Call != nil && (f.Call.Tool != "" || f.Call.Event != "") {
		if fp := a.callFile(f.Call); fp == "" {
			why = append(why, "the call touched no file")
		} else if rel, ok := a.inRepo(&f, fp, cwd, "file", "the file the call touched", &why); ok {
			return a.touched(f, rel, why)
		}
	} else if f.Location == nil {
		why = append(why, "the finding names no file")
	}
	if e, when, ok := a.nearestEdit(&f); ok {
		return a.beside(f, e, when, why, a.home(f, slices.Clone(why)))
	}
	return a.home(f, why)
}

// home places f by the steps of the chain after its own location, its call's file and its
// session's edits: the hook's settings line, the input file it was read from, the fallback file.
// why says why the earlier steps did not give the place.
func (a *Anchorer) home(f findings.Finding, why []string) findings.Finding {
	if hookish(f) {
		if rel, line, exact, ok := a.hookLine(f); ok {
			f.Placed = findings.PlacedHook
			if exact {
				return a.place(f, rel, line, fmt.Sprintf("Anchored to the hook's line in %s: %s.", rel, strings.Join(why, "; ")))
			}
			if f.Call != nil && f.Call.Hook != "" {
				why = append(why, "the hook's command is not in the settings")
			}
			return a.place(f, rel, line, fmt.Sprintf("Anchored to the \"hooks\" line of %s: %s.", rel, strings.Join(why, "; ")))
		}
	}
	// A reviewer's message or an AGC file in the repository is a fitting place for what was read
	// from it. Not for hook events: each sits on its own line of a log or transcript, which would
	// keep repeats of one event apart and point reviewers at log lines instead of the hook.
	if f.Source.File != "" && !hookish(f) {
		if rel, ok := a.Path(a.inputPath(f.Source.File), ""); ok && a.isFile(rel) {
			line := max(f.Source.Line, 1)
			if len(why) == 0 {
				why = append(why, "the finding names no file")
			}
			f.Placed = findings.PlacedInput
			return a.place(f, rel, line, fmt.Sprintf("Anchored to line %d of %s, where the gate's answer was read: %s.", line, rel, strings.Join(why, "; ")))
		}
	}
	rel := a.FallbackFile()
	if len(why) == 0 {
		why = append(why, "the finding names no file")
	}
	if rel == "" {
		// No file of the chain is there (a folder that is no repository, or one without
		// files): the finding stands on no file rather than on one that is not there; the
		// SARIF leaves it out and says so, the other outputs show it.
		f.Location = nil
		f.Anchored = fmt.Sprintf("Not placed on a file: %s, and the root has none of the fallback files.", strings.Join(why, "; "))
		return f
	}
	f.Placed = findings.PlacedFallback
	return a.place(f, rel, 1, fmt.Sprintf("Anchored to line 1 of %s, the fallback file: %s.", rel, strings.Join(why, "; ")))
}

// hookLine finds the settings line of the hook that answered f: the line of its command (exact),
// else the "hooks" line of the first settings file that has one.
func (a *Anchorer) hookLine(f findings.Finding) (rel string, line int, exact, ok bool) {
	if !hookish(f) {
		return "", 0, false, false
	}
	hook, event := "", ""
	if f.Call != nil {
		hook, event = f.Call.Hook, f.Call.Event
	}
	if s, line, ok := findHook(a.settings, hook, event); ok {
		return s.rel, line, true, true
	}
	// A record that names no hook (a transcript's or stream's deny) is placed by its event: on
	// the line of the one command configured for the event and the tool, where the record that
	// names the hook (the recorder's log) places it too.
	if f.Call != nil && strings.TrimSpace(hook) == "" {
		if s, line, ok := onlyHook(a.settings, f.Call.Runtime, event, f.Call.Tool); ok {
			return s.rel, line, true, true
		}
	}
	var first *settings
	for _, s := range a.settings {
		if s.hooksLine == 0 {
			continue
		}
		if first == nil {
			first = s
		}
		// A runtime with several config files (.github/hooks/*.json): the one that declares a
		// hook for the event (the default runtime keeps its first file, as its findings always had).
		if f.Call != nil && s.runtime == f.Call.Runtime && s.runtime != runtimes.Default().Runtime() && s.declares(event) {
			return s.rel, s.hooksLine, false, true
		}
	}
	if first != nil {
		return first.rel, first.hooksLine, false, true
	}
	return "", 0, false, false
}

// inRepo maps a path the finding names to a file of the checkout. When it cannot, it appends
// the reason to why and, for a path that leaves the repository, keeps the path in the message.
func (a *Anchorer) inRepo(f *findings.Finding, p, cwd, kind, noun string, why *[]string) (string, bool) {
	rel, ok := a.Path(p, cwd)
	switch {
	case !ok:
		f.Message = refused(f.Message, kind, p)
		*why = append(*why, noun+" lies outside the repository")
	case a.untracked(rel):
		*why = append(*why, fmt.Sprintf("%s, %s, is not tracked in the commit", noun, rel))
	case !a.isFile(rel):
		*why = append(*why, fmt.Sprintf("%s, %s, is not a file in the checkout", noun, rel))
	default:
		return rel, true
	}
	return "", false
}

// inputPath makes an input file name absolute against the run's working folder.
func (a *Anchorer) inputPath(name string) string {
	if filepath.IsAbs(name) || a.inputDir == "" {
		return name
	}
	return filepath.Join(a.inputDir, name)
}

// touched anchors f in the file its call touched, at the lines where the call's new text now
// stands, else at line 1.
func (a *Anchorer) touched(f findings.Finding, rel string, why []string) findings.Finding {
	f.Placed = findings.PlacedFile
	file := a.read(rel)
	if file.hasText {
		for _, s := range newTexts(f.Call.Runtime, a.callInput(f.Call)) {
			if start, end, ok := a.findIn(rel, file.text, s); ok {
				loc := &findings.Location{Path: rel, StartLine: start}
				if end > start {
					loc.EndLine = end
				}
				a.clamp(loc)
				f.Location = loc
				f.Anchored = ""
				if len(why) > 0 {
					f.Anchored = fmt.Sprintf("Anchored to %s, the file the call touched: %s.", rel, strings.Join(why, "; "))
				}
				return f
			}
		}
	}
	reason := "the call's new text is not in the checked-out file"
	if len(newTexts(f.Call.Runtime, a.callInput(f.Call))) == 0 {
		reason = "the call wrote no text to find"
	}
	why = append(why, reason)
	return a.place(f, rel, 1, fmt.Sprintf("Anchored to line 1 of %s, the file the call touched: %s.", rel, strings.Join(why, "; ")))
}

// findIn is findText with a memo, since repeated events carry the same edit.
func (a *Anchorer) findIn(rel, content, s string) (int, int, bool) {
	key := rel + "\x00" + s
	a.mu.Lock()
	r, ok := a.found[key]
	a.mu.Unlock()
	if ok {
		return r[0], r[1], r[0] > 0
	}
	start, end, found := findText(content, s)
	a.mu.Lock()
	if len(a.found) >= 4096 {
		clear(a.found)
	}
	a.found[key] = [2]int{start, end}
	a.mu.Unlock()
	return start, end, found
}

// place sets f's location to line of rel with the given Anchored sentence.
func (a *Anchorer) place(f findings.Finding, rel string, line int, anchored string) findings.Finding {
	loc := &findings.Location{Path: rel, StartLine: line}
	a.clamp(loc)
	f.Location = loc
	f.Anchored = anchored
	return f
}

// hookish reports whether a finding came from a hook, so that the hook's settings line is a
// fitting place for it.
func hookish(f findings.Finding) bool {
	if f.Kind == findings.RuntimeGate || f.Kind == findings.Unstructured {
		return true
	}
	return f.Call != nil && (f.Call.Hook != "" || f.Call.Event != "")
}

// refused keeps a refused path in the message, so that nothing the gate said is lost.
func refused(msg, what, p string) string {
	if strings.Contains(msg, p) {
		return msg
	}
	return fmt.Sprintf("%s (%s %s is outside the repository)", strings.TrimRight(msg, " "), what, p)
}

// callFile is the file a tool call touched: Call.FilePath, else what the call's runtime binding
// reads from its input.
func (a *Anchorer) callFile(c *findings.Call) string {
	if c.FilePath != "" {
		return c.FilePath
	}
	if len(c.Input) == 0 {
		return ""
	}
	return runtimes.For(c.Runtime).ToolCall("", a.callInput(c)).FilePath
}

// callInput is the call's input as anchoring reads it (Options.Input).
func (a *Anchorer) callInput(c *findings.Call) []byte {
	if a.input == nil || len(c.Input) == 0 {
		return c.Input
	}
	return a.input(c.Input)
}

// newTexts are the texts a call of runtime wrote, to be found in the file, as its binding reads
// them from the input.
func newTexts(runtime string, input []byte) []string {
	if len(input) == 0 {
		return nil
	}
	return runtimes.For(runtime).ToolCall("", input).NewTexts
}

// clamp keeps a location inside its file: lines between 1 and the file's length, an end line
// not before the start, and columns only when they fit the lines they name.
func (a *Anchorer) clamp(loc *findings.Location) {
	if loc.StartCol == 0 && loc.EndCol == 0 && loc.StartLine <= 1 && loc.EndLine <= 1 {
		// Line 1 fits every file (an empty one is given line 1 too): no need to count the
		// lines of what may be a gigabyte input lying in the repository.
		loc.StartLine, loc.EndLine = 1, 0
		return
	}
	// Columns are checked against the text of their lines; without columns the length will do.
	var f *file
	n := 0
	if loc.StartCol != 0 || loc.EndCol != 0 {
		f = a.read(loc.Path)
		n = f.lines
	} else {
		n = a.lineCount(loc.Path)
	}
	if n < 1 {
		n = 1
	}
	moved := false
	if loc.StartLine < 1 {
		loc.StartLine, moved = 1, true
	}
	if loc.StartLine > n {
		loc.StartLine, moved = n, true
	}
	if loc.EndLine > n {
		loc.EndLine, moved = n, true
	}
	if loc.EndLine != 0 && loc.EndLine < loc.StartLine {
		loc.EndLine, moved = 0, true
	}
	if loc.EndLine == loc.StartLine {
		loc.EndLine = 0
	}
	if moved || f != nil && !a.columnsFit(f, loc) {
		loc.StartCol, loc.EndCol = 0, 0
	}
}

// columnsFit reports whether a location's columns are consistent with its lines.
func (a *Anchorer) columnsFit(f *file, loc *findings.Location) bool {
	if loc.StartCol == 0 && loc.EndCol == 0 {
		return true
	}
	if loc.StartCol < 1 || loc.EndCol < 0 {
		return false
	}
	end := loc.EndLine
	if end == 0 {
		end = loc.StartLine
	}
	if loc.EndCol > 0 && end == loc.StartLine && loc.EndCol < loc.StartCol {
		return false
	}
	if !f.hasText {
		return true
	}
	if loc.StartCol > utf16Len(lineText(f.text, loc.StartLine))+1 {
		return false
	}
	return loc.EndCol == 0 || loc.EndCol <= utf16Len(lineText(f.text, end))+1
}

// FallbackFile is the repo-relative file findings that name no file of their own are placed on,
// line 1: the first existing file of the fallback chain (the Fallback option,
// .claude/settings.json, the running workflow file, README.md, the first tracked file, the first
// input read that lies in the repository), README.md when there is none of them; "" then when
// the root was guessed (Options.RootGuessed): they stand on no file.
func (a *Anchorer) FallbackFile() string { return a.fallbackRel() }

// lookupFallback finds FallbackFile's answer.
func (a *Anchorer) lookupFallback() string {
	for _, fb := range a.fallback {
		if rel, ok := a.Path(fb, ""); ok && a.isFile(rel) {
			return rel
		}
	}
	if t := a.firstTracked(); t != "" {
		return t
	}
	// No file of the chain is there (a folder that is no repository, or one without files): the
	// first input read that lies in the root is, so that no result stands on a missing file.
	for _, in := range a.inputs {
		if rel, ok := a.Path(a.inputPath(in), ""); ok && a.isFile(rel) {
			return rel
		}
	}
	if a.rootGuessed {
		return ""
	}
	return "README.md" // the repository's own, known to code scanning even when not checked out
}

// firstTracked is the first file git tracks (in git's order); without git, none, since a file
// found in a folder may be anything (a binary, a build output): the chain ends at README.md.
// Looked up once.
func (a *Anchorer) firstTracked() string {
	a.mu.Lock()
	t := a.tracked
	a.mu.Unlock()
	if t != nil {
		return *t
	}
	found := ""
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", a.root, "ls-files", "-z").Output()
	if err == nil {
		for _, p := range strings.Split(string(out), "\x00") {
			if rel, ok := a.Path(p, ""); ok && a.isFile(rel) {
				found = rel
				break
			}
		}
	}
	a.mu.Lock()
	a.tracked = &found
	a.mu.Unlock()
	return found
}
