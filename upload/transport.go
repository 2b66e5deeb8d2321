package upload

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Bounds of one response body read. GitHub's JSON answers are a few KiB; a pull request's diff
// can run to megabytes. A server that sends more is answered with a BodyTooLargeError.
const (
	MaxResponseBody = 1 << 20
	MaxDiffBody     = 64 << 20
)

// maxRedirects is how many same-origin redirects one request follows.
const maxRedirects = 5

// BodyTooLargeError is a response body longer than the bound of its request.
type BodyTooLargeError struct {
	Limit int64
}

func (e *BodyTooLargeError) Error() string {
	return fmt.Sprintf("the server's answer is over %d bytes: not read further", e.Limit)
}

// CrossOriginRedirectError is a redirect to another origin, which is not followed: following
// it would send the SARIF (on 307/308) and the token to a server other than the API's.
type CrossOriginRedirectError struct {
	From, To string // origins: scheme://host:port
}

func (e *CrossOriginRedirectError) Error() string {
	return fmt.Sprintf("the API at %s redirected to another origin, %s: not followed (the token and the SARIF go only to the API's origin)", e.From, e.To)
}

// bodyLimitKey carries a request's body bound in its context.
type bodyLimitKey struct{}

// withBodyLimit sets the body bound of the requests made with ctx.
func withBodyLimit(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, bodyLimitKey{}, n)
}

// boundHTTP returns a copy of hc whose responses' bodies are bounded and which follows
// redirects only within the origin of the request that was redirected.
func boundHTTP(hc *http.Client) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = boundedTransport{base: base}
	c.CheckRedirect = sameOrigin
	return &c
}

// sameOrigin is an http.Client CheckRedirect that refuses a redirect to another scheme, host
// or port than the first request's.
func sameOrigin(req *http.Request, via []*http.Request) error {
	from, to := origin(via[0].URL), origin(req.URL)
	if from != to {
		return &CrossOriginRedirectError{From: from, To: to}
	}
	if len(via) > maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

// origin is u's scheme://host:port, with the scheme's default port written out.
func origin(u *url.URL) string {
	scheme, port := strings.ToLower(u.Scheme), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// boundedTransport bounds the body of every response it returns.
type boundedTransport struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	limit, ok := req.Context().Value(bodyLimitKey{}).(int64)
	if !ok {
		limit = MaxResponseBody
	}
	resp.Body = &boundedBody{rc: resp.Body, left: limit, limit: limit}
	return resp, nil
}

// boundedBody reads at most limit bytes of rc, then fails with a BodyTooLargeError if more come.
type boundedBody struct {
	rc          io.ReadCloser
	left, limit int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 && err != nil {
			return 0, err // the body ended at the bound exactly
		}
		return 0, &BodyTooLargeError{Limit: b.limit}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }

// BoundHTTP returns a copy of hc that bounds every response body (MaxResponseBody) and follows
// redirects only within the origin of the request, for other clients of the same API.
func BoundHTTP(hc *http.Client) *http.Client { return boundHTTP(hc) }
