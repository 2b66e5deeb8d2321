package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agc-sarif/agc-sarif/annotate"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/summary"
)

// Files a preview writes, in its folder.
const (
	previewSummary     = "summary.md"
	previewAnnotations = "annotations.txt"
	previewSARIF       = "agc-results.sarif"
)

// writePreview writes what the action would show on GitHub into dir, without GitHub: the job
// summary (summary.md), the annotations as the workflow commands the runner reads
// (annotations.txt) and the SARIF (agc-results.sarif). Every finding is annotated, as with
// diff-filter nofilter; links are plain paths. See docs/workflows.md ("Preview locally").
func writePreview(env *Env, dir string, res *collect.Result, failOn []collect.Outcome) error {
	if !isAbs(dir) {
		dir = join(env.Dir, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--preview: %w", err)
	}
	fails := func(f *findings.Finding) bool { return collect.Fails(failOn, f) }
	md := summary.Render(summary.Input{Findings: res.Findings, Set: res.Set, LeftOut: res.LeftOut,
		Missing: unreadInputs(res), Failed: outcomeNames(res.Failed), SARIFFile: previewSARIF, Fails: fails,
		Checks: runtimes.Checks()})
	var ann bytes.Buffer
	annotate.Write(&ann, res.Findings, annotate.Options{SARIFFile: previewSARIF, Fails: fails, Partial: len(res.LeftOut) > 0})
	for name, data := range map[string][]byte{previewSummary: []byte(md), previewAnnotations: ann.Bytes(), previewSARIF: res.SARIF} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("--preview: could not write %s: %w", filepath.Join(dir, name), err)
		}
	}
	fmt.Fprintf(env.Stderr, "agc-sarif: preview written to %s: %s (job summary), %s (annotations), %s\n",
		dir, previewSummary, previewAnnotations, previewSARIF)
	return nil
}
