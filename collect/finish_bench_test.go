package collect

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/corpus"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// cpuTime is the user+system CPU time of the process so far, in nanoseconds.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// writeResponses writes 25,000 generated AGC responses to dir/responses.jsonl and the files they
// point at, so that anchoring keeps every finding at its own place; it returns the responses.
func writeResponses(b *testing.B, dir string) []byte {
	var buf bytes.Buffer
	if _, err := corpus.Responses(&buf, 25000, 1); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "responses.jsonl"), buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	src := bytes.Repeat([]byte("\tx := f(y) // some code\n"), corpus.ResponseLines)
	for i := 0; i < 25000; i += corpus.ResponseLines {
		path, _ := corpus.ResponseLocation(i)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return buf.Bytes()
}

// BenchmarkRun25k measures the whole collect pipeline (it replaced inputs' BenchmarkCollect25k) over 25,000 AGC
// responses: read, anchor, redact, merge, SARIF with the default cap) with the CPU time per op,
// which a shared machine does not inflate as much as the wall time.
func BenchmarkRun25k(b *testing.B) {
	dir := b.TempDir()
	writeResponses(b, dir)
	cfg := Config{Paths: []string{"responses.jsonl"}, Format: inputs.AGC, Root: dir, Dir: dir,
		IncludeUnstructured: true, Redact: true}
	b.ReportAllocs()
	var res *Result
	start := cpuTime(b)
	for b.Loop() {
		var err error
		if res, err = Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(res.Findings)), "findings")
	b.ReportMetric(float64(len(res.SARIF)), "sarif-bytes")
}

// BenchmarkFinish25k runs what follows the reading (anchor, redact, merge, sort, SARIF with the
// default cap of 5,000 results) over 25,000 findings read once, outside the timer, from generated
// AGC responses, each at a place of its own in a file that exists.
func BenchmarkFinish25k(b *testing.B) {
	dir := b.TempDir()
	buf := bytes.NewBuffer(writeResponses(b, dir))
	rd, err := runtimes.Inputs().ReaderFor(inputs.AGC)
	if err != nil {
		b.Fatal(err)
	}
	set := findings.NewSet()
	in := inputs.Input{Name: "responses.jsonl", R: buf, Named: true}
	if err := rd.Read(context.Background(), in, inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: true}, set); err != nil {
		b.Fatal(err)
	}
	cfg := Config{Root: dir, Dir: dir, Redact: true, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Unix(0, 0) }}
	snk, err := newSink(cfg, &Result{Root: dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var res *Result
	start := cpuTime(b)
	for b.Loop() {
		res = &Result{Set: set, Root: dir, Category: "agc/"}
		if err := finish(context.Background(), cfg, res, time.Unix(0, 0), snk); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(res.Findings)), "findings")
	b.ReportMetric(float64(len(res.SARIF)), "sarif-bytes")
}
