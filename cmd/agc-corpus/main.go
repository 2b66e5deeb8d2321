// Command agc-corpus writes a reproducible synthetic corpus (Claude Code transcript, stream-json,
// hook log or AGC JSONL) of a given size for benchmarks, and prints what it holds as JSON.
//
//	agc-corpus -kind transcript -size 1GiB -seed 1 -o corpus.jsonl
//	agc-corpus -kind hook-log -shape short-sparse -size 4MiB -seed 7 -o session.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/internal/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command, with its arguments and streams; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agc-corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", string(corpus.Transcript), fmt.Sprintf("what to write: %v", corpus.Kinds()))
	size := fs.String("size", "64MiB", "size of the corpus (e.g. 256MiB, 1GiB, 10MB, bytes)")
	shape := fs.String("shape", corpus.Mixed.Name, fmt.Sprintf("how the lines are made: %s", shapeNames()))
	seed := fs.Int64("seed", 1, "random seed: the same seed, kind and size give the same bytes")
	out := fs.String("o", "-", `file to write ("-" for stdout)`)
	statsFile := fs.String("stats", "", "also write the stats JSON to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	k, err := corpus.ParseKind(*kind)
	if err != nil {
		fmt.Fprintf(stderr, "agc-corpus: %v\n", err)
		return 2
	}
	sh, err := corpus.ParseShape(*shape)
	if err != nil {
		fmt.Fprintf(stderr, "agc-corpus: %v\n", err)
		return 2
	}
	n, err := corpus.ParseSize(*size)
	if err != nil {
		fmt.Fprintf(stderr, "agc-corpus: %v\n", err)
		return 2
	}
	w, closeOut := stdout, func() error { return nil }
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "agc-corpus: could not create %s: %v\n", *out, err)
			return 2
		}
		w, closeOut = f, f.Close
	}
	start := time.Now()
	st, err := corpus.GenerateShape(w, k, sh, n, *seed)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "agc-corpus: writing %s: %v\n", *out, err)
		return 1
	}
	secs := time.Since(start).Seconds()
	fmt.Fprintf(stderr, "agc-corpus: %s in %.2fs (%.0f MiB/s)\n", st, secs, float64(st.Bytes)/(1<<20)/max(secs, 1e-9))
	if *statsFile != "" {
		b, _ := json.MarshalIndent(st, "", "  ")
		if err := os.WriteFile(*statsFile, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "agc-corpus: could not write %s: %v\n", *statsFile, err)
			return 1
		}
	}
	return 0
}

// shapeNames lists the shapes with what each means.
func shapeNames() string {
	var b strings.Builder
	for i, sh := range corpus.Shapes() {
		if i > 0 {
			b.WriteString(", ")
		}
		long := "lines up to 50 MB"
		if sh.Short {
			long = "lines of at most 4 KiB"
		}
		fmt.Fprintf(&b, "%s (%s, %d in %d calls judged)", sh.Name, long, sh.Hooked, sh.Of)
	}
	return b.String()
}
