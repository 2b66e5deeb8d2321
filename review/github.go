package review

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v93/github"

	"github.com/agc-sarif/agc-sarif/upload"
)

// Target is the pull request a review is for.
type Target struct {
	Owner, Repo string
	Number      int
	CommitID    string // the head commit the comments' lines belong to
}

// Request is the body of POST /repos/{owner}/{repo}/pulls/{number}/reviews, as sent.
type Request struct {
	CommitID string    `json:"commit_id"`
	Body     string    `json:"body"`
	Event    string    `json:"event"`
	Comments []Comment `json:"comments"`
}

// Request is the review the plan posts on commit.
func (p Plan) Request(commit string) Request {
	return Request{CommitID: commit, Body: p.Body(), Event: "COMMENT", Comments: p.Comments}
}

// Client talks to the pull-request review API of GitHub or GHES.
type Client struct {
	gh      *github.Client
	graphql string
}

// ClientOptions configure a Client.
type ClientOptions struct {
	APIURL     string // GITHUB_API_URL; "" means https://api.github.com
	GraphQLURL string // GITHUB_GRAPHQL_URL; "" means the API URL's (…/graphql, or /api/graphql on GHES)
	Token      string
	UserAgent  string
	HTTPClient *http.Client // nil: one with a 60 s timeout
}

// NewClient makes a client; it needs a token with pull-requests: write.
func NewClient(o ClientOptions) (*Client, error) {
	if o.Token == "" {
		return nil, &RefusedError{Op: "review", Message: "no token"}
	}
	if o.APIURL == "" {
		o.APIURL = "https://api.github.com"
	}
	u, err := url.Parse(o.APIURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("API URL %q: want http(s)://host[/path]", o.APIURL)
	}
	if o.GraphQLURL == "" {
		o.GraphQLURL = graphQLURL(u)
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	}
	if o.UserAgent == "" {
		o.UserAgent = "agc-sarif"
	}
	base := o.APIURL
	gh, err := github.NewClient(github.WithHTTPClient(upload.BoundHTTP(o.HTTPClient)), github.WithAuthToken(o.Token),
		github.WithURLs(&base, &base), github.WithUserAgent(o.UserAgent), github.WithDisableRateLimitCheck())
	if err != nil {
		return nil, fmt.Errorf("making the GitHub client: %w", err)
	}
	return &Client{gh: gh, graphql: o.GraphQLURL}, nil
}

// graphQLURL is the GraphQL endpoint beside a REST API URL: https://api.github.com/graphql, or
// https://HOST/api/graphql for GHES's https://HOST/api/v3.
func graphQLURL(api *url.URL) string {
	u := *api
	p := strings.TrimSuffix(u.Path, "/")
	if strings.HasSuffix(p, "/v3") {
		p = strings.TrimSuffix(p, "/v3")
	}
	u.Path = p + "/graphql"
	return u.String()
}

// RefusedError is GitHub refusing the review (401, 403, 404) or no token: the run goes on with
// annotations only.
type RefusedError struct {
	Op      string
	Code    int
	Message string
}

func (e *RefusedError) Error() string {
	if e.Code == 0 {
		return e.Op + ": " + e.Message
	}
	return fmt.Sprintf("%s: HTTP %d: %s", e.Op, e.Code, e.Message)
}

