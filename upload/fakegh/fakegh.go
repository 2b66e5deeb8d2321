// Package fakegh is a fake GitHub code scanning API for tests: it checks every request the way
// GitHub documents it (method, path, headers, body fields, gzip+base64 SARIF) and answers from a
// script (accepted, pending then complete, failed, 403, 404, 413, 429 with Retry-After, 500, a
// redirect, a body without end). It also serves a pull request's diff and its review API:
// reviews, review comments listed page by page, replies, and GraphQL minimizeComment.
// Nothing in it reaches a real GitHub host.
package fakegh

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Reply is one scripted answer.
type Reply struct {
	Code   int
	Body   string
	Header map[string]string
	// Pad is how many bytes of 'x' follow Body: a body far longer than any answer (one that
	// never ends, in effect), written until the client stops reading.
	Pad int64
}

// Redirect is a redirect (307 and 308 make the client send the same method and body again)
// to location, which may be another server's.
func Redirect(code int, location string) Reply {
	return Reply{Code: code, Header: map[string]string{"Location": location}}
}

// Huge is a 200 answer whose body starts as valid JSON and then runs on for n bytes inside a
// string, so a client that reads it without limit holds it all.
func Huge(n int64) Reply {
	return Reply{Code: http.StatusOK, Body: `{"processing_status":"pending","id":"`, Pad: n}
}

// Accepted is the 202 answer to an upload, with the SARIF id.
func Accepted(id string) Reply {
	return Reply{Code: http.StatusAccepted, Body: fmt.Sprintf(`{"id":%q,"url":"https://api.example/repos/o/r/code-scanning/sarifs/%s"}`, id, id)}
}

// Processing is a 200 status answer: pending, complete, or failed with errors.
func Processing(status string, errs ...string) Reply {
	b, _ := json.Marshal(map[string]any{"processing_status": status, "analyses_url": "https://api.example/analyses", "errors": errs})
	return Reply{Code: http.StatusOK, Body: string(b)}
}

// Forbidden is GitHub's 403 when code scanning is not enabled.
func Forbidden() Reply {
	return Reply{Code: http.StatusForbidden, Body: `{"message":"Advanced Security must be enabled for this repository to use code scanning.","documentation_url":"https://docs.github.com/rest"}`}
}

// Status is a bare error answer with GitHub's JSON message.
func Status(code int, msg string) Reply {
	b, _ := json.Marshal(map[string]string{"message": msg, "documentation_url": "https://docs.github.com/rest"})
	return Reply{Code: code, Body: string(b)}
}

// TooMany is a 429 asking to retry after the given seconds.
func TooMany(seconds int) Reply {
	return Reply{Code: http.StatusTooManyRequests, Body: `{"message":"You have exceeded a secondary rate limit."}`,
		Header: map[string]string{"Retry-After": fmt.Sprint(seconds)}}
}

// Upload is one upload body the server received, decoded.
type Upload struct {
	CommitSHA   string    `json:"commit_sha"`
	Ref         string    `json:"ref"`
	Sarif       string    `json:"sarif"`
	CheckoutURI string    `json:"checkout_uri,omitempty"`
	StartedAt   string    `json:"started_at,omitempty"`
	ToolName    string    `json:"tool_name,omitempty"`
	Validate    *bool     `json:"validate,omitempty"`
	Log         SARIFLog  `json:"-"` // the decoded SARIF
	Received    time.Time `json:"-"`
}

// SARIFLog is the part of a SARIF log the fake checks.
type SARIFLog struct {
	Version string            `json:"version"`
	Schema  string            `json:"$schema"`
	Runs    []json.RawMessage `json:"runs"`
}

// Server is the fake API. Set Owner, Repo and Token before the first request; Prefix mimics GHES
// ("/api/v3"). Uploads and Statuses are answered in order; the last one repeats.
type Server struct {
	*httptest.Server
	Owner, Repo, Token, Prefix string
	Uploads, Statuses          []Reply
	// Diffs answer GET /repos/{owner}/{repo}/pulls/{number} with the diff media type, by number;
	// a review's comments are checked against them.
	Diffs map[int]string
	// ReviewComments are each pull request's review comments, by number: listed, added to by
	// reviews and replies, minimised through GraphQL.
	ReviewComments map[int][]ReviewComment
	// MaxPerPage caps per_page when comments are listed (0: GitHub's 100), to test pagination.
	MaxPerPage int
	// ReviewRefuse, when set, answers every review request (list, review, reply, GraphQL).
	ReviewRefuse *Reply

	mu         sync.Mutex
	violations []string
	received   []Upload
	requests   []string
	nUp, nSt   int
	reviews    []Review
	minimized  []Minimized
	nextID     int64
}

