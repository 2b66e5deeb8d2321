package upload

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

const (
	token = "ghs_faketoken0123456789"
	sha   = "0123456789abcdef0123456789abcdef01234567"
	id    = "47177e22-5596-11eb-80a1-c1e54ef945c6"
	log   = `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"agc-sarif","rules":[]}},"results":[]}]}`
)

// sleeper records the pauses instead of sleeping.
type sleeper struct {
	mu     sync.Mutex
	pauses []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pauses = append(s.pauses, d)
	return ctx.Err()
}

func (s *sleeper) total() time.Duration {
	var t time.Duration
	for _, p := range s.pauses {
		t += p
	}
	return t
}

func request() Request {
	return Request{Owner: "octo", Repo: "repo", Ref: "refs/pull/7/merge", SHA: sha, SARIF: []byte(log),
		CheckoutURI: "file:///github/workspace", StartedAt: time.Date(2026, 11, 30, 9, 0, 0, 5, time.UTC), ToolName: "agc-sarif"}
}

func client(t *testing.T, srv *fakegh.Server, sl *sleeper) *Client {
	t.Helper()
	var logs []string
	c, err := New(Options{APIURL: srv.APIURL(), Token: token, Sleep: sl.sleep,
		Logf: func(f string, a ...any) { logs = append(logs, f) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, l := range logs {
			if strings.Contains(l, token) {
				t.Errorf("log holds the token: %q", l)
			}
		}
	})
	return c
}

func TestUploadAndWait(t *testing.T) {
	tests := []struct {
		name      string
		prefix    string
		uploads   []fakegh.Reply
		statuses  []fakegh.Reply
		wantKind  Kind // "" = success
		wantState string
		wantReqs  int
		wantSleep time.Duration
	}{
		{"accepted then complete", "", nil, []fakegh.Reply{fakegh.Processing("pending"), fakegh.Processing("pending"), fakegh.Processing("complete")},
			"", "complete", 4, 5*time.Second + 10*time.Second},
		{"GHES prefix", "/api/v3", nil, nil, "", "complete", 2, 0},
		{"processing failed", "", nil, []fakegh.Reply{fakegh.Processing("failed", "locationFromSarifResult: expected artifact location")},
			Failed, "failed", 2, 0},
		{"never finishes", "", nil, []fakegh.Reply{fakegh.Processing("pending")}, Timeout, "pending", 6, 60 * time.Second},
		{"403 no code scanning", "", []fakegh.Reply{fakegh.Forbidden()}, nil, NotEnabled, "", 1, 0},
		{"404", "", []fakegh.Reply{fakegh.Status(404, "Not Found")}, nil, NotFound, "", 1, 0},
		{"413", "", []fakegh.Reply{fakegh.Status(413, "Payload Too Large")}, nil, TooLarge, "", 1, 0},
		{"401", "", []fakegh.Reply{fakegh.Status(401, "Bad credentials")}, nil, Auth, "", 1, 0},
		{"429 then accepted", "", []fakegh.Reply{fakegh.TooMany(3), fakegh.Accepted(id)}, nil, "", "complete", 3, 3 * time.Second},
		{"500 twice then accepted", "", []fakegh.Reply{fakegh.Status(500, "boom"), fakegh.Status(502, "bad gateway"), fakegh.Accepted(id)}, nil,
			"", "complete", 4, time.Second + 2*time.Second},
		{"500 forever", "", []fakegh.Reply{fakegh.Status(500, "boom")}, nil, Unavailable, "", 4, 7 * time.Second},
		{"403 rate limit then accepted", "", []fakegh.Reply{{Code: 403, Body: `{"message":"API rate limit exceeded"}`,
			Header: map[string]string{"X-RateLimit-Remaining": "0", "Retry-After": "2"}}, fakegh.Accepted(id)}, nil, "", "complete", 3, 2 * time.Second},
		{"429 asking too long", "", []fakegh.Reply{fakegh.TooMany(3600)}, nil, Unavailable, "", 1, 0},
		{"status 500 then complete", "", nil, []fakegh.Reply{fakegh.Status(503, "unavailable"), fakegh.Processing("complete")}, "", "complete", 3,
			time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", token)
			defer srv.Close()
			srv.Prefix = tt.prefix
			if tt.uploads != nil {
				srv.Uploads = tt.uploads
			}
			if tt.statuses != nil {
				srv.Statuses = tt.statuses
			}
			sl := &sleeper{}
			c := client(t, srv, sl)
			ctx := context.Background()
			var st *Status
			rc, err := c.Upload(ctx, request())
			if err == nil {
				if rc.ID != id {
					t.Errorf("receipt %+v", rc)
				}
				st, err = c.Wait(ctx, "octo", "repo", rc.ID, time.Minute)
			}
			if tt.wantKind == "" && err != nil {
				t.Fatalf("error %v", err)
			}
			if tt.wantKind != "" && !IsKind(err, tt.wantKind) {
				t.Fatalf("error %v, want kind %s", err, tt.wantKind)
			}
			if err != nil && strings.Contains(err.Error(), token) {
				t.Errorf("error holds the token: %v", err)
			}
			if tt.wantState != "" && (st == nil || st.ProcessingStatus != tt.wantState) {
				t.Errorf("status %+v, want %s", st, tt.wantState)
			}
			if tt.wantKind == Failed && (st == nil || len(st.Errors) != 1 || !strings.Contains(err.Error(), "expected artifact location")) {
				t.Errorf("failed without GitHub's errors: %v %+v", err, st)
			}
			if n := len(srv.Requests()); n != tt.wantReqs {
				t.Errorf("%d requests %v, want %d", n, srv.Requests(), tt.wantReqs)
			}
			if got := sl.total(); got != tt.wantSleep {
				t.Errorf("slept %v (%v), want %v", got, sl.pauses, tt.wantSleep)
			}
			if v := srv.Violations(); len(v) > 0 {
				t.Errorf("API violations:\n%s", strings.Join(v, "\n"))
			}
			for _, u := range srv.Received() {
				if u.CommitSHA != sha || u.Ref != "refs/pull/7/merge" || u.ToolName != "agc-sarif" ||
					u.CheckoutURI != "file:///github/workspace" || u.StartedAt != "2026-11-30T09:00:00Z" || u.Log.Version != "2.1.0" {
					t.Errorf("upload body %+v", u)
				}
			}
		})
	}
}

