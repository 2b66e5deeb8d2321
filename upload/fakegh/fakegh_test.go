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
