package visible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain ascii, tab\tand\nnewline", "plain ascii, tab\tand\nnewline"},
		{"evil\u202etxt.exe", `evil\u202etxt.exe`},
		{"\u2066isolate\u2069", `\u2066isolate\u2069`},
		{"zero\u200bwidth\u200d\ufeff", `zero\u200bwidth\u200d\ufeff`},
		{"soft\u00adhyphen", `soft\u00adhyphen`},
		{"cr\rline", `cr\rline`},
		{"esc\x1b[31m", `esc\x1b[31m`},
		{"nel\u0085", `nel\u0085`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"vs\ufe0f", `vs\ufe0f`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"hangul filler\u3164", `hangul filler\u3164`},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"é ü 漢字 🙂 → ≠", "é ü 漢字 🙂 → ≠"},
		{"em\u2003space stays", "em\u2003space stays"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzString: the result holds no hidden rune and is valid UTF-8, and visible text is unchanged.
func FuzzString(f *testing.F) {
	for _, s := range []string{"a\u202eb", "\x00\x85", "ok", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 from %q", s)
		}
		for _, r := range got {
			if Hidden(r) {
				t.Fatalf("hidden %U left in %q", r, got)
			}
		}
		if !needs(s) && got != s {
			t.Fatalf("changed visible text %q → %q", s, got)
		}
		if strings.ContainsRune(s, '\u202e') && strings.ContainsRune(got, '\u202e') {
			t.Fatal("U+202E kept")
		}
	})
}

// JSON writes every hidden rune the encoder leaves raw as a \u escape, and the JSON means the same.
func TestJSON(t *testing.T) {
	in := "{\"a\": \"x\u202ey\x7f\u0085\u200b\U000e0041 é\"}"
	got := string(JSON([]byte(in)))
	if want := `{"a": "x\u202ey\u007f\u0085\u200b\udb40\udc41 é"}`; got != want {
		t.Errorf("JSON(%q) = %q, want %q", in, got, want)
	}
	if s := `{"a": "plain"}`; string(JSON([]byte(s))) != s {
		t.Error("plain JSON changed")
	}
}
