package friction

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Options tune Analyze.
type Options struct {
	Paths    Paths // maps paths to the repository; required
	Examples int   // examples kept per pattern (0 → DefaultExamples)
	Window   int   // calls looked at after a refusal for its retry (0 → DefaultWindow)
	// Asked explains why a prompted or denied call asked (the deciding rule with its file and
	// line, no rule, a near miss), by the runtime's permission matcher; nil: not explained.
	Asked func(tool string, input []byte, cwd string) string
}

// Defaults of Options.
const (
	DefaultExamples = 3
	DefaultWindow   = 20
)

// shaped is a call with what the report compares it by.
type shaped struct {
	*Call
	shape  string   // the call's shape: "python <path> --fast", "Write *.md"
	words  []string // the words of what it ran
	head   []string // program and subcommand ("git", "status"), or tool and file shape
	target string   // a file tool's file, relative to the repository ("" for others)
	file   bool     // a file tool's call
}

// group gathers the calls of one pattern while the report is built.
type group struct {
	p           Pattern
	order       int
	sessions    map[string]bool
	tools       map[string]bool
	heads       [][]string
	longer      bool // a call ran more than its head
	corrections map[[2]string]int
	safe        bool             // every call only reads, or stays in the repository
	prefix      []string         // a permission pattern's program and subcommand (shell calls)
	own         string           // its rule in Claude Code's syntax, made from the calls (not a suggestion)
	file        bool             // a permission pattern of file calls
	calls       []gates.HookCall // a permission pattern's calls, to check its allowlist entry against
	asked       map[string]bool  // why its calls asked, as the runtime's matcher explains them
	// runtimes counts its calls by runtime; runtimeOrder lists them as first seen.
	runtimes     map[string]int
	runtimeOrder []string
}

