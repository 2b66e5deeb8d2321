package upload

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// TestRedirects: a redirect to another origin is never followed — neither the SARIF (re-sent
// on 307/308) nor the token reaches it, and no id from it is taken as accepted. A redirect
// within the API's origin is followed.
func TestRedirects(t *testing.T) {
	sarifs := "/repos/octo/repo/code-scanning/sarifs"
	tests := []struct {
		name              string
		upload, status    func(api, evil string) []fakegh.Reply
		wantErr           bool
		wantReqs, wantUps int
	}{
		{"307 upload elsewhere", func(_, evil string) []fakegh.Reply {
			return []fakegh.Reply{fakegh.Redirect(307, evil+sarifs)}
		}, nil, true, 1, 1},
		{"308 upload elsewhere", func(_, evil string) []fakegh.Reply {
			return []fakegh.Reply{fakegh.Redirect(308, evil+sarifs)}
		}, nil, true, 1, 1},
		{"302 status poll elsewhere", nil, func(_, evil string) []fakegh.Reply {
			return []fakegh.Reply{fakegh.Redirect(302, evil+sarifs+"/"+id)}
		}, true, 2, 1},
		{"307 upload within the origin", func(api, _ string) []fakegh.Reply {
			return []fakegh.Reply{fakegh.Redirect(307, api+sarifs+"?moved=1"), fakegh.Accepted(id)}
		}, nil, false, 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", token)
			defer srv.Close()
			evil := fakegh.New("octo", "repo", token)
			defer evil.Close()
			evil.Uploads = []fakegh.Reply{fakegh.Accepted("e0e0e0e0-5596-11eb-80a1-c1e54ef945c6")}
			if tt.upload != nil {
				srv.Uploads = tt.upload(srv.APIURL(), evil.APIURL())
			}
			if tt.status != nil {
				srv.Statuses = tt.status(srv.APIURL(), evil.APIURL())
			}
			c := client(t, srv, &sleeper{})
			rc, err := c.Upload(context.Background(), request())
			if err == nil {
				_, err = c.Wait(context.Background(), "octo", "repo", rc.ID, time.Minute)
			}
			var away *CrossOriginRedirectError
			if tt.wantErr != (err != nil) || tt.wantErr && (!IsKind(err, Unexpected) || !strings.Contains(err.Error(), "another origin")) {
				t.Errorf("error %v, want one: %v", err, tt.wantErr)
			}
			if errors.As(err, &away) || err != nil && strings.Contains(err.Error(), token) {
				t.Errorf("error %v holds the token or the raw redirect error", err)
			}
			if n := len(evil.Requests()); n != 0 {
				t.Errorf("the other origin got %d requests: %v", n, evil.Requests())
			}
			if n := len(srv.Requests()); n != tt.wantReqs || len(srv.Received()) != tt.wantUps {
				t.Errorf("%d requests (%v), %d uploads; want %d, %d", n, srv.Requests(), len(srv.Received()), tt.wantReqs, tt.wantUps)
			}
			if v := srv.Violations(); len(v) > 0 {
				t.Errorf("API violations: %v", v)
			}
		})
	}
}

// TestBodyBound: an answer that never ends is read up to the bound and fails with a clear
// error, without a retry; a pull request diff may be longer than a JSON answer.
func TestBodyBound(t *testing.T) {
	huge := fakegh.Huge(16 << 30)
	for name, set := range map[string]func(*fakegh.Server){
		"upload answer": func(s *fakegh.Server) { s.Uploads = []fakegh.Reply{{Code: 202, Body: `{"id":"`, Pad: 16 << 30}} },
		"status poll":   func(s *fakegh.Server) { s.Statuses = []fakegh.Reply{huge} },
		"error answer": func(s *fakegh.Server) {
			s.Uploads = []fakegh.Reply{{Code: 422, Body: `{"message":"`, Pad: 16 << 30}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", token)
			defer srv.Close()
			set(srv)
			c := client(t, srv, &sleeper{})
			rc, err := c.Upload(context.Background(), request())
			if err == nil {
				_, err = c.Wait(context.Background(), "octo", "repo", rc.ID, time.Minute)
			}
			if err == nil || strings.Contains(err.Error(), token) {
				t.Fatalf("error %v", err)
			}
			if name == "status poll" && (!IsKind(err, Unexpected) || !strings.Contains(err.Error(), "over 1048576 bytes")) {
				t.Errorf("error %v, want the body bound named", err)
			}
			if n := len(srv.Requests()); n > 2 {
				t.Errorf("%d requests: a body over the bound was retried", n)
			}
		})
	}
	t.Run("diff over the JSON bound", func(t *testing.T) {
		srv := fakegh.New("octo", "repo", token)
		defer srv.Close()
		diff := "diff --git a/x b/x\n" + strings.Repeat("+"+strings.Repeat("y", 99)+"\n", 30_000)
		srv.Diffs = map[int]string{7: diff}
		got, err := client(t, srv, &sleeper{}).PullRequestDiff(context.Background(), "octo", "repo", 7)
		if err != nil || got != diff {
			t.Errorf("diff of %d bytes: got %d bytes, %v", len(diff), len(got), err)
		}
	})
}

// TestBoundedBody: a body of exactly the bound is read whole; one byte more is an error.
func TestBoundedBody(t *testing.T) {
	for body, wantErr := range map[string]bool{"12345": false, "123456": true, "": false} {
		b := &boundedBody{rc: io.NopCloser(strings.NewReader(body)), left: 5, limit: 5}
		got, err := io.ReadAll(b)
		var big *BodyTooLargeError
		if wantErr != errors.As(err, &big) || !wantErr && string(got) != body {
			t.Errorf("%q: read %q, %v", body, got, err)
		}
	}
}

func TestOrigin(t *testing.T) {
	same := [][2]string{
		{"https://api.github.com/x", "https://API.github.com:443/y"},
		{"http://h/a", "http://h:80/b"},
		{"https://[::1]:8443/a", "https://[::1]:8443/b"},
	}
	other := [][2]string{
		{"https://api.github.com/x", "http://api.github.com/x"},
		{"https://api.github.com/x", "https://api.github.com:8443/x"},
		{"https://api.github.com/x", "https://api.github.com.evil.example/x"},
		{"https://h/a", "https://user@h2/a"},
	}
	for _, tc := range same {
		if a, b := origin(mustURL(t, tc[0])), origin(mustURL(t, tc[1])); a != b {
			t.Errorf("%s and %s: %s != %s", tc[0], tc[1], a, b)
		}
	}
	for _, tc := range other {
		if origin(mustURL(t, tc[0])) == origin(mustURL(t, tc[1])) {
			t.Errorf("%s and %s share an origin", tc[0], tc[1])
		}
	}
	req := &http.Request{URL: mustURL(t, "https://h/a")}
	if err := sameOrigin(req, []*http.Request{req, req, req, req, req, req}); err == nil {
		t.Error("a seventh same-origin redirect was followed")
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
