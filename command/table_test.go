package command

import (
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
)

// TestTableSaysLeftOut: the stderr table counts the distinct results not kept while reading, and
// says nothing of them when none were dropped.
func TestTableSaysLeftOut(t *testing.T) {
	for _, n := range []int{0, 7} {
		s := findings.NewSet()
		s.LeftOut, s.LeftOutEvents = n, 3*n
		var b strings.Builder
		printTable(&b, &collect.Result{Set: s})
		got := strings.Contains(b.String(), "distinct results not kept while reading (only the heaviest are): 7, of 21 events")
		if got != (n > 0) {
			t.Errorf("left out %d: table\n%s", n, b.String())
		}
		if n == 0 && strings.Contains(b.String(), "not kept") {
			t.Errorf("no results left out, yet the table says so:\n%s", b.String())
		}
	}
}
