package friction

import (
	"cmp"
	"slices"
	"strings"

	"github.com/agc-sarif/agc-sarif/redact"
)

// Options tune Analyze.
type Options struct {
	Paths    Paths            // maps paths to the repository; required
	Redactor *redact.Redactor // hides secrets in every text field; nil leaves text as it is
	Examples int              // examples kept per pattern (0 → DefaultExamples)
	Window   int              // calls looked at after a refusal for its retry (0 → DefaultWindow)
}

// Defaults of Options.
const (
	DefaultExamples = 3
	DefaultWindow   = 20
)

// shaped is a call with its pattern and the words its intent is compared by.
type shaped struct {
	*Call
	pattern string
	words   []string
}

// group gathers the calls of one pattern while the report is built.
type group struct {
	p           Pattern
	corrections map[[2]string]bool
	order       int
}

// Analyze turns the calls of a Timeline into the report: every call that met a rung joins the
// pattern of its shape; each refusal's retries are followed to the call of the same intent that
// went through; each pattern gets its suggested move.
func Analyze(calls []*Call, unmatched int, opts Options) Report {
	if opts.Examples <= 0 {
		opts.Examples = DefaultExamples
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	sh := make([]shaped, len(calls))
	for i, c := range calls {
		p, w := Shape(c.Tool, c.Input, c.Cwd, opts.Paths)
		sh[i] = shaped{c, p, w}
	}
	groups := map[string]*group{}
	for i := range sh {
		c := &sh[i]
		if c.Rungs == 0 {
			continue
		}
		g := groups[c.Tool+"\x00"+c.pattern]
		if g == nil {
			g = &group{p: Pattern{Pattern: c.pattern, Tool: ToolName(c.Tool), Examples: []Example{}}, corrections: map[[2]string]bool{}, order: len(groups)}
			groups[c.Tool+"\x00"+c.pattern] = g
		}
		g.add(c, opts)
		if c.Refused {
			g.retry(sh, i, opts)
		}
	}
	rep := Report{Patterns: []Pattern{}, Once: []Pattern{}, Calls: len(calls), Unmatched: unmatched}
	for _, g := range sortedGroups(groups) {
		p := g.finish(opts)
		if p.Count > 1 {
			rep.Patterns = append(rep.Patterns, p)
		} else {
			rep.Once = append(rep.Once, p)
		}
	}
	return rep
}

// sortedGroups orders patterns heaviest first: by retries, then count, then first seen.
func sortedGroups(groups map[string]*group) []*group {
	out := make([]*group, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b *group) int {
		if c := cmp.Compare(b.p.Retries, a.p.Retries); c != 0 {
			return c
		}
		if c := cmp.Compare(b.p.Count, a.p.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	return out
}

// add counts one call of the pattern.
func (g *group) add(c *shaped, opts Options) {
	g.p.Count++
	r := &g.p.Rungs
	for _, x := range []struct {
		rung Rung
		n    *int
	}{{Block, &r.Block}, {Steer, &r.Steer}, {Repaired, &r.Repaired}, {Prompted, &r.Prompted}, {Denied, &r.Denied}, {FailedOpen, &r.FailedOpen}} {
		if c.Has(x.rung) {
			*x.n++
		}
	}
	if len(g.p.Examples) < opts.Examples {
		g.p.Examples = append(g.p.Examples, Example{
			Source:  opts.Redactor.String(c.Source.File),
			Line:    c.Source.Line,
			Command: opts.Redactor.String(Scrub(callText(c), c.Cwd, opts.Paths)),
		})
	}
}

// retry follows a refused call to the next call of the same intent in its session: the calls
// up to it are the retries the refusal cost, and when that call went through, the words it
// changed are the agent's correction.
func (g *group) retry(sh []shaped, i int, opts Options) {
	c := sh[i]
	for j, k := i+1, 1; j < len(sh) && k <= opts.Window; j, k = j+1, k+1 {
		n := sh[j]
		if n.Session != c.Session {
			return
		}
		if n.Tool != c.Tool || !sameIntent(c.words, n.words) {
			continue
		}
		g.p.Retries += k
		g.p.Turns += max(n.Turn-c.Turn, 0)
		if !n.Refused && c.Has(Block) {
			// The correction is taken from the redacted, scrubbed commands: a secret is
			// recognised in its whole command, not in the few words that changed.
			before, after := correction(safeWords(&c, opts), safeWords(&n, opts))
			g.corrections[[2]string{before, after}] = true
		}
		return
	}
}

// finish picks the pattern's move.
func (g *group) finish(opts Options) Pattern {
	p := g.p
	r := p.Rungs
	switch {
	case r.FailedOpen > 0:
		p.Suggest = SuggestFixHook
	case r.Block > 0 && len(g.corrections) == 1:
		p.Suggest = SuggestRewrite
		for c := range g.corrections {
			p.Before, p.After = c[0], c[1]
		}
	case r.Block > 0 && len(g.corrections) > 1:
		p.Suggest = SuggestSteer
	case r.Denied > 0 || r.Prompted > 0:
		p.Suggest = SuggestGuardRule
		if allow := allowEntry(p.Tool, p.Pattern); allow != "" {
			p.Suggest, p.Allow = SuggestAllowlist, opts.Redactor.String(allow)
		}
	default:
		p.Suggest = SuggestNone
	}
	p.Pattern = opts.Redactor.String(p.Pattern)
	return p
}

// safeWords are the words of what a call ran, redacted and with its paths scrubbed.
func safeWords(c *shaped, opts Options) []string {
	w, _ := commandWords(opts.Redactor.String(Scrub(callText(c), c.Cwd, opts.Paths)))
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

// sameIntent reports whether two calls' words ask for the same thing: the same words, the same
// arguments to another program (python → python3), the same command behind a wrapper (npx tsc),
// or the same program with most arguments kept.
func sameIntent(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if slices.Equal(a, b) || len(a) > 1 && slices.Equal(a[1:], b[1:]) || wrapped(a, b) || wrapped(b, a) {
		return true
	}
	return a[0] == b[0] && len(a) > 1 && len(b) > 1 && jaccard(a[1:], b[1:]) >= 0.5
}

// wrapped reports whether b is a (of two words or more) behind one or two wrapper words.
func wrapped(a, b []string) bool {
	n := len(b) - len(a)
	return len(a) >= 2 && n >= 1 && n <= 2 && slices.Equal(b[n:], a)
}

// jaccard is the share of distinct words two lists have in common.
func jaccard(a, b []string) float64 {
	set := map[string]int{}
	for _, w := range a {
		set[w] |= 1
	}
	for _, w := range b {
		set[w] |= 2
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	return float64(both) / float64(len(set))
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