// New starts a fake for owner/repo that accepts token; close it with Close.
func New(owner, repo, token string) *Server {
	s := NewHandler(owner, repo, token)
	s.Server = httptest.NewServer(s)
	return s
}

// NewHandler makes the fake without starting a server (for a standalone binary); its
// ServeHTTP answers the API.
func NewHandler(owner, repo, token string) *Server {
	return &Server{Owner: owner, Repo: repo, Token: token,
		Uploads: []Reply{Accepted("47177e22-5596-11eb-80a1-c1e54ef945c6")}, Statuses: []Reply{Processing("complete")}}
}

// APIURL is the API base URL to give the client (GITHUB_API_URL).
func (s *Server) APIURL() string { return s.Server.URL + s.Prefix }

// Report is what the fake saw, as the standalone binary serves it at /_fake/report.
type Report struct {
	Requests   []string    `json:"requests"`
	Violations []string    `json:"violations"`
	Uploads    []Upload    `json:"uploads"`
	Reviews    []Review    `json:"reviews,omitempty"`
	Minimized  []Minimized `json:"minimized,omitempty"`
}

// Report returns what the fake saw so far.
func (s *Server) Report() Report {
	return Report{Requests: s.Requests(), Violations: s.Violations(), Uploads: s.Received(),
		Reviews: s.Reviews(), Minimized: s.MinimizedComments()}
}

// Violations lists every way a request broke GitHub's documented API.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// Received lists the uploads received, decoded.
func (s *Server) Received() []Upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Upload(nil), s.received...)
}

// Requests lists "METHOD /path" of every request.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *Server) violate(format string, args ...any) {
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

