package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzString checks that redaction never panics, keeps JSON valid, and that what it leaves
// needs no second pass for the secrets it already hid.
func FuzzString(f *testing.F) {
	f.Add(`export GITHUB_TOKEN=abc123def456ghi789jkl "password": "x y"`)
	r := New(Options{})
	f.Fuzz(func(t *testing.T, s string) {
		out := r.String(s)
		if strings.Count(out, "[REDACTED:") < strings.Count(s, "[REDACTED:") {
			t.Fatalf("redaction removed a marker: %q -> %q", s, out)
		}
		if json.Valid([]byte(s)) {
			if j := r.JSON([]byte(s)); !json.Valid(j) {
				t.Fatalf("JSON(%q) = %q is not JSON", s, j)
			}
		}
	})
}