func TestRequestCheck(t *testing.T) {
	bad := []func(*Request){
		func(r *Request) { r.Owner = "" },
		func(r *Request) { r.Repo = "../x" },
		func(r *Request) { r.Ref = "main" },
		func(r *Request) { r.SHA = "abc" },
		func(r *Request) { r.SARIF = nil },
	}
	for i, mod := range bad {
		r := request()
		mod(&r)
		if err := r.Check(); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
	srv := fakegh.New("octo", "repo", token)
	defer srv.Close()
	r := request()
	r.SHA = "main"
	if _, err := client(t, srv, &sleeper{}).Upload(context.Background(), r); !IsKind(err, Invalid) {
		t.Errorf("error %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a bad request was sent")
	}
}

func TestEncodeTooLarge(t *testing.T) {
	// incompressible data over the limit
	big := make([]byte, MaxGzipSize+1024)
	x := uint64(88172645463325252)
	for i := range big {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		big[i] = byte(x)
	}
	if _, err := Encode(big); !IsKind(err, TooLarge) {
		t.Errorf("error %v", err)
	}
}

func TestNew(t *testing.T) {
	if _, err := New(Options{}); err == nil {
		t.Error("no token accepted")
	}
	if _, err := New(Options{Token: "x", APIURL: "ftp://x"}); err == nil {
		t.Error("ftp URL accepted")
	}
	if _, err := New(Options{Token: "x"}); err != nil {
		t.Error(err)
	}
}

func TestHints(t *testing.T) {
	e := &Error{Op: "upload", Kind: NotEnabled, Code: http.StatusForbidden, Message: "Advanced Security must be enabled"}
	if !strings.Contains(e.Error(), "security-events: write") {
		t.Errorf("hint missing: %v", e)
	}
}

func TestRetryAfter(t *testing.T) {
	h := http.Header{}
	if _, ok := retryAfter(h); ok {
		t.Error("no header read as a wait")
	}
	h.Set("Retry-After", "7")
	if d, ok := retryAfter(h); !ok || d != 7*time.Second {
		t.Errorf("seconds: %v %v", d, ok)
	}
	h.Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
	if d, ok := retryAfter(h); !ok || d < 59*time.Minute || d > time.Hour {
		t.Errorf("date: %v %v", d, ok)
	}
	h.Set("Retry-After", "soon")
	if _, ok := retryAfter(h); ok {
		t.Error("garbage read as a wait")
	}
}
