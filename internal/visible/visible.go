// Package visible makes characters that a reader cannot see, or that reorder what a reader sees,
// visible as \uXXXX escapes, so agent text shown in logs, annotations and the job summary reads
// as it is stored. It is the one test of "invisible" that every output surface shares.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Hidden reports whether r is made visible by String: C0 and C1 controls other than tab and
// newline, DEL, format characters (bidi controls such as U+202E, zero-width characters, the soft
// hyphen, tags), other default-ignorable code points, variation selectors, and the line and
// paragraph separators. Some of these are ignored by culture-aware string matching (as in the
// Actions runner), so leaving them would let text hide a "##[" or a "::" from a plain search.
func Hidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	case r < 0xa0:
		return false
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r)
}

// String returns s with every Hidden rune written as a Go-style escape (\r, \x1b, \u202e,
// \U000e0041) and broken UTF-8 as U+FFFD. Text without such runes is returned unchanged.
func String(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if Hidden(r) {
			b.WriteString(Escape(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Escape is the visible form of one rune.
func Escape(r rune) string {
	switch {
	case r == '\r':
		return `\r`
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

func needs(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || Hidden(r) {
			return true
		}
	}
	return false
}

// JSON returns encoded JSON with every Hidden rune that encoding/json leaves as it is (DEL, C1
// controls, bidi and zero-width characters) written as a \u escape, so the JSON means the same
// and reads as it is stored, as String does for plain text.
func JSON(data []byte) []byte {
	if !needs(string(data)) {
		return data
	}
	var b strings.Builder
	b.Grow(len(data) + 16)
	for _, r := range string(data) {
		switch {
		case r == utf8.RuneError || !Hidden(r):
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return []byte(b.String())
}
