//go:build !unix

package record

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// run reports that recording needs a unix system (process groups, signals, flock).
func run(_ context.Context, opts Options, now func() time.Time) outcome {
	o := outcome{start: now(), startErr: errors.New("agc-sarif record needs a unix system"), notStart: ExitNotExecutable}
	fmt.Fprintf(opts.Stderr, "agc-sarif record: %v\n", o.startErr)
	return o
}
