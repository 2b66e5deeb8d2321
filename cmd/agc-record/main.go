// Command agc-record is `agc-sarif record` on its own: it runs a hook unchanged and appends one
// record of it to the hook log. It exists because every hook call pays for the start-up of the
// binary in front of it, and the full agc-sarif is an 18 MB program whose dependencies
// initialise packages at start: about 2 ms more per call than this one (README: Overhead).
//
//	agc-record [--log FILE] [--runtime NAME] -- HOOK-COMMAND [ARG...]
//	agc-record --version
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/internal/version"
	"github.com/agc-sarif/agc-sarif/record"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("agc-record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logFile := fs.String("log", "", "hook log `FILE` to append to (default: $AGC_HOOK_LOG, else "+record.DefaultLog+" in "+agent.ProjectDirNames()+", else ./"+record.DefaultLog+")")
	runtime := fs.String("runtime", "", "`NAME` for the record's runtime field (default: recognised from the hook's input)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: agc-record [--log FILE] [--runtime NAME] -- HOOK-COMMAND [ARG...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "agc-record %s\n", version.String())
		return 0
	}
	argv := fs.Args()
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		fs.Usage()
		return 2
	}
	dir, _ := os.Getwd()
	signals := make(chan os.Signal, 4)
	ready, stop := record.CatchSignals(signals)
	defer stop()
	code, _ := record.Run(context.Background(), record.Options{
		Command:      argv,
		Dir:          dir,
		Stdin:        stdin,
		Stdout:       stdout,
		Stderr:       stderr,
		Log:          record.LogPath(*logFile, getenv, dir),
		Warnings:     record.WarnPath(getenv),
		Runtime:      *runtime,
		Getenv:       getenv,
		Signals:      signals,
		SignalsReady: ready,
	})
	return code
}
