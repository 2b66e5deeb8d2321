package command

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/upload"
)

// changeFilter says which findings the change's diff touches, by the diff-filter mode, with one
// line on what it hid: annotations and the job summary show those, as a pull request shows them
// (the SARIF keeps every result; code scanning filters by itself). The diff comes from git when a base is given, else from the API for the
// event's pull request (the image has no git, and checkouts are often shallow), else from git
// against the pull request's base commit; pre is the diff read once before collecting, when it
// was. With no filter, on a push, or when the diff cannot be
// had (the warning says why), it returns nil: no diff applies.
func changeFilter(ctx context.Context, gha *githubactions.Action, ghc *githubactions.GitHubContext, in actionInputs, res *collect.Result, pre loadedDiff) (func(*findings.Finding) bool, string) {
	if in.DiffFilter == difffilter.NoFilter {
		return nil, ""
	}
	d, against, err := pre.d, pre.against, pre.err
	if !pre.tried {
		d, against, err = loadDiff(ctx, ghc, in, res.Root)
	}
	if d == nil && err == nil { // nothing to compare with: a push
		return nil, ""
	}
	if err != nil {
		gha.Warningf("%s", fmt.Sprintf("diff-filter %s: could not read the diff of %s, so every finding is shown: %v", in.DiffFilter, against, err))
		return nil, ""
	}
	keep := func(f *findings.Finding) bool {
		return f.Location == nil || d.Keep(f.Location.Path, f.Location.StartLine, f.Location.EndLine, in.DiffFilter)
	}
	kept := 0
	for i := range res.Findings {
		if keep(&res.Findings[i]) {
			kept++
		}
	}
	hidden := len(res.Findings) - kept
	if hidden == 0 {
		return keep, ""
	}
	where := "listed below and in the SARIF file"
	if len(res.LeftOut) > 0 { // no claim that is not true: some results were left out of the SARIF
		where = "listed below (the SARIF file holds the heaviest of them)"
	}
	return keep, fmt.Sprintf("Annotations show the %s on lines this change touches (diff-filter %s against %s), and every finding that fails the step; the %s %s.",
		plural(kept, "finding", "findings"), in.DiffFilter, against, othersAre(hidden), where)
}

// othersAre words the findings the annotations leave out: "the other one is", "the 3 others are".
func othersAre(n int) string {
	if n == 1 {
		return "other one is"
	}
	return fmt.Sprintf("%d others are", n)
}

// loadedDiff is the change's diff as read once before collecting, for anchoring and filtering.
type loadedDiff struct {
	d       *difffilter.Diff
	against string
	err     error
	tried   bool
}

// changeDiff reads the change's diff before collecting, so that events can be anchored beside
// their session's edits (input session-anchor: edit). A diff that cannot be had is a warning
// (changeFilter gives it again when it filters); events then keep the hook's line.
func changeDiff(ctx context.Context, gha *githubactions.Action, ghc *githubactions.GitHubContext, in actionInputs, workspace string) loadedDiff {
	if in.SessionAnchor == anchor.SessionConfig {
		return loadedDiff{}
	}
	root := workspace
	if in.Root != "" {
		root = in.Root
		if !filepath.IsAbs(root) {
			root = filepath.Join(workspace, root)
		}
	}
	d, against, err := loadDiff(ctx, ghc, in, root)
	if err != nil && in.DiffFilter == difffilter.NoFilter {
		gha.Warningf("%s", fmt.Sprintf("session-anchor edit: could not read the diff of %s, so events stay at the hook's line: %v", against, err))
	}
	return loadedDiff{d: d, against: against, err: err, tried: true}
}

// loadDiff finds the change's diff, and names what it was taken against. It returns no diff and
// no error when there is nothing to compare with.
func loadDiff(ctx context.Context, ghc *githubactions.GitHubContext, in actionInputs, root string) (*difffilter.Diff, string, error) {
	if in.Base != "" {
		d, err := difffilter.Load(ctx, root, in.Base)
		return d, short(in.Base), err
	}
	pr, ok := ghenv.PullRequestOf(ghc.Event)
	if !ok {
		return nil, "", nil
	}
	against := fmt.Sprintf("pull request #%d", pr.Number)
	owner, repo := ghc.Repo()
	var apiErr error
	if in.Token != "" && owner != "" {
		client, err := upload.New(upload.Options{APIURL: ghc.APIURL, Token: in.Token, UserAgent: "agc-sarif/" + Version})
		if err == nil {
			var text string
			if text, err = client.PullRequestDiff(ctx, owner, repo, pr.Number); err == nil {
				d, err := difffilter.Parse(strings.NewReader(text))
				return d, against, err
			}
		}
		apiErr = err
	}
	if base := pullRequestBase(ghc); base != "" {
		d, err := difffilter.Load(ctx, root, base)
		if err == nil {
			return d, against, nil
		}
		if apiErr != nil {
			err = fmt.Errorf("from the API: %v; with git: %w (give the token pull-requests: read, or fetch the base commit: actions/checkout with fetch-depth: 0)", apiErr, err)
		}
		return nil, against, err
	}
	if apiErr == nil {
		apiErr = fmt.Errorf("no token to read it from the API, and the event names no base commit")
	}
	return nil, against, apiErr
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
