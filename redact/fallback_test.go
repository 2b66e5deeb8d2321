package redact

import (
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// TestClassesWithoutFallback checks that every class but the high-entropy one is found by its
// context or structure, not by the fallback: with the fallback taken out, none leaks.
func TestClassesWithoutFallback(t *testing.T) {
	r := New(Options{})
	r.noFallback = true
	for i, p := range secrettest.Classes() {
		if p.Category == "high-entropy" {
			continue
		}
		if got := r.String(p.Text); strings.Contains(got, p.Secret) {
			t.Errorf("case %d (%s) is found only by the fallback: %q", i, p.Category, got)
		}
	}
}

// TestHighEntropyStable checks that the fallback takes random values of every alphabet and
// length it is meant for, for many seeds (its tests are pure functions of the value, far from
// where random values fall), and leaves hashes, ids, identifiers, paths and encoded text.
func TestHighEntropyStable(t *testing.T) {
	missed := 0
	for seed := 1; seed <= 3000; seed++ {
		for _, a := range []string{secrettest.Alnum, secrettest.B64, secrettest.URL64} {
			n := 32 + seed%40
			v := secrettest.Fake(seed, n, a)
			if got := scanHighEntropy(" "+v+" ", ""); len(got) != 1 {
				if missed++; missed <= 5 {
					t.Errorf("seed %d: random value %q not taken", seed, v)
				}
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d of 9000 random values missed", missed)
	}
	for _, s := range []string{
		"3f2a9c1d0e4b5a6978877665544332211aabbccd3f2a9c1d",
		"123e4567-e89b-12d3-a456-426614174000",
		"TestSecretsNeverReachOutputsWhenPlantedInEveryPlace",
		"WorkstreamIsolationMainCheckoutAccess",
		"XDG_STATE_HOME/agc-sarif/record-warnings",
		"AVeryLongConstantNameForTheDefaultMaximumNumberOfRetries",
		"ZXhhbXBsZSB0ZXh0IHdpdGhvdXQgYW55IHNlY3JldCBpbiBpdA",
		"github.com/agc-sarif/agc-sarif/internal/secrettest",
		"claude-code/136935dd-afce-4504-84da-d21467819222/toolu_01NSX9EDCBG15megDu54GHRp/PreToolUse",
		"toolu_01NSX9EDCBG15megDu54GHRpAbCdEf12",
		"claude-code/s-e2e/toolu_00001/PreToolUse",
		"gemini-cli/sess-7/run_shell_command/BeforeTool/x",
		"/home/runner/work/Repo2Name/Repo2Name/src/Main9Controller",
	} {
		if got := scanHighEntropy(s, ""); len(got) != 0 {
			t.Errorf("%q taken for a secret", s)
		}
	}
}
