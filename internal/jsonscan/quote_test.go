package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAppendString checks that AppendString writes what encoding/json writes without HTML escaping.
func TestAppendString(t *testing.T) {
	tests := []string{
		"", "plain", `quote " and \ backslash`, "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f",
		"<html> & 'x'", "ünïcødé 😀", "bad \xff\xfe utf8 \xe2\x82", "line\u2028para\u2029end",
		strings.Repeat("a\"", 100),
	}
	for _, s := range tests {
		var want strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		got := string(AppendString(nil, s)) + "\n"
		if got != want.String() {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want.String())
		}
	}
}

// checkAppendString checks AppendString against encoding/json's Encoder without HTML escaping
// (FuzzScan calls it on every input).
func checkAppendString(t *testing.T, s string) {
	var want strings.Builder
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	if got := string(AppendString(nil, s)) + "\n"; got != want.String() {
		t.Errorf("AppendString(%q) = %s, want %s", s, got, want.String())
	}
}

// TestAppendStringEveryByte puts every byte value at every place of a 17-byte string (the
// eight-byte test sees it in the first, the second word, or the tail) and checks the output
// against encoding/json.
func TestAppendStringEveryByte(t *testing.T) {
	for c := range 256 {
		for at := range 17 {
			b := []byte("abcdefghijklmnopq")
			b[at] = byte(c)
			checkAppendString(t, string(b))
		}
	}
}
