// Package review turns findings into one pull-request review: a finding whose repair edits lines
// of the change becomes a comment with a suggested change, other failing findings on the diff's
// lines may become plain comments, each marked with its finding's stable key so that a re-run
// posts only what is new and minimises its own comments whose finding is gone.
package review

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/sarif"
)

// Item is one finding as the review needs it.
type Item struct {
	Key      string // agcFindingKey/v1
	Title    string // the rule's shortDescription
	Message  string // the gate's message
	Gate     string
	Verdict  string
	Recorded string // where the finding was recorded: input file and line
	Weight   int    // the level's weight (error 3, warning 2, note 1): heaviest first
	Fails    bool   // the finding fails the step or blocks: comments mode posts it
	Trusted  bool   // read from a reviewer's output (findings.Finding.Trusted): posted first
	Path     string // repository path
	// StartLine and EndLine are the lines the finding is on (EndLine 0: StartLine). StartLine 0
	// means the finding names only a file: an edit is then looked for by its text.
	StartLine, EndLine int
	Edit               *Edit // the file edit the finding's repair states; nil when none
}

// Edit is a replacement of text in the item's file. Before "" replaces the item's lines whole.
type Edit struct {
	Before, After string
}

// FromFindings makes the review's items from findings (already redacted): fails says which fail
// the step. Findings without a repository location are left out: they cannot be on a line. An
// item's title is its rule's, from the rows collect builds the SARIF with (runtimes.Checks).
func FromFindings(fs []findings.Finding, fails func(*findings.Finding) bool) []Item {
	checks := runtimes.Checks()
	out := make([]Item, 0, len(fs))
	for i := range fs {
		f := &fs[i]
		key := sarif.FindingKey(f)
		if key == "" {
			continue
		}
		it := Item{Key: key, Title: sarif.RuleTitle(checks, f), Message: findings.FirstSentence(f), Gate: f.Gate,
			Verdict: string(f.Verdict), Weight: f.Level.Weight(), Path: cleanPath(f.Location.Path),
			StartLine: f.Location.StartLine, EndLine: f.Location.EndLine}
		if f.Source.File != "" {
			it.Recorded = findings.SourceString(f.Source)
		}
		if fails != nil {
			it.Fails = fails(f)
		}
		it.Fails = it.Fails || f.Verdict == "block"
		it.Trusted = f.Trusted
		it.Edit = editOf(f)
		if it.Edit != nil && f.Kind == findings.RuntimeGate {
			// A runtime repair names the file, not the lines: the edit is found by its text.
			it.StartLine, it.EndLine = 0, 0
		}
		out = append(out, it)
	}
	return out
}

// editOf is the file edit a finding's repair states: a judgment's repair at its own location, or a
// runtime gate's repair of a call that wrote the file the finding is on. Command rewrites and
// findings placed away from their code have none.
func editOf(f *findings.Finding) *Edit {
	r := f.Repair
	if r == nil || f.Anchored != "" || f.Placed.OffCode() || r.Before == r.After {
		return nil
	}
	switch f.Kind {
	case findings.JudgmentGate:
		if f.Location.StartLine < 1 {
			return nil
		}
		return &Edit{Before: r.Before, After: r.After}
	case findings.RuntimeGate:
		c := f.Call
		// Only a call of a tool that edits a file (the runtime binding's EditTools): a repair of
		// any other call, such as a shell command rewrite, edits no file.
		if c == nil || !slices.Contains(runtimes.For(c.Runtime).EditTools(), c.Tool) || r.Before == "" || c.Command != "" {
			return nil
		}
		if tool, _, ok := strings.Cut(f.Target, "."); ok && tool != c.Tool {
			return nil
		}
		return &Edit{Before: r.Before, After: r.After}
	}
	return nil
}

