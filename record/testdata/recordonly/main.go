// Command recordonly is `agc-sarif record --log FILE -- HOOK...` without the rest of agc-sarif:
// it measures what recording costs apart from the start-up of the full binary.
package main

import (
	"context"
	"os"

	"github.com/agc-sarif/agc-sarif/record"
)

func main() {
	if len(os.Args) < 4 || os.Args[1] != "--log" || os.Args[3] != "--" {
		os.Stderr.WriteString("usage: recordonly --log FILE -- HOOK-COMMAND...\n")
		os.Exit(2)
	}
	code, _ := record.Run(context.Background(), record.Options{
		Command: os.Args[4:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Log: os.Args[2],
	})
	os.Exit(code)
}
