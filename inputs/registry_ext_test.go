package inputs_test

import (
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// The package's own tests read with the registry of package runtimes, which imports this package
// (through the runtimes' readers) and so is only reachable from the external test package.
func init() { inputs.SetTestRegistry(runtimes.Inputs()) }
