// Command agc-sarif collects AGC gate verdicts and publishes them as SARIF.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agc-sarif/agc-sarif/command"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := command.Main(ctx, os.Args, command.OSEnv())
	stop()
	os.Exit(code)
}
