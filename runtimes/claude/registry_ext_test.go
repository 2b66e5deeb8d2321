package claude_test

import (
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/runtimes/claude"
)

// The package's own tests read with the registry of package runtimes, which imports this package
// and so is only reachable from the external test package.
func init() { claude.SetTestRegistry(runtimes.Inputs()) }
