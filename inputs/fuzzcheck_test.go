package inputs

import (
	"bytes"
	"context"
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