// cleanPath makes a repository path comparable with the diff's.
func cleanPath(p string) string {
	return strings.TrimPrefix(path.Clean(strings.ReplaceAll(p, `\`, "/")), "./")
}

// FromSARIF makes the review's items from a SARIF log that agc-sarif wrote: key, rule title,
// message, gate, verdict and source from each result, and a fix that replaces whole lines as
// the edit. A result of level error or verdict block fails.
func FromSARIF(data []byte) ([]Item, error) {
	var log sarifLog
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fmt.Errorf("reading the SARIF log: %w", err)
	}
	var out []Item
	for ri, run := range log.Runs {
		titles := map[string]string{}
		for _, r := range run.Tool.Driver.Rules {
			titles[r.ID] = r.Short.Text
		}
		for i, r := range run.Results {
			key := r.Fingerprints["agcFindingKey/v1"]
			if key == "" || len(r.Locations) == 0 {
				continue
			}
			pl := r.Locations[0].Physical
			p, err := uriPath(pl.Artifact.URI)
			if err != nil {
				return nil, fmt.Errorf("run %d, result %d: %w", ri, i, err)
			}
			msg, _, _ := strings.Cut(r.Message.Text, "\n")
			it := Item{Key: key, Title: titles[r.RuleID], Message: msg, Gate: r.Properties.Gate,
				Verdict: r.Properties.Verdict, Recorded: r.Properties.Source, Weight: findings.Level(r.Level).Weight(),
				Path: p, StartLine: pl.Region.StartLine, EndLine: pl.Region.EndLine}
			if it.Title == "" {
				it.Title = r.RuleID
			}
			it.Fails = r.Level == "error" || it.Verdict == "block"
			if e, start, end := sarifEdit(r, p); e != nil {
				it.Edit, it.StartLine, it.EndLine = e, start, end
			}
			out = append(out, it)
		}
	}
	return out, nil
}

// sarifEdit is the first fix of a result that replaces whole lines of the result's file, with
// those lines.
func sarifEdit(r sarifResult, p string) (*Edit, int, int) {
	for _, fx := range r.Fixes {
		for _, ch := range fx.Changes {
			if q, err := uriPath(ch.Artifact.URI); err != nil || q != p {
				continue
			}
			for _, rep := range ch.Replacements {
				reg := rep.Deleted
				if reg.StartColumn != 0 || reg.EndColumn != 0 || reg.StartLine < 1 {
					continue
				}
				return &Edit{After: rep.Inserted.Text}, reg.StartLine, reg.EndLine
			}
		}
	}
	return nil, 0, 0
}

// uriPath is the repository path of a relative SARIF URI.
func uriPath(uri string) (string, error) {
	p := uri
	if strings.Contains(uri, "%") {
		var err error
		if p, err = url.PathUnescape(uri); err != nil {
			return "", fmt.Errorf("URI %q: %w", uri, err)
		}
	}
	if strings.Contains(p, "://") || strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("URI %q is not a repository path", uri)
	}
	return cleanPath(p), nil
}

// The parts of a SARIF log FromSARIF reads.
type (
	sarifLog struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID    string `json:"id"`
						Short struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []sarifResult `json:"results"`
		} `json:"runs"`
	}
	sarifResult struct {
		RuleID  string `json:"ruleId"`
		Level   string `json:"level"`
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
		Locations []struct {
			Physical struct {
				Artifact struct {
					URI string `json:"uri"`
				} `json:"artifactLocation"`
				Region sarifRegion `json:"region"`
			} `json:"physicalLocation"`
		} `json:"locations"`
		Fingerprints map[string]string `json:"partialFingerprints"`
		Fixes        []struct {
			Changes []struct {
				Artifact struct {
					URI string `json:"uri"`
				} `json:"artifactLocation"`
				Replacements []struct {
					Deleted  sarifRegion `json:"deletedRegion"`
					Inserted struct {
						Text string `json:"text"`
					} `json:"insertedContent"`
				} `json:"replacements"`
			} `json:"artifactChanges"`
		} `json:"fixes"`
		Properties struct {
			Gate    string `json:"gate"`
			Verdict string `json:"verdict"`
			Source  string `json:"source"`
		} `json:"properties"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		EndLine     int `json:"endLine"`
		StartColumn int `json:"startColumn"`
		EndColumn   int `json:"endColumn"`
	}
)
