package sarif

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// cpuTime is the user+system CPU time of the process so far, in nanoseconds.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkBuild builds and writes 25,000 findings over 50 files of 200 lines: with GitHub's
// default of 5,000 kept results, keeping all 25,000, and keeping all of 25,000 findings whose
// commands are 2,000 hard-to-compress bytes (over 10 MB gzipped: the Markdown bodies and then
// results are dropped, each step rendering and measuring again).
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		var sb strings.Builder
		for l := range 200 {
			fmt.Fprintf(&sb, "\tline %d of file %d := compute(%d)\n", l, i, l*i)
		}
		if err := os.WriteFile(filepath.Join(dir, "src", fmt.Sprintf("file%d.go", i)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	fs := manyFindings(25000, 300)
	big := manyFindings(25000, 300)
	for i := range big {
		var sb strings.Builder
		for k := 0; sb.Len() < 2000; k++ {
			fmt.Fprintf(&sb, "%x", uint32(i*2654435761+k*40503))
		}
		big[i].Call.Command = sb.String()
	}
	for _, tc := range []struct {
		name string
		max  int
		fs   []findings.Finding
	}{{"25k-default-cap", 0, fs}, {"25k-keep-all", HardMaxResults, fs}, {"25k-keep-all-over-10MB", HardMaxResults, big}} {
		b.Run(tc.name, func(b *testing.B) {
			opts := testOptions(dir)
			opts.MaxResults = tc.max
			b.ReportAllocs()
			start := cpuTime(b)
			results := 0
			for b.Loop() {
				l, err := Build(tc.fs, opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := l.Write(io.Discard); err != nil {
					b.Fatal(err)
				}
				results = l.Results()
			}
			// CPU time of the process per op, which a machine shared with other jobs does not inflate.
			b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(results), "results")
		})
	}
}
