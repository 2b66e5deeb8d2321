package upload

import (
	"context"
	"fmt"
	"net/url"

	"github.com/google/go-github/v93/github"
)

// PullRequestDiff fetches the unified diff of pull request number (GET
// /repos/{owner}/{repo}/pulls/{number} with the diff media type), as reviewdog does. The Action's
// image has no git and a checkout is often shallow, so the API is how the diff filter learns which
// lines a pull request adds; a read-only token (a fork's) may read it.
func (c *Client) PullRequestDiff(ctx context.Context, owner, repo string, number int) (string, error) {
	if !nameRE.MatchString(owner) || !nameRE.MatchString(repo) || number <= 0 {
		return "", &Error{Op: "pull request diff", Kind: Invalid, Message: fmt.Sprintf("pull request %s/%s#%d", url.PathEscape(owner), url.PathEscape(repo), number)}
	}
	var diff string
	ctx = withBodyLimit(ctx, MaxDiffBody)
	err := c.retry(ctx, "pull request diff", func() (*github.Response, error) {
		d, resp, err := c.gh.PullRequests.GetRaw(ctx, owner, repo, number, github.RawOptions{Type: github.Diff})
		diff = d
		return resp, err
	})
	return diff, err
}
