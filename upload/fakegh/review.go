package fakegh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/difffilter"
)

// ReviewComment is a pull-request review comment as the fake keeps it and lists it
// (GET /repos/{owner}/{repo}/pulls/{number}/comments).
type ReviewComment struct {
	ID        int64  `json:"id"`
	NodeID    string `json:"node_id"`
	Body      string `json:"body"`
	Path      string `json:"path"`
	CommitID  string `json:"commit_id,omitempty"`
	Line      int    `json:"line,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	Side      string `json:"side,omitempty"`
	StartSide string `json:"start_side,omitempty"`
	InReplyTo int64  `json:"in_reply_to_id,omitempty"`
	User      struct {
		Login string `json:"login"`
	} `json:"user"`
	Minimized bool `json:"-"` // hidden as outdated through GraphQL (REST does not show it)
}

// DraftComment is one comment of a review request, with the fields GitHub documents for
// POST /repos/{owner}/{repo}/pulls/{number}/reviews.
type DraftComment struct {
	Path      string `json:"path"`
	Position  int    `json:"position,omitempty"`
	Body      string `json:"body"`
	Line      int    `json:"line,omitempty"`
	Side      string `json:"side,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	StartSide string `json:"start_side,omitempty"`
}

// Review is one review the fake received.
type Review struct {
	Number   int            `json:"number"`
	CommitID string         `json:"commit_id,omitempty"`
	Body     string         `json:"body,omitempty"`
	Event    string         `json:"event,omitempty"`
	Comments []DraftComment `json:"comments,omitempty"`
	Raw      string         `json:"-"` // the request body as sent
}

// maxBody is GitHub's limit on a comment's or review's body, in characters.
const maxBody = 65536

// reviewPath routes the review endpoints under /repos/{owner}/{repo}/pulls/: rest is what follows.
// It reports false for a path that is not one of them (the pull request diff).
func (s *Server) serveReview(w http.ResponseWriter, r *http.Request, rest string) bool {
	parts := strings.Split(rest, "/")
	if len(parts) < 2 {
		return false
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n <= 0 {
		s.violate("%s %s: pull request number %q", r.Method, r.URL.Path, parts[0])
		writeJSON(w, Status(http.StatusNotFound, "Not Found"))
		return true
	}
	s.checkHeaders(r)
	if s.ReviewRefuse != nil {
		writeJSON(w, *s.ReviewRefuse)
		return true
	}
	switch {
	case len(parts) == 2 && parts[1] == "comments":
		s.listComments(w, r, n)
	case len(parts) == 2 && parts[1] == "reviews":
		s.postReview(w, r, n)
	case len(parts) == 4 && parts[1] == "comments" && parts[3] == "replies":
		s.postReply(w, r, n, parts[2])
	default:
		s.violate("%s %s: not a pull request review endpoint", r.Method, r.URL.Path)
		writeJSON(w, Status(http.StatusNotFound, "Not Found"))
	}
	return true
}

// listComments answers "List review comments on a pull request": per_page at most 100 (default
// 30), page from 1, and a Link header with rel="next" and rel="last" while pages remain.
func (s *Server) listComments(w http.ResponseWriter, r *http.Request, n int) {
	if r.Method != http.MethodGet {
		s.violate("%s %s: want GET", r.Method, r.URL.Path)
	}
	q := r.URL.Query()
	per, page := 30, 1
	if v := q.Get("per_page"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 100 {
			s.violate("%s %s: per_page %q is not 1 to 100", r.Method, r.URL.Path, v)
		} else {
			per = p
		}
	}
	if s.MaxPerPage > 0 {
		per = min(per, s.MaxPerPage)
	}
	if v := q.Get("page"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 {
			s.violate("%s %s: page %q is not a page number", r.Method, r.URL.Path, v)
		} else {
			page = p
		}
	}
	all := s.ReviewComments[n]
	last := max(1, (len(all)+per-1)/per)
	lo, hi := min((page-1)*per, len(all)), min(page*per, len(all))
	if page < last {
		link := func(p int) string {
			u := *r.URL
			v := u.Query()
			v.Set("page", strconv.Itoa(p))
			v.Set("per_page", strconv.Itoa(per))
			u.RawQuery = v.Encode()
			return "<" + s.Server.URL + u.RequestURI() + ">"
		}
		w.Header().Set("Link", link(page+1)+`; rel="next", `+link(last)+`; rel="last"`)
	}
	b, _ := json.Marshal(append([]ReviewComment{}, all[lo:hi]...))
	writeJSON(w, Reply{Code: http.StatusOK, Body: string(b)})
}

// postReview answers "Create a review for a pull request", checking the body as documented:
// event APPROVE, REQUEST_CHANGES or COMMENT (a body required for the last two), a 40-hex
// commit_id, and comments on lines of the diff (line and side RIGHT or LEFT, start_line before
// line in the same hunk, start_side with start_line), bodies under 65,536 characters. A comment
// off the diff is GitHub's 422.
func (s *Server) postReview(w http.ResponseWriter, r *http.Request, n int) {
	if r.Method != http.MethodPost {
		s.violate("%s %s: want POST", r.Method, r.URL.Path)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.violate("review: Content-Type %q, want application/json", ct)
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 20<<20))
	var rv Review
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rv); err != nil {
		s.violate("review: body is not the documented JSON object: %v", err)
		writeJSON(w, Status(http.StatusUnprocessableEntity, "Invalid request"))
		return
	}
	rv.Number, rv.Raw = n, string(body)
	switch rv.Event {
	case "APPROVE":
	case "COMMENT", "REQUEST_CHANGES":
		if rv.Body == "" {
			s.violate("review: event %s without a body", rv.Event)
		}
	default:
		s.violate("review: event %q is not APPROVE, REQUEST_CHANGES or COMMENT (leaving it out makes a pending review)", rv.Event)
	}
	if !sha40.MatchString(rv.CommitID) {
		s.violate("review: commit_id %q is not 40 hex", rv.CommitID)
	}
	if utf8.RuneCountInString(rv.Body) >= maxBody {
		s.violate("review: body of %d characters, GitHub's limit is %d", utf8.RuneCountInString(rv.Body), maxBody)
	}
	var diff *difffilter.Diff
	if text, ok := s.Diffs[n]; ok {
		diff, _ = difffilter.Parse(strings.NewReader(text))
	}
	for i, c := range rv.Comments {
		if bad := s.checkDraft(c, diff); bad != "" {
			s.violate("review: comment %d: %s", i, bad)
			writeJSON(w, Status(http.StatusUnprocessableEntity, "Unprocessable Entity: "+bad))
			return
		}
	}
	s.reviews = append(s.reviews, rv)
	for _, c := range rv.Comments {
		s.nextID++
		rc := ReviewComment{ID: s.nextID, NodeID: fmt.Sprintf("PRRC_kw%d", s.nextID), Body: c.Body, Path: c.Path,
			CommitID: rv.CommitID, Line: c.Line, StartLine: c.StartLine, Side: c.Side, StartSide: c.StartSide}
		rc.User.Login = "github-actions[bot]"
		if s.ReviewComments == nil {
			s.ReviewComments = map[int][]ReviewComment{}
		}
		s.ReviewComments[n] = append(s.ReviewComments[n], rc)
	}
	s.nextID++
	writeJSON(w, Reply{Code: http.StatusOK, Body: fmt.Sprintf(`{"id":%d,"node_id":"PRR_kw%d","state":"COMMENTED","commit_id":%q}`, s.nextID, s.nextID, rv.CommitID)})
}