// Analyze turns the calls of a Timeline into the report: every call that met a rung joins the
// pattern of what matched it (the gate's rule, the permission rule that would allow it, the hook
// that failed open); each refusal is followed to the agent's next call of the same intent, whose
// change is the agent's correction; each pattern gets its fix.
func Analyze(calls []*Call, unmatched int, opts Options) Report {
	if opts.Examples <= 0 {
		opts.Examples = DefaultExamples
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	sh := make([]shaped, len(calls))
	sessions := map[string]bool{}
	for i, c := range calls {
		sh[i] = shapeCall(c, opts.Paths)
		sessions[c.Session] = true
	}
	groups := map[string]*group{}
	kinds, keys := make([]string, len(sh)), make([]string, len(sh))
	for i := range sh {
		if sh[i].Rungs != 0 {
			kinds[i], keys[i] = matchOf(&sh[i], opts)
		}
	}
	broadest := coveringRules(kinds, keys)
	for i := range sh {
		c := &sh[i]
		if c.Rungs == 0 {
			continue
		}
		kind, key := kinds[i], keys[i]
		if kind == KindPermission {
			key = broadest[key]
		}
		g := groups[kind+"\x00"+key]
		if g == nil {
			g = &group{p: Pattern{Kind: kind, Pattern: key, Examples: []Example{}}, order: len(groups),
				sessions: map[string]bool{}, tools: map[string]bool{}, corrections: map[[2]string]int{}, safe: true,
				runtimes: map[string]int{}}
			groups[kind+"\x00"+key] = g
		}
		g.add(c, opts)
		if c.Refused {
			g.retry(sh, i, opts)
		}
	}
	rep := Report{Patterns: []Pattern{}, Calls: len(calls), Sessions: len(sessions), Unmatched: unmatched}
	for _, g := range groups {
		rep.Patterns = append(rep.Patterns, g.finish(opts))
	}
	order := map[string]int{}
	for _, g := range groups {
		order[g.p.Kind+"\x00"+g.p.Pattern] = g.order
	}
	slices.SortFunc(rep.Patterns, func(a, b Pattern) int {
		if c := cmp.Compare(ladderWorking(a), ladderWorking(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Retries, a.Retries); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(order[a.Kind+"\x00"+a.Pattern], order[b.Kind+"\x00"+b.Pattern])
	})
	return rep
}

// ladderWorking is 1 for a pattern whose calls the ladder already handled (repaired or steered,
// never refused), which ranks last; else 0.
func ladderWorking(p Pattern) int {
	if p.Suggest == SuggestNone && p.Rungs.Block == 0 {
		return 1
	}
	return 0
}

// shapeCall reads what a call ran.
func shapeCall(c *Call, paths Paths) shaped {
	s := shaped{Call: c}
	s.shape, s.words = Shape(c.Tool, c.Input, c.Cwd, paths)
	in := decodeInput(c.Input)
	if cmd := in["command"]; cmd != "" {
		s.head = commandHead(s.words, c.Cwd, paths)
		return s
	}
	if field, ok := fileTools[c.Tool]; ok {
		s.file = true
		s.head = []string{ToolName(c.Tool), fileShape(in[field], c.Cwd, paths)}
		if rel, ok := paths.Path(in[field], c.Cwd); ok && in[field] != "" {
			s.target = rel
		} else if in[field] != "" {
			s.target = phOutside + ":" + in[field]
		}
		return s
	}
	s.head = []string{ToolName(c.Tool)}
	return s
}

// commandHead is the program (as its shape shows it) and the subcommand words of a command.
func commandHead(words []string, cwd string, paths Paths) []string {
	if len(words) == 0 {
		return []string{phExpr}
	}
	out := []string{programShape(words[0], cwd, paths)}
	if subcommandTools[path.Base(words[0])] {
		for _, w := range words[1:] {
			if len(out) >= 3 || !subcommandWord.MatchString(w) {
				break
			}
			out = append(out, w)
		}
	}
	return out
}

// matchOf is what matched a call: a hook that failed open on it, else the gate rule that decided
// it, else the permission rule that would allow it.
func matchOf(c *shaped, opts Options) (kind, key string) {
	switch {
	case c.Has(FailedOpen):
		hook := c.Hook
		if hook == "" {
			hook = "<hook>"
		}
		return KindHook, Scrub(hook, c.Cwd, opts.Paths)
	case c.Rule != "":
		return KindGate, c.Rule
	}
	rule, _, _, _ := permissionRule(c, opts)
	return KindPermission, rule
}

// add counts one call of the pattern.
func (g *group) add(c *shaped, opts Options) {
	g.p.Count++
	g.sessions[c.Session] = true
	g.tools[ToolName(c.Tool)] = true
	rt := c.Runtime
	if rt == "" {
		rt = defaultRuntime
	}
	if g.runtimes[rt] == 0 {
		g.runtimeOrder = append(g.runtimeOrder, rt)
	}
	g.runtimes[rt]++
	r := &g.p.Rungs
	for _, x := range []struct {
		rung Rung
		n    *int
	}{{Block, &r.Block}, {Steer, &r.Steer}, {Repaired, &r.Repaired}, {Prompted, &r.Prompted}, {Denied, &r.Denied}, {FailedOpen, &r.FailedOpen}} {
		if c.Has(x.rung) {
			*x.n++
		}
	}
	g.heads = append(g.heads, c.head)
	if len(strings.Fields(c.shape)) > len(c.head) {
		g.longer = true
	}
	if g.p.Kind == KindPermission {
		_, own, prefix, safe := permissionRule(c, opts)
		g.safe = g.safe && safe
		if g.prefix == nil && g.own == "" || own == g.p.Pattern && g.own != g.p.Pattern {
			g.prefix, g.own = prefix, own // the rule of the call the pattern is named after wins
		}
		g.file = c.file
		g.calls = append(g.calls, gates.HookCall{Tool: c.Tool, Input: c.Input, Cwd: c.Cwd})
		if opts.Asked != nil && len(g.p.Asked) < 3 {
			if why := opts.Asked(c.Tool, c.Input, c.Cwd); why != "" && !g.asked[why] {
				if g.asked == nil {
					g.asked = map[string]bool{}
				}
				g.asked[why] = true
				g.p.Asked = append(g.p.Asked, Scrub(why, c.Cwd, opts.Paths))
			}
		}
	}
	if len(g.p.Examples) < opts.Examples {
		g.p.Examples = append(g.p.Examples, Example{
			Source:  c.Source.File,
			Line:    c.Source.Line,
			Command: safeText(c, opts),
		})
	}
}

// retry follows a refused call to the agent's next call of the same intent in its session: the
// calls up to it are the retries the refusal cost, and when that call went through, the words
// it changed are the agent's correction.
func (g *group) retry(sh []shaped, i int, opts Options) {
	c := &sh[i]
	for j, k := i+1, 1; j < len(sh) && k <= opts.Window; j, k = j+1, k+1 {
		n := &sh[j]
		if n.Session != c.Session {
			return
		}
		if !sameIntent(c, n) {
			continue
		}
		g.p.Retries += k
		g.p.Turns += max(n.Turn-c.Turn, 0)
		if !n.Refused {
			// The correction is taken from the redacted commands with their paths made
			// repository-relative: a secret is recognised in its whole command, not in the
			// few words that changed.
			before, after := correction(safeWords(c, opts), safeWords(n, opts))
			g.corrections[[2]string{before, after}]++
			if g.p.Example == nil {
				g.p.Example = &Correction{Before: safeText(c, opts), After: safeText(n, opts)}
			}
		}
		return
	}
}

// finish picks the pattern's fix and fills in its summary.
func (g *group) finish(opts Options) Pattern {
	p := g.p
	slices.SortStableFunc(g.runtimeOrder, func(a, b string) int { return cmp.Compare(g.runtimes[b], g.runtimes[a]) })
	p.Runtime = g.runtimeOrder[0]
	p.Sessions = len(g.sessions)
	p.Tool = "*"
	if len(g.tools) == 1 {
		for t := range g.tools {
			p.Tool = t
		}
	}
	p.Commands = summarise(g.heads, g.longer)
	r := p.Rungs
	var fixes [][2]string
	for c := range g.corrections {
		fixes = append(fixes, c)
	}
	slices.SortFunc(fixes, func(a, b [2]string) int { return cmp.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	switch {
	case r.FailedOpen > 0:
		p.Suggest = SuggestFixHook
		p.Why = fmt.Sprintf("the hook failed open on %s: they ran unguarded", plural(r.FailedOpen, "call"))
	case r.Block >= 2 && len(fixes) == 1:
		p.Suggest = SuggestRewrite
		p.Before, p.After = fixes[0][0], fixes[0][1]
		p.Why = fmt.Sprintf("blocked %s and corrected the same way each time (%s → %s): the gate can run the correction itself",
			plural(r.Block, "time"), orNothing(p.Before), orNothing(p.After))
		if p.Example != nil {
			for _, rt := range g.runtimeOrder {
				if a := repairAnswer(rt, p.Pattern, p.Tool, p.Before, p.After, *p.Example); a != "" {
					p.Repairs = append(p.Repairs, Repair{Runtime: rt, Answer: a})
				}
			}
		}
	case r.Block >= 2 && len(fixes) > 1:
		p.Suggest = SuggestSteer
		var list []string
		for _, f := range fixes {
			list = append(list, orNothing(f[0])+" → "+orNothing(f[1]))
		}
		p.Why = fmt.Sprintf("blocked %s and corrected in %d ways (%s): say what to do instead (additionalContext) rather than refuse",
			plural(r.Block, "time"), len(fixes), strings.Join(list, "; "))
	case r.Block > 0 && len(fixes) > 0:
		p.Suggest = SuggestHabit
		p.Before, p.After = fixes[0][0], fixes[0][1]
		p.Why = fmt.Sprintf("blocked once and corrected (%s → %s): change the habit; if it recurs, make it a rewrite",
			orNothing(p.Before), orNothing(p.After))
	case r.Block > 0:
		p.Suggest = SuggestNone
		p.Why = "blocked, and the agent made no call of the same intent that went through: the block stands"
	case (r.Denied > 0 || r.Prompted > 0) && p.Kind != KindPermission:
		// the gate answered (a repair, a steer) and the runtime's permissions then refused the
		// call: what the gate let through is what needs a rule, not the gate's pattern
		p.Suggest = SuggestGuardRule
		p.Why = fmt.Sprintf("the gate answered and the runtime's permissions then refused %s: allow the form the gate lets through, or let the gate decide it",
			plural(r.Denied+r.Prompted, "call"))
	case r.Denied > 0 || r.Prompted > 0:
		p.Allow, p.AllowIn, p.AllowChecked = allowFor(p.Runtime, g.own, g.prefix, g.file, g.calls)
		p.AllowChecked = Scrub(p.AllowChecked, "", opts.Paths)
		switch {
		case g.safe && p.Allow != "":
			p.Suggest = SuggestAllowlist
			p.Why = g.safeWhy() + ": let it through without asking"
		case g.safe:
			p.Suggest = SuggestGuardRule
			p.Why = g.safeWhy() + ", but " + p.AllowIn + ": let a guard allow it"
		default:
			p.Suggest = SuggestGuardRule
			p.Allow, p.AllowIn, p.AllowChecked = "", "", ""
			p.Why = "neither read-only nor confined to the repository: a guard should decide it, not a person"
		}
	default:
		p.Suggest = SuggestNone
		p.Why = "the ladder working: the gate repaired or steered the calls and nothing was refused"
	}
	if p.Suggest != SuggestRewrite && p.Suggest != SuggestHabit {
		p.Example = nil
	}
	return p
}

// safeWhy says why a permission pattern's calls are safe to let through.
func (g *group) safeWhy() string {
	if g.file && !g.tools["Read"] && !g.tools["Glob"] && !g.tools["Grep"] && !g.tools["LS"] {
		return "confined to the repository (every call wrote a file inside it)"
	}
	if g.file {
		return "read-only or confined to the repository (every call stayed inside it)"
	}
	return "read-only (every call only read)"
}

// summarise is what the calls of a pattern ran: the head common to them, with "…" when they ran
// more; heads with nothing in common are listed (three at most).
func summarise(heads [][]string, longer bool) string {
	if len(heads) == 0 {
		return ""
	}
	common := heads[0]
	same := true
	for _, h := range heads[1:] {
		n := 0
		for n < len(common) && n < len(h) && common[n] == h[n] {
			n++
		}
		same = same && n == len(common) && n == len(h)
		common = common[:n]
	}
	if len(common) > 0 {
		out := strings.Join(common, " ")
		if longer || !same {
			out += " " + more
		}
		return out
	}
	var list []string
	for _, h := range heads {
		t := strings.Join(h, " ")
		if !slices.Contains(list, t) {
			list = append(list, t)
		}
	}
	if len(list) > 3 {
		list = append(list[:3], more)
	}
	return strings.Join(list, ", ")
}

// plural is "1 call", "3 calls".
func plural(n int, word string) string {
	switch {
	case n == 1:
		return "1 " + word
	case strings.HasSuffix(word, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// orNothing shows an empty side of a correction as "(nothing)".
func orNothing(s string) string {
	if s == "" {
		return "(nothing)"
	}
	return s
}

// safeText is what a call ran, redacted and with its paths relative to the repository. It is
// redacted before the paths are rewritten too, so that a secret is recognised in its whole
// command (a "?token=" after a path the rewrite would hide).
func safeText(c *shaped, opts Options) string {
	return Scrub(callText(c), c.Cwd, opts.Paths)
}

// safeWords are the words of safeText.
func safeWords(c *shaped, opts Options) []string {
	w, _ := commandWords(safeText(c, opts))
	return w
}

// callText is what a call ran: its command, or its tool and file.
func callText(c *shaped) string {
	in := decodeInput(c.Input)
	if cmd := in["command"]; cmd != "" {
		return cmd
	}
	if f, ok := fileTools[c.Tool]; ok && in[f] != "" {
		return c.Tool + " " + in[f]
	}
	return c.Tool
}

// sameIntent reports whether call n asks for what the refused call c asked: the same file for
// file tools; for shell commands the same program family and subcommand (python → python3), the
// same arguments to another program, or the same command behind a wrapper (npx tsc); for other
// tools the same input.
func sameIntent(c, n *shaped) bool {
	switch {
	case c.file || n.file:
		return c.file && n.file && c.target != "" && c.target == n.target
	case len(c.words) > 0 && len(n.words) > 0 && (c.Tool == n.Tool || isShell(c) && isShell(n)):
		a, b := c.words, n.words
		if family(c.head) == family(n.head) || len(a) > 1 && slices.Equal(a[1:], b[1:]) {
			return true
		}
		return wrapped(a, b) || wrapped(b, a)
	}
	return c.Tool == n.Tool && canonical(c.Input) == canonical(n.Input)
}

// isShell reports whether a call ran a shell command.
func isShell(c *shaped) bool { return decodeInput(c.Input)["command"] != "" }

// family is a command's program with its version stripped and its first subcommand: "python3 …"
// and "python …" are one family, and so are "pip3 install" and "pip install".
func family(head []string) string {
	if len(head) == 0 {
		return ""
	}
	head = head[:min(len(head), 2)]
	prog := strings.TrimRight(path.Base(head[0]), "0123456789.")
	if prog == "" {
		prog = path.Base(head[0])
	}
	return strings.Join(append([]string{prog}, head[1:]...), " ")
}

// wrapped reports whether b is a (of two words or more) behind one or two wrapper words.
func wrapped(a, b []string) bool {
	n := len(b) - len(a)
	return len(a) >= 2 && n >= 1 && n <= 2 && slices.Equal(b[n:], a)
}

// correction is the span of words the second call changed: what is left of each after their
// common first and last words.
func correction(a, b []string) (string, string) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return strings.Join(a[p:len(a)-s], " "), strings.Join(b[p:len(b)-s], " ")
}

// coveringRules maps each permission rule among keys (those of kind KindPermission) to the
// broadest of them that covers it by the runtime's matching rules (itself when none does), so
// that one entry that allows the other's calls is one pattern: Edit(*.md) takes Edit(docs/*.md),
// Bash(gh pr:*) takes Bash(gh pr view:*).
func coveringRules(kinds, keys []string) map[string]string {
	var rules []string
	seen := map[string]bool{}
	for i, k := range keys {
		if kinds[i] == KindPermission && !seen[k] {
			seen[k] = true
			rules = append(rules, k)
		}
	}
	out := make(map[string]string, len(rules))
	for _, r := range rules {
		best := r
		for changed := true; changed; {
			changed = false
			for _, o := range rules {
				if o != best && Covers(o, best) && !Covers(best, o) {
					best, changed = o, true
				}
			}
		}
		out[r] = best
	}
	return out
}

// Covers reports whether the permission rule a allows every call rule b allows, as Claude Code
// matches its rules: the same tool; for a shell tool, a's prefix ("gh pr:*", "gh pr *") is b's or
// a word prefix of it; for a file tool, a's pattern is b's, or a pattern without a folder
// ("*.md", matched at any depth, as .gitignore patterns are) that matches b's file name, or a
// folder's "dir/**" that holds b's pattern.
func Covers(a, b string) bool {
	ta, ra, okA := splitRule(a)
	tb, rb, okB := splitRule(b)
	if !okA || !okB || ta != tb {
		return a == b
	}
	if ra == rb {
		return true
	}
	if pa, ok := shellPrefix(ra); ok && (tb == "Bash" || strings.ContainsAny(ra, " :")) {
		pb, _ := shellPrefix(rb)
		return pb == pa || strings.HasPrefix(pb, pa+" ")
	}
	if dir, ok := strings.CutSuffix(ra, "/**"); ok {
		return strings.HasPrefix(rb, dir+"/")
	}
	if !strings.Contains(ra, "/") {
		m, err := path.Match(ra, path.Base(rb))
		return err == nil && m
	}
	return false
}

// splitRule splits "Tool(content)" into its tool and content.
func splitRule(r string) (string, string, bool) {
	tool, rest, ok := strings.Cut(r, "(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return "", "", false
	}
	return tool, strings.TrimSuffix(rest, ")"), true
}

// shellPrefix is the command prefix of a shell rule's content that ends in a wildcard ("gh pr:*",
// "gh pr *"), and false for one that names a whole command.
func shellPrefix(content string) (string, bool) {
	for _, suf := range []string{":*", " *"} {
		if p, ok := strings.CutSuffix(content, suf); ok {
			return strings.TrimSpace(p), true
		}
	}
	return content, false
}
