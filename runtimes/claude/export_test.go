package claude

import (
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/inputs/inputstest"
)

// testRegistry is the registry the package's own tests read with, set from package runtimes by
// registry_ext_test.go before any test runs (package runtimes imports this one).
var testRegistry inputs.Registry

// SetTestRegistry sets testRegistry.
func SetTestRegistry(r inputs.Registry) { testRegistry = r }

// readClaude reads one file with the reader its content is detected as, and checks that every
// record was counted.
func readClaude(t *testing.T, path string, opts inputs.Options) (*findings.Set, inputs.Format) {
	t.Helper()
	return inputstest.ReadFile(t, testRegistry, path, opts)
}

// readFuzzed reads arbitrary bytes with rd, with the checks of inputstest.ReadFuzzed.
func readFuzzed(t *testing.T, rd inputs.Reader, data []byte) *findings.Set {
	t.Helper()
	return inputstest.ReadFuzzed(t, testRegistry, rd, data)
}

// ruleIDs lists the distinct rule ids of a set's findings, sorted.
func ruleIDs(set *findings.Set) []string { return inputstest.DistinctRuleIDs(set) }
