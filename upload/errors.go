package upload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v93/github"

	"github.com/agc-sarif/agc-sarif/internal/plural"
)

// Kind sorts upload failures by what the user can do about them.
type Kind string

// Kinds of upload failure.
const (
	Invalid     Kind = "invalid"     // the request was wrong before sending, or GitHub said 400/422
	Auth        Kind = "auth"        // 401: the token is bad
	NotEnabled  Kind = "not-enabled" // 403: no permission, code scanning off, fork pull request, archived
	NotFound    Kind = "not-found"   // 404: no such repository (or the token cannot see it)
	TooLarge    Kind = "too-large"   // 413 or over the gzip limit
	Unavailable Kind = "unavailable" // 5xx, 429, rate limits or network errors, after every try
	Failed      Kind = "failed"      // GitHub processed the SARIF and failed
	Timeout     Kind = "timeout"     // processing did not finish in time
	Unexpected  Kind = "unexpected"  // an answer the API does not document
)

// Error is a failed upload or status request.
type Error struct {
	Op      string // "upload" or "status"
	Kind    Kind
	Code    int      // HTTP status (0 when none)
	Message string   // GitHub's message, or ours
	Errors  []string // processing errors, for Kind Failed
}

func (e *Error) Error() string {
	s := e.Op + ": "
	if e.Code != 0 {
		s += fmt.Sprintf("HTTP %d: ", e.Code)
	}
	s += e.Message
	if h := e.Hint(); h != "" {
		s += " (" + h + ")"
	}
	return s
}

// Hint says what to change so that the next upload works.
func (e *Error) Hint() string {
	switch e.Kind {
	case Auth:
		return "the token was refused: check the token input or GITHUB_TOKEN"
	case NotEnabled:
		return "give the job `permissions: security-events: write`; on a private repository enable GitHub Code Security (Advanced Security); " +
			"pull requests from forks get a read-only token, so upload from the base repository (workflow_run) or set upload: false there"
	case NotFound:
		return "check the repository name and that the token can see it; on GHES check GITHUB_API_URL"
	case TooLarge:
		return "code scanning takes at most 10 MB gzipped; narrow the paths input or split by category"
	}
	return ""
}

// IsKind reports whether err is an upload *Error of kind k.
func IsKind(err error, k Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

// classify turns a go-github answer into an *Error, and says whether the request may be tried
// again and after how long (0: use the backoff).
func classify(op string, resp *github.Response, err error) (e *Error, retry bool, after time.Duration) {
	code := 0
	var header http.Header
	if resp != nil && resp.Response != nil {
		code = resp.StatusCode
		header = resp.Header
	}
	msg := err.Error()
	var er *github.ErrorResponse
	var rl *github.RateLimitError
	var ab *github.AbuseRateLimitError
	if e := boundError(op, code, err); e != nil {
		return e, false, 0 // the same server answers the same way on a second try
	}
	switch {
	case errors.As(err, &er):
		msg = er.Message
	case errors.As(err, &rl):
		msg, retry = rl.Message, true
		after = time.Until(rl.Rate.Reset.Time)
	case errors.As(err, &ab):
		msg, retry = ab.Message, true
		if ab.RetryAfter != nil {
			after = *ab.RetryAfter
		}
	}
	if msg == "" {
		msg = http.StatusText(code)
	}
	if code == 0 {
		msg = unreachable(err)
	}
	e = &Error{Op: op, Code: code, Message: msg}
	if d, ok := retryAfter(header); ok {
		after = d
	}
	switch {
	case code == 0:
		e.Kind, retry = Unavailable, !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	case code == http.StatusTooManyRequests || code >= 500:
		e.Kind, retry = Unavailable, true
	case retry: // a 403 rate limit
		e.Kind = Unavailable
	case code == http.StatusUnauthorized:
		e.Kind = Auth
	case code == http.StatusForbidden:
		e.Kind = NotEnabled
		if header.Get("X-RateLimit-Remaining") == "0" || strings.Contains(strings.ToLower(msg), "rate limit") {
			e.Kind, retry = Unavailable, true
		}
	case code == http.StatusNotFound:
		e.Kind = NotFound
	case code == http.StatusRequestEntityTooLarge:
		e.Kind = TooLarge
	case code == http.StatusBadRequest || code == http.StatusUnprocessableEntity:
		e.Kind = Invalid
	default:
		e.Kind = Unexpected
	}
	return e, retry, after
}

// unreachable words a request that got no answer: "could not reach HOST: ERROR", without the
// method and URL the transport's error repeats.
func unreachable(err error) string {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err.Error()
	}
	host := ue.URL
	if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
		host = u.Host
	}
	return "could not reach " + host + ": " + ue.Err.Error()
}

// maxUnreachableWait bounds the waits between tries of a request that reached no server: when
// the next wait would pass it, the request gives up, so that an unreachable API stops the step
// within seconds (docs/upload.md).
const maxUnreachableWait = 5 * time.Second

// boundError is the *Error for a body over its bound or a redirect to another origin, else nil.
func boundError(op string, code int, err error) *Error {
	var big *BodyTooLargeError
	var away *CrossOriginRedirectError
	switch {
	case errors.As(err, &big):
		return &Error{Op: op, Kind: Unexpected, Code: code, Message: big.Error()}
	case errors.As(err, &away):
		return &Error{Op: op, Kind: Unexpected, Code: code, Message: away.Error()}
	}
	return nil
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date.
func retryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// retry runs call until it succeeds, fails for good, or has been tried MaxAttempts times.
func (c *Client) retry(ctx context.Context, op string, call func() (*github.Response, error)) error {
	backoff := time.Second
	var waitedUnreachable time.Duration
	for attempt := 1; ; attempt++ {
		resp, err := call()
		var accepted *github.AcceptedError
		if err == nil || errors.As(err, &accepted) {
			return nil
		}
		e, again, after := classify(op, resp, err)
		if !again || attempt >= c.opts.MaxAttempts {
			return e
		}
		if after <= 0 {
			after = backoff
			backoff *= 2
		}
		if after > c.opts.MaxRetryAfter {
			e.Message += fmt.Sprintf("; GitHub asked to wait %s, longer than %s", after.Round(time.Second), c.opts.MaxRetryAfter)
			return e
		}
		what := fmt.Sprintf("HTTP %d %s", e.Code, e.Message)
		if e.Code == 0 {
			if waitedUnreachable += after; waitedUnreachable > maxUnreachableWait {
				e.Message += fmt.Sprintf(" (tried %s)", plural.N(attempt, "time", "times"))
				return e
			}
			what = e.Message
		}
		c.opts.Logf("%s: %s; trying again in %s (%d of %d)", op, what, after.Round(time.Millisecond), attempt+1, c.opts.MaxAttempts)
		if err := c.opts.Sleep(ctx, after); err != nil {
			return &Error{Op: op, Kind: Unavailable, Code: e.Code, Message: e.Message + "; " + err.Error()}
		}
	}
}
