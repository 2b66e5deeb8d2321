package command

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/agc-sarif/agc-sarif/annotate"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/friction"
	"github.com/agc-sarif/agc-sarif/internal/safewrite"
	"github.com/agc-sarif/agc-sarif/summary"
)

// Files a preview writes, in its folder.
const (
	previewSummary     = "summary.md"
	previewAnnotations = "annotations.txt"
	previewSARIF       = "agc-results.sarif"
	// previewUpload is the summary's line on code scanning: a preview uploads nothing.
	previewUpload = "not uploaded (a preview)."
)

// writePreview writes what the action would show on GitHub into dir, without GitHub: the job
// summary (summary.md), the annotations as the workflow commands the runner reads
// (annotations.txt) and the SARIF (agc-results.sarif). Every finding is annotated, as with
// diff-filter nofilter; links are plain paths. The summary is the action's (jobSummary), Friction
// section included, from tap, which read the same pass. See docs/workflows.md ("Preview locally").
func writePreview(env *Env, dir string, res *collect.Result, tap *friction.Tap, failOn []collect.Outcome) error {
	if !isAbs(dir) {
		dir = join(env.Dir, dir)
	}
	fails := func(f *findings.Finding) bool { return collect.Fails(failOn, f) }
	md := jobSummary(env, tap, res, summary.Input{SARIFFile: previewSARIF, Upload: previewUpload, Fails: fails})
	var ann bytes.Buffer
	annotate.Write(&ann, res.Findings, annotate.Options{SARIFFile: previewSARIF, Fails: fails, Partial: len(res.LeftOut) > 0})
	for _, f := range []struct {
		name string
		data []byte
	}{{previewSummary, []byte(md)}, {previewAnnotations, ann.Bytes()}, {previewSARIF, res.SARIF}} {
		if err := safewrite.WriteFile(env.Dir, filepath.Join(dir, f.name), f.data); err != nil {
			return fmt.Errorf("--preview: %w", err)
		}
	}
	fmt.Fprintf(env.Stderr, "agc-sarif: preview written to %s: %s (job summary), %s (annotations), %s\n",
		dir, previewSummary, previewAnnotations, previewSARIF)
	return nil
}
