package upload

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// TestUnreachableAPI: an API that no server answers says "could not reach HOST: ERROR" (not
// "HTTP 0 Post …"), in the log lines of each retry too, and gives up with less than 10 s of waits.
func TestUnreachableAPI(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there any more: connection refused
	sl := &sleeper{}
	var logs []string
	c, err := New(Options{APIURL: "http://" + addr, Token: token, Sleep: sl.sleep,
		Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Upload(context.Background(), request())
	if !IsKind(err, Unavailable) {
		t.Fatalf("error %v, want kind %s", err, Unavailable)
	}
	want := "upload: could not reach " + addr + ": "
	if !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "HTTP 0") || strings.Contains(err.Error(), "Post ") {
		t.Errorf("error %q, want it to start %q and name no HTTP status or method", err, want)
	}
	if sl.total() >= 10*time.Second {
		t.Errorf("waited %s between tries, want under 10 s", sl.total())
	}
	if len(logs) == 0 {
		t.Fatal("no retry was logged")
	}
	for _, l := range logs {
		if !strings.HasPrefix(l, want) || strings.Contains(l, "HTTP 0") {
			t.Errorf("log line %q, want it to start %q", l, want)
		}
	}
}
