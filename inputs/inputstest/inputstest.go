// Package inputstest holds the checks the tests of the readers share, for the readers kept in a
// runtime's folder as for those of package inputs.
package inputstest

import (
	"bytes"
	"context"
	"os"
	"sort"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// ReadFile reads one file with the reader of reg its content is detected as, and checks that
// every record was counted.
func ReadFile(t testing.TB, reg inputs.Registry, path string, opts inputs.Options) (*findings.Set, inputs.Format) {
	t.Helper()
	opts.Registry = reg
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := reg.Detect(data[:min(len(data), inputs.SniffSize)])
	r, err := reg.ReaderFor(f)
	if err != nil {
		t.Fatalf("%s: detected as %q: %v", path, f, err)
	}
	set := findings.NewSet()
	if err := r.Read(context.Background(), inputs.Input{Name: path, R: bytes.NewReader(data)}, opts, set); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Errorf("%s: %d records but %d used + %d skipped", path, set.Records, set.Used, set.Skipped())
	}
	return set, f
}

// ReadFuzzed reads arbitrary bytes with rd, as the fuzz targets of the readers do, and checks
// what every reader promises on any input: no error from in-memory input (bad records are
// problems, not errors), every record is used or skipped, every problem names file and line,
// and every finding has a rule and a message.
func ReadFuzzed(t testing.TB, reg inputs.Registry, rd inputs.Reader, data []byte) *findings.Set {
	t.Helper()
	set := findings.NewSet()
	err := rd.Read(context.Background(), inputs.Input{Name: "f", R: bytes.NewReader(data)}, inputs.Options{Registry: reg, IncludeUnstructured: true, MaxRecord: 1 << 16}, set)
	if err != nil {
		t.Fatalf("error on in-memory input: %v", err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Fatalf("records %d != used %d + skipped %d", set.Records, set.Used, set.Skipped())
	}
	for _, p := range set.Problems {
		if p.Source.File != "f" || p.Source.Line < 1 {
			t.Fatalf("problem without file and line: %+v", p)
		}
	}
	for _, fd := range set.Findings {
		if fd.RuleID == "" || fd.Message == "" {
			t.Fatalf("finding without rule or message: %+v", fd)
		}
	}
	return set
}

// RuleIDs maps each call's command to the sorted rule ids of its findings, checking that each is
// an event of runtime (with an event key when keyed) and no event has a rule twice.
func RuleIDs(t testing.TB, set *findings.Set, runtime string, keyed bool) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, f := range set.Findings {
		if f.Call == nil || f.Call.Runtime != runtime || keyed && f.EventKey == "" {
			t.Errorf("finding %s: call %+v not a %s event (with a key: %v)", f.RuleID, f.Call, runtime, keyed)
			continue
		}
		k := f.EventKey + f.Call.Command + " " + f.RuleID
		if seen[k] {
			t.Errorf("event %s has rule %s twice", f.EventKey, f.RuleID)
		}
		seen[k] = true
		out[f.Call.Command] = append(out[f.Call.Command], f.RuleID)
	}
	for _, ids := range out {
		sort.Strings(ids)
	}
	return out
}

// DistinctRuleIDs lists the distinct rule ids of a set's findings, sorted.
func DistinctRuleIDs(set *findings.Set) []string {
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
