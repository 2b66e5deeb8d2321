package jsonscan

import "unicode/utf8"

// AppendString appends s as a JSON string exactly as encoding/json writes it without HTML
// escaping: quotes, backslashes and control characters escaped, invalid UTF-8 replaced by
// U+FFFD, U+2028 and U+2029 escaped.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := skipPlain(s, 0); i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			i = skipPlain(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i = skipPlain(s, i+size)
			continue
		}
		i += size
		start = i
		i = skipPlain(s, i)
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// skipPlain returns where the first eight bytes of s from i on that are not all plain
// (plainWord) start, or the last bytes, fewer than eight.
func skipPlain(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if !plainWord(w) {
			break
		}
	}
	return i
}

// plainWord says whether the eight bytes of w are ASCII that JSON takes as it is: no control
// character, quote or backslash (tested on all eight at once).
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^('"'*ones), w^('\\'*ones)
	// (x - ones) &^ x & highs is not 0 when a byte of x is 0; w - 0x20*ones when one is below 0x20.
	return (w|(quote-ones)&^quote|(backslash-ones)&^backslash|(w-0x20*ones)&^w)&highs == 0
}
