package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/internal/corpus"
)

// runJobs collects paths (relative to dir) with jobs goroutines, files cut into chunks of at
// least chunk bytes, and returns the result with the SARIF decoded.
func runJobs(t *testing.T, dir string, paths []string, jobs int, chunk int64) (*Result, any) {
	t.Helper()
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	res, err := Run(context.Background(), Config{Paths: paths, Root: dir, Dir: dir, Redact: true,
		IncludeUnstructured: true, Jobs: jobs, ChunkSize: chunk, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	var log any
	if err := json.Unmarshal(res.SARIF, &log); err != nil {
		t.Fatal(err)
	}
	return res, log
}

// TestChunkedCollectSame collects every testdata folder and JSONL file, and a generated hook log, one goroutine
// at a time and with big files cut into chunks read at once: the SARIF and the counts must be
// the same.
func TestChunkedCollectSame(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/*")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("testdata folders: %v %v", dirs, err)
	}
	gen := t.TempDir()
	var b bytes.Buffer
	if _, err := corpus.Generate(&b, corpus.HookLog, 2<<20, 3); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gen, "hook-log.jsonl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{gen: {"hook-log.jsonl"}}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			cases[".."] = append(cases[".."], filepath.Join("testdata", filepath.Base(d)))
		}
	}
	// One file alone gets every goroutine: its chunks are read at once.
	files, _ := filepath.Glob("../testdata/*/*/*.jsonl")
	for _, f := range files {
		cases[".."] = append(cases[".."], f[len("../"):])
	}
	for dir, paths := range cases {
		for _, p := range paths {
			seq, want := runJobs(t, dir, []string{p}, 1, 0)
			for _, chunk := range []int64{300, 64 << 10} {
				par, got := runJobs(t, dir, []string{p}, 3, chunk)
				if !reflect.DeepEqual(want, got) {
					t.Errorf("%s, chunks of %d: the SARIF differs from one goroutine's", p, chunk)
				}
				a, b := seq.Set, par.Set
				if a.Records != b.Records || a.Used != b.Used || !reflect.DeepEqual(a.Skips, b.Skips) || !reflect.DeepEqual(a.Problems, b.Problems) {
					t.Errorf("%s, chunks of %d: records %d/%d used %d/%d skips %v/%v", p, chunk, a.Records, b.Records, a.Used, b.Used, a.Skips, b.Skips)
				}
			}
		}
	}
}
