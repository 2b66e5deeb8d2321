// Package upload sends a SARIF log to GitHub code scanning (POST /repos/{owner}/{repo}/code-scanning/sarifs)
// and waits for GitHub to process it, retrying what may pass on a second try and naming what to
// enable when code scanning refuses.
package upload

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/go-github/v93/github"

	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// MaxGzipSize is the largest gzipped SARIF code scanning accepts.
const MaxGzipSize = 10 << 20

// Request is one SARIF upload.
type Request struct {
	Owner, Repo string
	Ref         string // full ref: refs/heads/…, refs/tags/…, refs/pull/N/merge or refs/pull/N/head
	SHA         string // the 40-hex commit Ref points at
	SARIF       []byte // the SARIF log as JSON
	CheckoutURI string // file URI of the checkout ("" to leave out)
	StartedAt   time.Time
	ToolName    string
}

// Receipt is GitHub's answer to an accepted upload.
type Receipt struct {
	ID  string
	URL string
}

// Status is the processing state of an upload.
type Status struct {
	ProcessingStatus string   `json:"processing_status"` // pending, complete or failed
	AnalysesURL      string   `json:"analyses_url,omitempty"`
	Errors           []string `json:"errors,omitempty"`
}

// Options configure a Client.
type Options struct {
	APIURL string // GITHUB_API_URL; "" means https://api.github.com
	Token  string
	// HTTPClient makes the requests (nil means one with a 60 s timeout per request). A copy of
	// it is used, which follows redirects only within the API's origin and bounds every body.
	HTTPClient *http.Client
	UserAgent  string
	// MaxAttempts is how often one request is tried (on 5xx, 429, rate limits, network errors);
	// 0 means 4.
	MaxAttempts int
	// MaxRetryAfter is the longest Retry-After honoured; longer waits give up. 0 means 60 s.
	MaxRetryAfter time.Duration
	// Sleep waits between tries and polls; nil means a timer that stops when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logf reports retries and polls; nil discards them. It never receives the token.
	Logf func(format string, args ...any)
}

// Client uploads SARIF to one GitHub API.
type Client struct {
	gh   *github.Client
	opts Options
}

