package fakegh

import (
	"net/http"
	"strings"
	"testing"
)

// The fake must notice requests that break the API, or the upload tests assert nothing.
func TestViolationsSeen(t *testing.T) {
	tests := []struct {
		name, method, path, auth, body, want string
	}{
		{"wrong token", "POST", "/repos/o/r/code-scanning/sarifs", "Bearer nope", "{}", "Authorization"},
		{"unknown field", "POST", "/repos/o/r/code-scanning/sarifs", "Bearer t", `{"commit":"x"}`, "documented JSON"},
		{"short sha", "POST", "/repos/o/r/code-scanning/sarifs", "Bearer t", `{"commit_sha":"abc","ref":"refs/heads/main","sarif":"","tool_name":"x"}`, "40 hex"},
		{"branch name as ref", "POST", "/repos/o/r/code-scanning/sarifs", "Bearer t", `{"commit_sha":"` + strings.Repeat("a", 40) + `","ref":"main","sarif":"","tool_name":"x"}`, "full ref"},
		{"raw sarif", "POST", "/repos/o/r/code-scanning/sarifs", "Bearer t", `{"commit_sha":"` + strings.Repeat("a", 40) + `","ref":"refs/heads/main","sarif":"{}","tool_name":"x"}`, "base64"},
		{"other repo", "GET", "/repos/x/y/code-scanning/sarifs/1", "Bearer t", "", "not a code scanning"},
		{"wrong method", "PUT", "/repos/o/r/code-scanning/sarifs", "Bearer t", "{}", "want POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New("o", "r", "t")
			defer s.Close()
			req, _ := http.NewRequest(tt.method, s.APIURL()+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Authorization", tt.auth)
			req.Header.Set("Accept", "application/vnd.github+json")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("User-Agent", "test")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			v := strings.Join(s.Violations(), "\n")
			if !strings.Contains(v, tt.want) {
				t.Errorf("violations %q lack %q", v, tt.want)
			}
			if strings.Contains(v, "nope") {
				t.Errorf("violation shows a token: %q", v)
			}
		})
	}
}

// The review endpoints notice what GitHub would refuse, or the review tests assert nothing.
func TestReviewViolationsSeen(t *testing.T) {
	sha := strings.Repeat("a", 40)
	diff := "diff --git a/f.go b/f.go\n--- a/f.go\n+++ b/f.go\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
	tests := []struct {
		name, method, path, body, want string
	}{
		{"pending review", "POST", "/repos/o/r/pulls/1/reviews", `{"commit_id":"` + sha + `","body":"x","comments":[]}`, "event"},
		{"comment off the diff", "POST", "/repos/o/r/pulls/1/reviews", `{"commit_id":"` + sha + `","body":"x","event":"COMMENT","comments":[{"path":"f.go","body":"b","line":9,"side":"RIGHT"}]}`, "must be part of the diff"},
		{"range without start_side", "POST", "/repos/o/r/pulls/1/reviews", `{"commit_id":"` + sha + `","body":"x","event":"COMMENT","comments":[{"path":"f.go","body":"b","start_line":1,"line":2,"side":"RIGHT"}]}`, "start_side"},
		{"unknown field", "POST", "/repos/o/r/pulls/1/reviews", `{"commit_id":"` + sha + `","body":"x","event":"COMMENT","comments":[{"path":"f.go","body":"b","line":2,"side":"RIGHT","suggestion":"y"}]}`, "documented JSON"},
		{"short commit", "POST", "/repos/o/r/pulls/1/reviews", `{"commit_id":"abc","body":"x","event":"COMMENT"}`, "40 hex"},
		{"per_page over 100", "GET", "/repos/o/r/pulls/1/comments?per_page=500", "", "per_page"},
		{"minimise without classifier", "POST", "/graphql", `{"query":"mutation($id: ID!) { minimizeComment(input: {subjectId: $id, classifier: GONE}) { minimizedComment { isMinimized } } }","variables":{"id":"x"}}`, "classifier"},
		{"not a mutation", "POST", "/graphql", `{"query":"query { viewer { login } }","variables":{}}`, "minimizeComment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New("o", "r", "t")
			defer s.Close()
			s.Diffs = map[int]string{1: diff}
			req, _ := http.NewRequest(tt.method, s.APIURL()+tt.path, strings.NewReader(tt.body))
			req.Header.Set("Authorization", "Bearer t")
			req.Header.Set("Accept", "application/vnd.github+json")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("User-Agent", "test")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if v := strings.Join(s.Violations(), "\n"); !strings.Contains(v, tt.want) {
				t.Errorf("violations %q lack %q", v, tt.want)
			}
		})
	}
}
