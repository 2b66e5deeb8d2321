package review

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/redact"
)

// Mode is what a review posts.
type Mode string

// The review modes (action input pr-review).
const (
	Off         Mode = "off"         // no review
	Suggestions Mode = "suggestions" // only suggested changes
	Comments    Mode = "comments"    // suggested changes, and the other failing or blocking findings as comments
)

// ParseMode checks a mode name; "" is Off.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case "", "false", "none":
		return Off, nil
	case Off, Suggestions, Comments:
		return m, nil
	}
	return "", fmt.Errorf("%q is not off, suggestions or comments", s)
}

// MaxComments is how many comments one review posts at most, as reviewdog does.
const MaxComments = 30

// Options configure a plan.
type Options struct {
	Mode Mode
	Max  int              // comments per review; 0 means MaxComments
	Diff *difffilter.Diff // the pull request's diff: only its lines get comments
	// ReadFile reads a repository file as the pull request's head has it; nil when there is no
	// checkout (edits that replace whole lines are still suggested).
	ReadFile func(path string) ([]byte, error)
	Redactor *redact.Redactor // for the text a comment adds to the items'
}

// Existing is a review comment already on the pull request.
type Existing struct {
	ID        int64
	NodeID    string // for GraphQL
	Body      string
	InReplyTo int64 // the comment it answers; 0 for the first of a thread
}

// Comment is one review comment to post.
type Comment struct {
	Key        string `json:"-"`
	Path       string `json:"path"`
	Body       string `json:"body"`
	StartLine  int    `json:"start_line,omitempty"`
	StartSide  string `json:"start_side,omitempty"`
	Line       int    `json:"line"`
	Side       string `json:"side"`
	Suggestion bool   `json:"-"`
	weight     int
	trusted    bool
}

// Plan is what one run of the review does.
type Plan struct {
	Comments []Comment // to post in one review, heaviest first
	Over     int       // comments beyond the limit, not posted
	Already  int       // findings that already have a comment
	OffDiff  int       // findings that would be commented but are not on the diff's lines (annotations only)
	Outdated []Existing
	Replied  int // own comments whose finding is gone, kept because someone replied
}