// checkDraft says what is wrong with one comment of a review, or "".
func (s *Server) checkDraft(c DraftComment, diff *difffilter.Diff) string {
	switch {
	case c.Path == "":
		return "no path"
	case c.Body == "":
		return "no body"
	case utf8.RuneCountInString(c.Body) >= maxBody:
		return fmt.Sprintf("body of %d characters, GitHub's limit is %d", utf8.RuneCountInString(c.Body), maxBody)
	case c.Position != 0 && c.Line != 0:
		return "both position and line"
	case c.Line < 1:
		return "no line"
	case c.Side != "RIGHT" && c.Side != "LEFT":
		return fmt.Sprintf("side %q is not RIGHT or LEFT", c.Side)
	case c.StartLine != 0 && c.StartLine >= c.Line:
		return fmt.Sprintf("start_line %d is not before line %d", c.StartLine, c.Line)
	case c.StartLine != 0 && c.StartSide == "":
		return "start_line without start_side"
	case c.StartLine == 0 && c.StartSide != "":
		return "start_side without start_line"
	}
	if c.Side == "RIGHT" && diff != nil && !diff.InHunk(c.Path, max(c.StartLine, 1), c.Line) {
		if c.StartLine == 0 {
			return fmt.Sprintf("pull_request_review_thread.line %d of %s must be part of the diff", c.Line, c.Path)
		}
		return fmt.Sprintf("lines %d-%d of %s are not in one hunk of the diff", c.StartLine, c.Line, c.Path)
	}
	return ""
}

