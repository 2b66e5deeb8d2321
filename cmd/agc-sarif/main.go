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

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := command.Main(ctx, os.Args, command.OSEnv())
	stop()
	os.Exit(code)
}