// Make plans the review: comments for the items not yet commented on, and the earlier comments to
// minimise.
func Make(items []Item, existing []Existing, opts Options) Plan {
	if opts.Max <= 0 {
		opts.Max = MaxComments
	}
	own := map[string]bool{}
	replied := map[int64]bool{}
	for _, e := range existing {
		if e.InReplyTo != 0 {
			replied[e.InReplyTo] = true
		} else if k := KeyOf(e.Body); k != "" {
			own[k] = true
		}
	}
	var p Plan
	current := map[string]bool{}
	var all []Comment
	for _, it := range items {
		if !keyRE.MatchString(it.Key) || current[it.Key] {
			current[it.Key] = true
			continue
		}
		current[it.Key] = true
		c, wanted := comment(it, opts)
		switch {
		case !wanted:
		case c == nil:
			p.OffDiff++
		case own[it.Key]:
			p.Already++
		default:
			all = append(all, *c)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.trusted != b.trusted { // the reviewer's first: a flood of agent-written ones cannot crowd it out
			return a.trusted
		}
		if a.weight != b.weight {
			return a.weight > b.weight
		}
		if a.Suggestion != b.Suggestion {
			return a.Suggestion
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	if len(all) > opts.Max {
		p.Over = len(all) - opts.Max
		all = all[:opts.Max]
	}
	p.Comments = all
	for _, e := range existing {
		k := KeyOf(e.Body)
		if e.InReplyTo != 0 || k == "" || current[k] {
			continue
		}
		if replied[e.ID] {
			p.Replied++
			continue
		}
		p.Outdated = append(p.Outdated, e)
	}
	return p
}

// comment is the item's comment: wanted says the mode posts this item at all, and the comment is
// nil when its lines are not on the diff.
func comment(it Item, opts Options) (c *Comment, wanted bool) {
	if it.Edit != nil {
		if sug, ok := suggestion(it, opts); ok {
			if !opts.Diff.InHunk(it.Path, sug.Start, sug.End) ||
				(it.StartLine == 0 && !opts.Diff.Keep(it.Path, sug.Start, sug.End, difffilter.Added)) {
				return nil, true
			}
			body, shown := commentBody(it, &sug, opts.Redactor)
			c := &Comment{Key: it.Key, Path: it.Path, Body: body, Line: sug.End, Side: "RIGHT", Suggestion: shown, weight: it.Weight, trusted: it.Trusted}
			if sug.Start < sug.End {
				c.StartLine, c.StartSide = sug.Start, "RIGHT"
			}
			return c, true
		}
	}
	if opts.Mode != Comments || !it.Fails || it.StartLine < 1 {
		return nil, false
	}
	start, end := it.StartLine, max(it.EndLine, it.StartLine)
	if !opts.Diff.InHunk(it.Path, start, end) {
		if !opts.Diff.InHunk(it.Path, start, start) {
			return nil, true
		}
		end = start
	}
	body, _ := commentBody(it, nil, opts.Redactor)
	c = &Comment{Key: it.Key, Path: it.Path, Body: body, Line: end, Side: "RIGHT", weight: it.Weight, trusted: it.Trusted}
	if start < end {
		c.StartLine, c.StartSide = start, "RIGHT"
	}
	return c, true
}

// suggestion is the item's suggested change, from the file when it can be read, else (for an
// edit of whole lines) from the edit alone.
func suggestion(it Item, opts Options) (Suggestion, bool) {
	if opts.ReadFile != nil {
		if data, err := opts.ReadFile(it.Path); err == nil {
			return Suggest(data, it)
		}
	}
	if it.Edit.Before != "" || it.StartLine < 1 {
		return Suggestion{}, false
	}
	return Suggestion{Start: it.StartLine, End: max(it.EndLine, it.StartLine), Text: strings.TrimSuffix(it.Edit.After, "\n")}, true
}

// Counts says in words what the plan posts, for the review's body and the job summary.
func (p Plan) Counts() string {
	sug := 0
	for _, c := range p.Comments {
		if c.Suggestion {
			sug++
		}
	}
	switch n := len(p.Comments) - sug; {
	case sug == 0:
		return plural(n, "comment")
	case n == 0:
		return plural(sug, "suggested change")
	default:
		return plural(sug, "suggested change") + " and " + plural(n, "comment")
	}
}

// Body is the review's own text: what it holds, and how many comments did not fit.
func (p Plan) Body() string {
	s := "agc-sarif: " + p.Counts() + " from the gates' findings on this change."
	if p.Over > 0 {
		s += fmt.Sprintf("\n\n%s not posted: a review holds at most %d comments, heaviest first. "+
			"See the annotations, the job summary and the SARIF file for the others.",
			plural(p.Over, "more comment is", "more comments are"), len(p.Comments))
	}
	return s
}

// Line is one line for the job summary on what the review did (posted or not).
func (p Plan) Line(posted bool) string {
	var parts []string
	if posted {
		parts = append(parts, "posted "+p.Counts())
	} else {
		parts = append(parts, "nothing new to post")
	}
	if p.Over > 0 {
		parts = append(parts, fmt.Sprintf("%d more not posted (at most %d comments a review)", p.Over, len(p.Comments)))
	}
	if p.Already > 0 {
		parts = append(parts, fmt.Sprintf("%d already commented", p.Already))
	}
	if p.OffDiff > 0 {
		parts = append(parts, fmt.Sprintf("%d not on the diff's lines (annotations only)", p.OffDiff))
	}
	if n := len(p.Outdated); n > 0 {
		parts = append(parts, fmt.Sprintf("%d earlier comments minimised as outdated", n))
	}
	if p.Replied > 0 {
		parts = append(parts, fmt.Sprintf("%d earlier comments kept because someone replied", p.Replied))
	}
	return strings.Join(parts, "; ") + "."
}

// plural is "1 thing" or "n things"; with two forms after n, the second is the plural.
func plural(n int, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return fmt.Sprint(n) + " " + many[0]
	}
	return fmt.Sprint(n) + " " + one + "s"
}