// postReply answers "Create a reply for a review comment": a body, and a comment id of the pull
// request that is not itself a reply (replies to replies are not supported).
func (s *Server) postReply(w http.ResponseWriter, r *http.Request, n int, id string) {
	if r.Method != http.MethodPost {
		s.violate("%s %s: want POST", r.Method, r.URL.Path)
	}
	var in struct {
		Body string `json:"body"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil || in.Body == "" {
		s.violate("reply: body is not {\"body\": …}: %v", err)
	}
	to, _ := strconv.ParseInt(id, 10, 64)
	var parent *ReviewComment
	for i := range s.ReviewComments[n] {
		if c := &s.ReviewComments[n][i]; c.ID == to {
			parent = c
		}
	}
	if parent == nil || parent.InReplyTo != 0 {
		writeJSON(w, Status(http.StatusNotFound, "Not Found"))
		return
	}
	s.nextID++
	rc := ReviewComment{ID: s.nextID, NodeID: fmt.Sprintf("PRRC_kw%d", s.nextID), Body: in.Body, Path: parent.Path,
		Line: parent.Line, Side: parent.Side, InReplyTo: to}
	rc.User.Login = "a-reviewer"
	s.ReviewComments[n] = append(s.ReviewComments[n], rc)
	b, _ := json.Marshal(rc)
	writeJSON(w, Reply{Code: http.StatusCreated, Body: string(b)})
}

// graphQLPath is where GraphQL is served: /graphql, or /api/graphql beside GHES's /api/v3.
func (s *Server) graphQLPath() string {
	if p := strings.TrimSuffix(s.Prefix, "/v3"); p != s.Prefix {
		return p + "/graphql"
	}
	return s.Prefix + "/graphql"
}

// serveGraphQL answers the one mutation the review uses, minimizeComment, checking it as
// GitHub's GraphQL API documents it: POST, JSON {query, variables}, a subjectId that names a
// comment, and a classifier of ReportedContentClassifiers.
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.violate("%s %s: want POST", r.Method, r.URL.Path)
	}
	auth := r.Header.Get("Authorization")
	if auth != "Bearer "+s.Token && auth != "token "+s.Token {
		s.violate("%s %s: Authorization is not Bearer/token with the expected token", r.Method, r.URL.Path)
	}
	if s.ReviewRefuse != nil {
		writeJSON(w, *s.ReviewRefuse)
		return
	}
	var in struct {
		Query     string            `json:"query"`
		Variables map[string]string `json:"variables"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		s.violate("graphql: body is not {query, variables}: %v", err)
		writeJSON(w, Status(http.StatusBadRequest, "Problems parsing JSON"))
		return
	}
	q := strings.Join(strings.Fields(in.Query), " ")
	if !strings.HasPrefix(q, "mutation") || !strings.Contains(q, "minimizeComment(input: {subjectId: $id, classifier: ") {
		s.violate("graphql: not a minimizeComment mutation with subjectId $id: %q", q)
	}
	classifier := ""
	for _, c := range []string{"SPAM", "ABUSE", "OFF_TOPIC", "OUTDATED", "DUPLICATE", "RESOLVED"} {
		if strings.Contains(q, "classifier: "+c+"}") {
			classifier = c
		}
	}
	if classifier == "" {
		s.violate("graphql: classifier is not one of ReportedContentClassifiers: %q", q)
	}
	id := in.Variables["id"]
	for n, list := range s.ReviewComments {
		for i := range list {
			if list[i].NodeID == id {
				s.ReviewComments[n][i].Minimized = true
				s.minimized = append(s.minimized, Minimized{NodeID: id, Classifier: classifier})
				writeJSON(w, Reply{Code: http.StatusOK, Body: `{"data":{"minimizeComment":{"minimizedComment":{"isMinimized":true}}}}`})
				return
			}
		}
	}
	writeJSON(w, Reply{Code: http.StatusOK, Body: fmt.Sprintf(`{"data":{"minimizeComment":null},"errors":[{"type":"NOT_FOUND","path":["minimizeComment"],"message":"Could not resolve to a node with the global id of '%s'"}]}`, id)})
}

// Minimized is one comment hidden through GraphQL.
type Minimized struct {
	NodeID     string `json:"node_id"`
	Classifier string `json:"classifier"`
}

// Reviews lists the reviews received.
func (s *Server) Reviews() []Review {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Review(nil), s.reviews...)
}

// MinimizedComments lists the comments hidden through GraphQL, in order.
func (s *Server) MinimizedComments() []Minimized {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Minimized(nil), s.minimized...)
}

// Comments lists the review comments of pull request n as they stand.
func (s *Server) Comments(n int) []ReviewComment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ReviewComment(nil), s.ReviewComments[n]...)
}

func writeJSON(w http.ResponseWriter, reply Reply) {
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(reply.Code)
	io.WriteString(w, reply.Body) //nolint:errcheck // test server
}
