package sarif

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"
)

// SimpleRule is a rule of a check that is not an AGC gate (the permissions lint, the guard
// probe): its id, the title GitHub shows (shortDescription) and its help.
type SimpleRule struct {
	ID, Title, Help string
}

// SimpleResult is one result of a SimpleRule on a repository file's line.
type SimpleResult struct {
	Rule    string
	Level   string // error, warning or note
	File    string // relative to Root, slash-separated
	Line    int    // 1-based; 0 places the result on the file's first line
	Message string
}

// SimpleLog is a SARIF log of one tool's results on repository files.
type SimpleLog struct {
	Tool, Version, Category string
	Root                    string // the repository the files are in, for primaryLocationLineHash
	Rules                   []SimpleRule
	Results                 []SimpleResult
}

// Simple writes a SARIF 2.1.0 log for code scanning through go-sarif, around its known bugs:
// every rule is added before its results and carries both descriptions and help, fingerprints
// are whole maps, and the log is encoded to a buffer (WriteFile does not truncate).
func Simple(l SimpleLog) ([]byte, error) {
	rep, err := gosarif.New(gosarif.Version210, true)
	if err != nil {
		return nil, fmt.Errorf("creating SARIF log: %w", err)
	}
	d := gosarif.NewDriver(l.Tool)
	if l.Version != "" {
		d.WithVersion(l.Version)
		if semver.MatchString(l.Version) {
			d.WithSemanticVersion(l.Version)
		}
	}
	run := gosarif.NewRun(gosarif.Tool{Driver: d})
	if l.Category != "" {
		run.WithAutomationDetails(gosarif.NewRunAutomationDetails().WithID(normalCategory(l.Category)))
	}
	run.WithOriginalUriBaseIds(map[string]*gosarif.ArtifactLocation{
		srcRoot: gosarif.NewArtifactLocation().WithDescriptionText("The root of the repository the results are about."),
	})
	known := map[string]bool{}
	rules := append([]SimpleRule(nil), l.Rules...)
	sort.Slice(rules, func(i, j int) bool { return rules[i].ID < rules[j].ID })
	for _, r := range rules {
		known[r.ID] = true
		run.AddRule(r.ID).WithName(r.ID).
			WithShortDescription(gosarif.NewMultiformatMessageString(r.Title)).
			WithFullDescription(gosarif.NewMultiformatMessageString(r.Title)).
			WithHelp(gosarif.NewMultiformatMessageString(r.Help))
	}
	hashes := map[string][]string{}
	for _, res := range l.Results {
		if !known[res.Rule] {
			return nil, fmt.Errorf("result of rule %q, which the log does not declare", res.Rule)
		}
		line := res.Line
		if line < 1 {
			line = 1
		}
		file := filepath.ToSlash(res.File)
		r := gosarif.NewRuleResult(res.Rule).WithLevel(res.Level).WithMessage(gosarif.NewTextMessage(res.Message))
		r.AddLocation(gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().
			WithArtifactLocation(gosarif.NewSimpleArtifactLocation(file).WithUriBaseId(srcRoot)).
			WithRegion(gosarif.NewRegion().WithStartLine(line))))
		h, ok := hashes[file]
		if !ok && l.Root != "" {
			if f, err := os.Open(filepath.Join(l.Root, filepath.FromSlash(file))); err == nil {
				h, _ = LineHashes(f)
				f.Close()
			}
			hashes[file] = h
		}
		if line <= len(h) {
			r.WithPartialFingerPrints(map[string]interface{}{"primaryLocationLineHash": h[line-1]})
		}
		run.AddResult(r)
	}
	rep.AddRun(run)
	if err := checkRules(run); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := rep.PrettyWrite(&buf); err != nil {
		return nil, fmt.Errorf("encoding SARIF: %w", err)
	}
	return buf.Bytes(), nil
}
