package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// TestClassesRedacted checks every class of issue 33 has at least three planted variants and
// that none survives redaction, whole or in part (the planted secret is the part that must go).
func TestClassesRedacted(t *testing.T) {
	r := New(Options{})
	count := map[string]int{}
	for i, p := range secrettest.Classes() {
		count[p.Category]++
		if !strings.Contains(p.Text, p.Secret) {
			t.Fatalf("case %d (%s): the secret is not in its text", i, p.Category)
		}
		got := r.String(p.Text)
		if strings.Contains(got, p.Secret) {
			t.Errorf("case %d (%s in %s) survived:\n  %q\n  %q", i, p.Category, p.Where, p.Text, got)
		}
		if p.Category == "base64-wrapped" {
			// Every line of the wrapped block goes, not only those that decode to a match alone.
			for _, l := range strings.FieldsFunc(p.Text, func(c rune) bool { return c == '\n' || c == '"' }) {
				if l = strings.TrimPrefix(strings.TrimSuffix(l, `\n`), `\n`); len(l) >= 40 && !strings.ContainsAny(l, " :") && strings.Contains(got, l) {
					t.Errorf("case %d: a line of the wrapped base64 survived: %q", i, l)
				}
			}
		}
		if again := r.String(got); again != got {
			t.Errorf("case %d (%s): redacting twice changed the text:\n  %q\n  %q", i, p.Category, got, again)
		}
	}
	for cat, n := range count {
		if n < 3 {
			t.Errorf("class %s has %d variants, want at least 3", cat, n)
		}
	}
}

// TestOrdinaryUnredacted checks the false-positive corpus: ordinary commands and code that name
// passwords, or hold long identifiers, hashes and ids, are left as they are.
func TestOrdinaryUnredacted(t *testing.T) {
	r := New(Options{})
	for _, s := range secrettest.Ordinary() {
		if got := r.String(s); got != s {
			t.Errorf("ordinary text changed:\n  %q\n  %q", s, got)
		}
	}
}

// TestClassesNested checks every class inside JSON text inside JSON text (as a hook's stderr
// quotes an AGC line that quotes a tool input): the escapes at every depth are read through.
func TestClassesNested(t *testing.T) {
	r := New(Options{})
	for i, p := range secrettest.Classes() {
		text := p.Text
		for depth := 1; depth <= 3; depth++ {
			b, _ := json.Marshal(map[string]string{"stderr": "guard: " + text})
			text = string(b)
			if !strings.Contains(text, p.Secret) {
				continue // the secret itself holds a character JSON escapes
			}
			if got := r.String(text); strings.Contains(got, p.Secret) {
				t.Errorf("case %d (%s) at depth %d survived:\n  %q", i, p.Category, depth, got)
			}
		}
	}
}
