package command

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCollectFile runs `agc-sarif collect --format agc` (or AGC_BENCH_FORMAT) as the command line does over the
// folder named by AGC_BENCH_DIR (e.g. one holding 25,000 responses from agc-corpus), writing the
// SARIF nowhere; it skips without it. Profile it with -cpuprofile to see where collect spends.
// AGC_BENCH_ROOT is the --root (default: an empty folder, so that no finding is anchored to a
// file); scripts/bench.sh's agc mode puts the corpus inside a root with the files it points at.
func BenchmarkCollectFile(b *testing.B) {
	dir := os.Getenv("AGC_BENCH_DIR")
	if dir == "" {
		b.Skip("AGC_BENCH_DIR not set")
	}
	root := os.Getenv("AGC_BENCH_ROOT")
	if root == "" {
		root = b.TempDir()
	}
	env := Env{Stdin: nil, Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, Dir: filepath.Dir(dir)}
	args := []string{"agc-sarif", "collect", "--format", formatOr(os.Getenv("AGC_BENCH_FORMAT")), "--root", root, "-o", os.DevNull, dir}
	b.ReportAllocs()
	for b.Loop() {
		if code := Main(context.Background(), args, env); code > 1 {
			b.Fatalf("exit status %d", code)
		}
	}
}

// formatOr is the --format to collect with: f, or agc when it is empty.
func formatOr(f string) string {
	if f == "" {
		return "agc"
	}
	return f
}
