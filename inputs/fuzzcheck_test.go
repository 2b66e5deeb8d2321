package inputs

import (
	"bytes"
	"context"
	"sort"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// readFuzzed reads arbitrary bytes with rd, as the fuzz targets of the readers do, and checks
// what every reader promises on any input: no error from in-memory input (bad records are
// problems, not errors), every record is used or skipped, every problem names file and line,
// and every finding has a rule and a message.
func readFuzzed(t *testing.T, rd Reader, data []byte) *findings.Set {
	t.Helper()
	set := findings.NewSet()
	err := rd.Read(context.Background(), Input{Name: "f", R: bytes.NewReader(data)}, Options{Registry: testRegistry, IncludeUnstructured: true, MaxRecord: 1 << 16}, set)
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

// runtimeRuleIDs maps each call's command to the sorted rule ids of its findings, checking that
// each is an event of runtime (with an event key when keyed) and no event has a rule twice.
func runtimeRuleIDs(t *testing.T, set *findings.Set, runtime string, keyed bool) map[string][]string {
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
