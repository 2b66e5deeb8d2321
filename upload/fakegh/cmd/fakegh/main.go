// Command fakegh serves the fake code scanning API on the loopback for container smoke tests: it
// prints its base URL, answers like GitHub, and reports what it saw at GET /_fake/report.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

func main() {
	owner := flag.String("owner", "octo", "repository owner")
	repo := flag.String("repo", "repo", "repository name")
	token := flag.String("token", "", "token the fake accepts (default: $FAKEGH_TOKEN)")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	if *token == "" {
		*token = os.Getenv("FAKEGH_TOKEN")
	}
	s := fakegh.NewHandler(*owner, *repo, *token)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakegh: %v\n", err)
		os.Exit(2)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_fake/report", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s.Report()) //nolint:errcheck // test server
	})
	mux.Handle("/", s)
	if err := http.Serve(ln, mux); err != nil {
		fmt.Fprintf(os.Stderr, "fakegh: %v\n", err)
		os.Exit(2)
	}
}
