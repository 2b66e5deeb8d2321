package inputs

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// testRegistry is the registry the package's own tests read with, set from package runtimes by
// registry_ext_test.go before any test runs.
var testRegistry Registry

// SetTestRegistry sets testRegistry.
func SetTestRegistry(r Registry) { testRegistry = r }

// withTestRegistry is opts with testRegistry when it has no registry.
func withTestRegistry(opts Options) Options {
	if opts.Registry.Binding == nil {
		opts.Registry = testRegistry
	}
	return opts
}

// readClaude reads one file with the reader its content is detected as, and checks that every
// record was counted.
func readClaude(t *testing.T, path string, opts Options) (*findings.Set, Format) {
	opts = withTestRegistry(opts)
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head := data[:min(len(data), SniffSize)]
	f := testRegistry.Detect(head)
	r, err := testRegistry.ReaderFor(f)
	if err != nil {
		t.Fatalf("%s: detected as %q: %v", path, f, err)
	}
	set := findings.NewSet()
	if err := r.Read(context.Background(), Input{Name: path, R: strings.NewReader(string(data))}, opts, set); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Errorf("%s: %d records but %d used + %d skipped", path, set.Records, set.Used, set.Skipped())
	}
	return set, f
}

// ruleIDs lists the distinct rule ids of a set's findings, sorted.
func ruleIDs(set *findings.Set) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range set.Findings {
		if !seen[f.RuleID] {
			seen[f.RuleID] = true
			out = append(out, f.RuleID)
		}
	}
	sort.Strings(out)
	return out
}

// readerOf is the reader of format f in testRegistry.
func readerOf(t *testing.T, f Format) Reader {
	t.Helper()
	r, err := testRegistry.ReaderFor(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Claude Code's formats, whose readers are in runtimes/claude, as the tests of the shared reading
// name them.
const (
	transcriptFormat Format = "claude-transcript"
	streamJSONFormat Format = "stream-json"
)
