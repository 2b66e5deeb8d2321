package difffilter

import (
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and that Keep on what it parsed never panics.
func FuzzParse(f *testing.F) {
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+d\n", 2)
	f.Fuzz(func(t *testing.T, diff string, line int) {
		d, err := Parse(strings.NewReader(diff))
		if err != nil {
			return
		}
		for _, p := range d.Files() {
			for _, m := range []Mode{Added, DiffContext, File, NoFilter} {
				d.Keep(p, line, line+3, m)
			}
		}
	})
}
