// Command agc-sarif collects AGC gate verdicts and publishes them as SARIF.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/agc-sarif/agc-sarif/command"
)

// memoryLimit is the soft limit on the Go heap when GOMEMLIMIT is not set: the GC runs sooner as
// the heap nears it (it never refuses memory), which keeps collect's peak RSS under 64 MiB on
// inputs whose findings fit in it (docs/performance.md) at no measured CPU cost.
const memoryLimit = 40 << 20

// gcPercent is GOGC when it is not set. Under the soft limit above, a heap three times the live
// heap (GOGC=100: twice) still peaks at the limit on the big inputs, and collect runs the GC a
// third less often: on 25,000 AGC responses anchored to their files, 9% fewer instructions, the
// peak RSS unchanged (48-55 MiB); 1 GiB of transcripts, 512 MiB of hook log or stream-json peak
// 4-5 MiB higher, under 40 MiB (docs/performance.md, round three).
const gcPercent = 200

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := command.Main(ctx, os.Args, command.OSEnv())
	stop()
	os.Exit(code)
}
