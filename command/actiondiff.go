package command

import (
	"context"
	"fmt"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
)

// filterByDiff picks the findings that annotations and the job summary show: those the change's
// diff touches, by the diff-filter mode, as a pull request shows them (the SARIF keeps every
// result; code scanning filters by itself). Without a base — a push, or a shallow checkout that
// lacks the base commit — every finding is shown, and the note says why.
func filterByDiff(ctx context.Context, gha *githubactions.Action, ghc *githubactions.GitHubContext, in actionInputs, res *collect.Result) ([]findings.Finding, string) {
	if in.DiffFilter == difffilter.NoFilter {
		return res.Findings, ""
	}
	base := in.Base
	if base == "" {
		base = pullRequestBase(ghc)
	}
	if base == "" {
		return res.Findings, ""
	}
	d, err := difffilter.Load(ctx, res.Root, base)
	if err != nil {
		gha.Warningf("%s", fmt.Sprintf("diff-filter %s: could not read the diff against %s, so every finding is shown (fetch the base commit, e.g. actions/checkout with fetch-depth: 0): %v", in.DiffFilter, base, err))
		return res.Findings, ""
	}
	kept, hidden := keepInDiff(d, in.DiffFilter, res.Findings)
	if hidden == 0 {
		return kept, ""
	}
	return kept, fmt.Sprintf("Showing the %d findings on lines this change touches (diff-filter %s against %s); %d more are in the SARIF file.",
		len(kept), in.DiffFilter, short(base), hidden)
}

// keepInDiff splits findings into those the diff keeps in mode m, and a count of the rest.
func keepInDiff(d *difffilter.Diff, m difffilter.Mode, fs []findings.Finding) ([]findings.Finding, int) {
	var kept []findings.Finding
	for _, f := range fs {
		if f.Location == nil || d.Keep(f.Location.Path, f.Location.StartLine, f.Location.EndLine, m) {
			kept = append(kept, f)
		}
	}
	return kept, len(fs) - len(kept)
}

// pullRequestBase is the base commit of the pull request the event is about, or "".
func pullRequestBase(ghc *githubactions.GitHubContext) string {
	pr, _ := ghc.Event["pull_request"].(map[string]any)
	base, _ := pr["base"].(map[string]any)
	sha, _ := base["sha"].(string)
	return sha
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