// wrap turns a go-github failure into a *RefusedError for 401/403/404, else a wrapped error.
func wrap(op string, resp *github.Response, err error) error {
	msg := err.Error()
	var er *github.ErrorResponse
	if errors.As(err, &er) {
		msg = er.Message
	}
	if resp != nil && resp.Response != nil {
		switch resp.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			return &RefusedError{Op: op, Code: resp.StatusCode, Message: msg}
		}
		return fmt.Errorf("%s: HTTP %d: %s", op, resp.StatusCode, msg)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// Comments lists every review comment of the pull request, following the Link header's pages.
// (go-github's ListComments asks for retired preview media types; this sends the documented one.)
func (c *Client) Comments(ctx context.Context, t Target) ([]Existing, error) {
	var out []Existing
	for page := 1; page != 0; {
		if page > 100 {
			return out, fmt.Errorf("listing review comments: stopped after 100 pages")
		}
		path := fmt.Sprintf("repos/%s/%s/pulls/%d/comments?per_page=100&page=%d", url.PathEscape(t.Owner), url.PathEscape(t.Repo), t.Number, page)
		req, err := c.gh.NewRequest(ctx, http.MethodGet, path, nil)
		if err != nil {
			return nil, fmt.Errorf("listing review comments: %w", err)
		}
		var list []*github.PullRequestComment
		resp, err := c.gh.Do(req, &list)
		if err != nil {
			return nil, wrap("listing review comments", resp, err)
		}
		for _, pc := range list {
			out = append(out, Existing{ID: pc.GetID(), NodeID: pc.GetNodeID(), Body: pc.GetBody(), InReplyTo: pc.GetInReplyTo()})
		}
		page = resp.NextPage
	}
	return out, nil
}

// Post creates one review (event COMMENT) and returns its id.
func (c *Client) Post(ctx context.Context, t Target, r Request) (int64, error) {
	path := fmt.Sprintf("repos/%s/%s/pulls/%d/reviews", url.PathEscape(t.Owner), url.PathEscape(t.Repo), t.Number)
	req, err := c.gh.NewRequest(ctx, http.MethodPost, path, r)
	if err != nil {
		return 0, fmt.Errorf("posting the review: %w", err)
	}
	var got github.PullRequestReview
	resp, err := c.gh.Do(req, &got)
	if err != nil {
		return 0, wrap("posting the review", resp, err)
	}
	return got.GetID(), nil
}

// minimizeQuery hides a comment as outdated (GraphQL minimizeComment).
const minimizeQuery = `mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: OUTDATED}) { minimizedComment { isMinimized } } }`

// Minimize hides a comment as outdated.
func (c *Client) Minimize(ctx context.Context, nodeID string) error {
	body := map[string]any{"query": minimizeQuery, "variables": map[string]string{"id": nodeID}}
	req, err := c.gh.NewRequest(ctx, http.MethodPost, c.graphql, body)
	if err != nil {
		return fmt.Errorf("minimising comment %s: %w", nodeID, err)
	}
	var got struct {
		Data struct {
			MinimizeComment struct {
				MinimizedComment struct {
					IsMinimized bool `json:"isMinimized"`
				} `json:"minimizedComment"`
			} `json:"minimizeComment"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	resp, err := c.gh.Do(req, &got)
	if err != nil {
		return wrap("minimising comment "+nodeID, resp, err)
	}
	if len(got.Errors) > 0 {
		return fmt.Errorf("minimising comment %s: %s", nodeID, got.Errors[0].Message)
	}
	if !got.Data.MinimizeComment.MinimizedComment.IsMinimized {
		return fmt.Errorf("minimising comment %s: GitHub did not minimise it", nodeID)
	}
	return nil
}

// Result is what one review run did.
type Result struct {
	Plan      Plan
	ReviewID  int64 // 0 when no review was posted
	Minimized int
}

// Run lists the pull request's review comments, posts one review with the comments not yet
// there (none when nothing is new), and minimises its own earlier comments whose finding is
// gone. A *RefusedError means GitHub refused (fork, permissions): nothing more was tried.
func Run(ctx context.Context, c *Client, t Target, items []Item, opts Options) (Result, error) {
	existing, err := c.Comments(ctx, t)
	if err != nil {
		return Result{}, err
	}
	res := Result{Plan: Make(items, existing, opts)}
	if len(res.Plan.Comments) > 0 {
		if res.ReviewID, err = c.Post(ctx, t, res.Plan.Request(t.CommitID)); err != nil {
			return res, err
		}
	}
	for _, e := range res.Plan.Outdated {
		if err := c.Minimize(ctx, e.NodeID); err != nil {
			return res, err
		}
		res.Minimized++
	}
	return res, nil
}

// IsRefused reports whether err is GitHub (or a missing token) refusing the review.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}
