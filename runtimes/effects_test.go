package runtimes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/runtimes"
)

// TestEffectTables holds every binding's effect table to its shape: one row per answer form, each
// naming the runtime's version it was seen with and evidence that exists (a testdata folder of
// this repository, or a harness README beside it when that is checked out).
func TestEffectTables(t *testing.T) {
	root := filepath.Join("..")
	for _, b := range runtimes.Bindings() {
		t.Run(b.Runtime(), func(t *testing.T) {
			tab := b.Effects()
			if len(tab) == 0 {
				t.Fatalf("%s states no effects", b.Runtime())
			}
			seen := map[string]bool{}
			for _, r := range tab {
				if seen[string(r.Answer)] {
					t.Errorf("answer %q has two rows", r.Answer)
				}
				seen[string(r.Answer)] = true
				if r.Effect == "" || r.Verified == "" || r.Evidence == "" {
					t.Errorf("row %q lacks its effect, version or evidence: %+v", r.Answer, r)
				}
				// evidence may name several places, "; " between them
				for _, ev := range strings.Split(r.Evidence, "; ") {
					_, err := os.Stat(filepath.Join(root, ev))
					switch {
					case strings.HasPrefix(ev, "testdata/") && err != nil:
						t.Errorf("row %q: evidence %s: %v", r.Answer, ev, err)
					case !strings.HasPrefix(ev, "testdata/") && !strings.HasPrefix(ev, "../shared/"):
						t.Errorf("row %q: evidence %q is neither testdata nor a harness README", r.Answer, ev)
					}
				}
				if got, ok := tab.Of(r.Answer); !ok || got != r {
					t.Errorf("Of(%q) = %+v, %v", r.Answer, got, ok)
				}
			}
		})
	}
}