// New makes a client for the API at opts.APIURL (github.com or GHES, whose URL ends in /api/v3).
func New(opts Options) (*Client, error) {
	if opts.Token == "" {
		return nil, errors.New("no token: set the token input or GITHUB_TOKEN (it needs security-events: write)")
	}
	if opts.APIURL == "" {
		opts.APIURL = "https://api.github.com"
	}
	u, err := url.Parse(opts.APIURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("API URL %q: want http(s)://host[/path]", opts.APIURL)
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 60 * time.Second}
	}
	// Same-origin redirects only and bounded bodies, for every request the client makes.
	opts.HTTPClient = boundHTTP(opts.HTTPClient)
	if opts.UserAgent == "" {
		opts.UserAgent = "agc-sarif"
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 4
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = 60 * time.Second
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	base := opts.APIURL
	gh, err := github.NewClient(github.WithHTTPClient(opts.HTTPClient), github.WithAuthToken(opts.Token),
		github.WithURLs(&base, &base), github.WithUserAgent(opts.UserAgent), github.WithDisableRateLimitCheck())
	if err != nil {
		return nil, fmt.Errorf("making the GitHub client: %w", err)
	}
	return &Client{gh: gh, opts: opts}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

var nameRE = lazyre.New(`^[A-Za-z0-9_.-]+$`)

// Check reports what is wrong with a request before anything is sent.
func (r *Request) Check() error {
	if !nameRE.MatchString(r.Owner) || !nameRE.MatchString(r.Repo) || r.Repo == "." || r.Repo == ".." {
		return fmt.Errorf("repository %q/%q: want owner/name", r.Owner, r.Repo)
	}
	if err := ghenv.CheckRef(r.Ref); err != nil {
		return err
	}
	if !ghenv.IsSHA(r.SHA) {
		return fmt.Errorf("commit %q: want the full 40-hex commit id", r.SHA)
	}
	if len(bytes.TrimSpace(r.SARIF)) == 0 {
		return errors.New("the SARIF log is empty")
	}
	return nil
}

// Encode gzips and base64-encodes a SARIF log as the API wants it; it fails when the gzipped
// log is over MaxGzipSize.
func Encode(sarif []byte) (string, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(sarif); err != nil {
		return "", fmt.Errorf("gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return "", fmt.Errorf("gzip: %w", err)
	}
	if buf.Len() > MaxGzipSize {
		return "", &Error{Op: "upload", Kind: TooLarge, Code: http.StatusRequestEntityTooLarge,
			Message: fmt.Sprintf("the gzipped SARIF is %d bytes, over code scanning's limit of %d", buf.Len(), MaxGzipSize)}
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// Upload sends the SARIF log and returns GitHub's receipt.
func (c *Client) Upload(ctx context.Context, r Request) (*Receipt, error) {
	if err := r.Check(); err != nil {
		return nil, &Error{Op: "upload", Kind: Invalid, Message: err.Error()}
	}
	enc, err := Encode(r.SARIF)
	if err != nil {
		return nil, err
	}
	body := github.SarifAnalysis{CommitSHA: strings.ToLower(r.SHA), Ref: r.Ref, Sarif: enc}
	if r.CheckoutURI != "" {
		body.CheckoutURI = github.Ptr(r.CheckoutURI)
	}
	if !r.StartedAt.IsZero() {
		body.StartedAt = &github.Timestamp{Time: r.StartedAt.UTC().Truncate(time.Second)}
	}
	if r.ToolName != "" {
		body.ToolName = github.Ptr(r.ToolName)
	}
	var id *github.SarifID
	err = c.retry(ctx, "upload", func() (*github.Response, error) {
		var resp *github.Response
		var err error
		id, resp, err = c.gh.CodeScanning.UploadSarif(ctx, r.Owner, r.Repo, body)
		return resp, err
	})
	if err != nil {
		return nil, err
	}
	if id == nil || id.GetID() == "" {
		return nil, &Error{Op: "upload", Kind: Unexpected, Message: "GitHub accepted the upload but sent no SARIF id"}
	}
	return &Receipt{ID: id.GetID(), URL: id.GetURL()}, nil
}

// Status asks once how far GitHub got with an upload. go-github's GetSARIF drops the `errors`
// field of the answer, so this sends the same request through go-github and decodes it here.
func (c *Client) Status(ctx context.Context, owner, repo, id string) (*Status, error) {
	if !nameRE.MatchString(id) {
		return nil, &Error{Op: "status", Kind: Invalid, Message: fmt.Sprintf("SARIF id %q", id)}
	}
	path := fmt.Sprintf("repos/%s/%s/code-scanning/sarifs/%s", url.PathEscape(owner), url.PathEscape(repo), url.PathEscape(id))
	var st Status
	err := c.retry(ctx, "status", func() (*github.Response, error) {
		req, err := c.gh.NewRequest(ctx, http.MethodGet, path, nil)
		if err != nil {
			return nil, err
		}
		st = Status{}
		return c.gh.Do(req, &st)
	})
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// Wait polls an upload's status at once and then after doubling pauses (5 s, 10 s, 20 s, …) until
// it is complete or failed, or until max has passed. A failed upload is an *Error of Kind Failed
// carrying GitHub's errors; running out of time is Kind Timeout with the last status.
func (c *Client) Wait(ctx context.Context, owner, repo, id string, max time.Duration) (*Status, error) {
	pause, waited := 5*time.Second, time.Duration(0)
	for {
		st, err := c.Status(ctx, owner, repo, id)
		if err != nil {
			return nil, err
		}
		switch st.ProcessingStatus {
		case "complete":
			return st, nil
		case "failed":
			return st, &Error{Op: "status", Kind: Failed, Errors: st.Errors,
				Message: "code scanning could not process the SARIF: " + strings.Join(st.Errors, "; ")}
		}
		c.opts.Logf("SARIF %s is %s after %s", id, st.ProcessingStatus, waited)
		if waited >= max {
			return st, &Error{Op: "status", Kind: Timeout,
				Message: fmt.Sprintf("SARIF %s was still %s after %s", id, st.ProcessingStatus, max)}
		}
		pause = min(pause, max-waited)
		if err := c.opts.Sleep(ctx, pause); err != nil {
			return st, &Error{Op: "status", Kind: Timeout, Message: err.Error()}
		}
		waited += pause
		pause *= 2
	}
}