var (
	sha40   = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	fullRef = regexp.MustCompile(`^refs/(heads/.+|tags/.+|pull/[0-9]+/(merge|head))$`)
	apiDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

// ServeHTTP answers one request of the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	pulls := s.Prefix + "/repos/" + s.Owner + "/" + s.Repo + "/pulls/"
	if strings.HasPrefix(r.URL.Path, pulls) {
		if !s.serveReview(w, r, strings.TrimPrefix(r.URL.Path, pulls)) {
			s.servePullDiff(w, r, strings.TrimPrefix(r.URL.Path, pulls))
		}
		return
	}
	if r.URL.Path == s.graphQLPath() {
		s.serveGraphQL(w, r)
		return
	}
	s.checkHeaders(r)
	base := s.Prefix + "/repos/" + s.Owner + "/" + s.Repo + "/code-scanning/sarifs"
	var reply Reply
	switch {
	case r.URL.Path == base:
		if r.Method != http.MethodPost {
			s.violate("%s %s: want POST", r.Method, r.URL.Path)
		}
		s.checkUpload(r)
		reply = next(s.Uploads, &s.nUp)
	case strings.HasPrefix(r.URL.Path, base+"/"):
		if r.Method != http.MethodGet {
			s.violate("%s %s: want GET", r.Method, r.URL.Path)
		}
		id := strings.TrimPrefix(r.URL.Path, base+"/")
		if !s.known(id) {
			reply = Status(http.StatusNotFound, "Not Found")
			break
		}
		reply = next(s.Statuses, &s.nSt)
	default:
		s.violate("%s %s: not a code scanning SARIF endpoint of %s/%s", r.Method, r.URL.Path, s.Owner, s.Repo)
		reply = Status(http.StatusNotFound, "Not Found")
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(reply.Code)
	io.WriteString(w, reply.Body) //nolint:errcheck // test server
	writePad(w, reply.Pad)
}

// writePad writes n bytes of 'x', stopping at the first failed write (the client went away).
func writePad(w io.Writer, n int64) {
	chunk := bytes.Repeat([]byte{'x'}, 64<<10)
	for n > 0 {
		k, err := w.Write(chunk[:min(n, int64(len(chunk)))])
		if err != nil {
			return
		}
		n -= int64(k)
	}
}

// servePullDiff answers GET …/pulls/{number} asked for as a diff
// (Accept: application/vnd.github.v3.diff, per "Get a pull request" media types).
func (s *Server) servePullDiff(w http.ResponseWriter, r *http.Request, number string) {
	if r.Method != http.MethodGet {
		s.violate("%s %s: want GET", r.Method, r.URL.Path)
	}
	if a := r.Header.Get("Accept"); a != "application/vnd.github.v3.diff" && a != "application/vnd.github.diff" {
		s.violate("%s %s: Accept %q is not the diff media type", r.Method, r.URL.Path, a)
	}
	if auth := r.Header.Get("Authorization"); auth != "Bearer "+s.Token && auth != "token "+s.Token {
		s.violate("%s %s: Authorization is not Bearer/token with the expected token", r.Method, r.URL.Path)
	}
	n, err := strconv.Atoi(number)
	diff, ok := s.Diffs[n]
	if err != nil || !ok {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"Not Found"}`) //nolint:errcheck // test server
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, diff) //nolint:errcheck // test server
}

func next(rs []Reply, i *int) Reply {
	if len(rs) == 0 {
		return Status(http.StatusInternalServerError, "no scripted reply")
	}
	r := rs[min(*i, len(rs)-1)]
	*i++
	return r
}

// known reports whether an id was handed out by an Accepted reply.
func (s *Server) known(id string) bool {
	for _, r := range s.Uploads {
		if r.Code == http.StatusAccepted && strings.Contains(r.Body, `"id":"`+id+`"`) {
			return true
		}
	}
	return false
}

func (s *Server) checkHeaders(r *http.Request) {
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+s.Token && auth != "token "+s.Token {
		scheme, _, _ := strings.Cut(auth, " ")
		s.violate("%s %s: Authorization (scheme %q) is not Bearer/token with the expected token", r.Method, r.URL.Path, scheme)
	}
	if a := r.Header.Get("Accept"); a != "application/vnd.github+json" && a != "application/vnd.github.v3+json" && a != "application/json" {
		s.violate("%s %s: Accept %q is not a GitHub JSON media type", r.Method, r.URL.Path, a)
	}
	if v := r.Header.Get("X-GitHub-Api-Version"); v != "" && !apiDate.MatchString(v) {
		s.violate("%s %s: X-GitHub-Api-Version %q is not a dated version", r.Method, r.URL.Path, v)
	}
	if r.Header.Get("User-Agent") == "" {
		s.violate("%s %s: no User-Agent (GitHub rejects requests without one)", r.Method, r.URL.Path)
	}
}

func (s *Server) checkUpload(r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.violate("upload: Content-Type %q, want application/json", ct)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 20<<20))
	if err != nil {
		s.violate("upload: reading body: %v", err)
		return
	}
	var u Upload
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		s.violate("upload: body is not the documented JSON object: %v", err)
		return
	}
	u.Received = time.Now()
	if !sha40.MatchString(u.CommitSHA) {
		s.violate("upload: commit_sha %q is not 40 hex", u.CommitSHA)
	}
	if !fullRef.MatchString(u.Ref) {
		s.violate("upload: ref %q is not a full ref", u.Ref)
	}
	if u.CheckoutURI != "" && !strings.HasPrefix(u.CheckoutURI, "file://") {
		s.violate("upload: checkout_uri %q is not a file URI", u.CheckoutURI)
	}
	if u.StartedAt != "" {
		if _, err := time.Parse(time.RFC3339, u.StartedAt); err != nil {
			s.violate("upload: started_at %q is not ISO 8601: %v", u.StartedAt, err)
		}
	}
	if u.ToolName == "" {
		s.violate("upload: no tool_name")
	}
	raw, err := base64.StdEncoding.DecodeString(u.Sarif)
	if err != nil {
		s.violate("upload: sarif is not base64: %v", err)
	} else if zr, err := gzip.NewReader(bytes.NewReader(raw)); err != nil {
		s.violate("upload: sarif is not gzip: %v", err)
	} else if plain, err := io.ReadAll(io.LimitReader(zr, 200<<20)); err != nil {
		s.violate("upload: sarif gzip is broken: %v", err)
	} else if err := json.Unmarshal(plain, &u.Log); err != nil {
		s.violate("upload: sarif is not JSON: %v", err)
	} else if u.Log.Version != "2.1.0" || len(u.Log.Runs) == 0 {
		s.violate("upload: sarif version %q with %d runs, want 2.1.0 with runs", u.Log.Version, len(u.Log.Runs))
	}
	if len(raw) > 10<<20 {
		s.violate("upload: gzipped sarif is %d bytes, over 10 MB", len(raw))
	}
	s.received = append(s.received, u)
}
