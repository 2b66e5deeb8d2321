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
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

func main() {
	owner := flag.String("owner", "octo", "repository owner")
	repo := flag.String("repo", "repo", "repository name")
	token := flag.String("token", "", "token the fake accepts (default: $FAKEGH_TOKEN)")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	diff := flag.String("pr-diff", "", "NUMBER=FILE: answer the diff of pull request NUMBER with FILE")
	flag.Parse()
	if *token == "" {
		*token = os.Getenv("FAKEGH_TOKEN")
	}
	s := fakegh.NewHandler(*owner, *repo, *token)
	if *diff != "" {
		num, file, _ := strings.Cut(*diff, "=")
		n, err := strconv.Atoi(num)
		text, rerr := os.ReadFile(file)
		if err != nil || rerr != nil {
			fmt.Fprintf(os.Stderr, "fakegh: -pr-diff %q: want NUMBER=FILE of a readable file\n", *diff)
			os.Exit(2)
		}
		s.Diffs = map[int]string{n: string(text)}
	}
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
