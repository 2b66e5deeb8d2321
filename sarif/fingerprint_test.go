package sarif

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// fingerprintVectors are every vector of the "hash" test in github/codeql-action
// src/fingerprints.test.ts at commit f3f1edbedfb4a1d188d344570834df2996d45d39 (2026-06-13),
// copied verbatim: input text and the expected hash of each line.
var fingerprintVectors = []struct {
	name  string
	input string
	want  []string
}{
	{"empty file", "", []string{"c129715d7a2bc9a3:1"}},
	{"mixed newlines", " a\nb\n  \t\tc\n d", []string{
		"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"}},
	{"LF no final newline", " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End", []string{
		"8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
		"b86d3392aea1be30:1", "e6ceba753e1a442:1"}},
	{"LF", " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", greetings},
	{"CR", " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", greetings},
	{"CRLF", " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", greetings},
	{"mixed CR LF CRLF", " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", greetings},
	{"repeated line", strings.Repeat("Lorem ipsum dolor sit amet.\n", 10), []string{
		"a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
		"a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
		"55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"}},
	{"python", "x = 2\nx = 1\nprint(x)\nx = 3\nprint(x)\nx = 4\nprint(x)\n", []string{
		"e54938cc54b302f1:1", "bb609acbe9138d60:1", "1131fd5871777f34:1", "5c482a0f8b35ea28:1",
		"54517377da7028d2:1", "2c644846cb18d53e:1", "f1b89f20de0d133:1", "c129715d7a2bc9a3:1"}},
}

var greetings = []string{"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1",
	"e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"}

func TestLineHashesUpstreamVectors(t *testing.T) {
	for _, tc := range fingerprintVectors {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time, so that the streaming reader is exercised at every boundary.
			got, err := LineHashes(iotest.OneByteReader(strings.NewReader(tc.input)))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("LineHashes(%q)\n got %q\nwant %q", tc.input, got, tc.want)
			}
		})
	}
}

// TestDecodeLikeNode checks the UTF-8 decoding against what Node.js (WHATWG decoder) produces:
// one U+FFFD per maximal invalid subpart, non-BMP characters as surrogate pairs, BOM kept.
func TestDecodeLikeNode(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []uint16
	}{
		{"ascii", "ab", []uint16{'a', 'b'}},
		{"bom kept", "\xEF\xBB\xBFa", []uint16{0xFEFF, 'a'}},
		{"two-byte", "é", []uint16{0xE9}},
		{"astral", "😀", []uint16{0xD83D, 0xDE00}},
		{"truncated three-byte then ascii", "\xE2\x82A", []uint16{0xFFFD, 'A'}},
		{"truncated at end", "a\xF0\x9F\x98", []uint16{'a', 0xFFFD}},
		{"lone continuation", "\x80\x80", []uint16{0xFFFD, 0xFFFD}},
		{"overlong", "\xC0\xAF", []uint16{0xFFFD, 0xFFFD}},
		{"encoded surrogate", "\xED\xA0\x80", []uint16{0xFFFD, 0xFFFD, 0xFFFD}},
		{"E0 overlong", "\xE0\x80\x80", []uint16{0xFFFD, 0xFFFD, 0xFFFD}},
		{"F4 above max", "\xF4\x90\x80\x80", []uint16{0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD}},
		{"F5 invalid", "\xF5a", []uint16{0xFFFD, 'a'}},
		{"restart on lead byte", "\xE2\xC3\xA9", []uint16{0xFFFD, 0xE9}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []uint16
			if err := decodeUTF16(strings.NewReader(tc.in), func(c uint16) { got = append(got, c) }, nil); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("decode(%q) = %U, want %U", tc.in, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("decode(%q) = %U, want %U", tc.in, got, tc.want)
				}
			}
		})
	}
}

func TestLineLengths(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"", []int{0}},
		{"ab\ncd", []int{2, 2}},
		{"ab\r\n\tc\r\n", []int{2, 2, 0}},
		{"a\r\rb", []int{1, 0, 1}},
		{"😀x\n", []int{3, 0}},
	}
	for _, tc := range tests {
		var got []int
		if err := decodeUTF16(strings.NewReader(tc.in), func(uint16) {}, func(n int) { got = append(got, n) }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tc.want) {
			t.Errorf("line lengths of %q = %v, want %v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("line lengths of %q = %v, want %v", tc.in, got, tc.want)
				break
			}
		}
	}
}

var lineSplit = regexp.MustCompile(`\r\n|\r|\n`)

// FuzzLineHashes checks that hashing never fails or panics and gives one hash per line, counting
// lines as the upstream test does (input.split(/\r\n|\r|\n/).length), and one length per line.
func FuzzLineHashes(f *testing.F) {
	for _, v := range fingerprintVectors {
		f.Add([]byte(v.input))
	}
	f.Add([]byte("\r \n\xE2\x82\n\xF0"))
	f.Add([]byte(strings.Repeat("ascii line\t  x\n", 9) + "\u2713 then\r\nmore \xff\xfe\r" + strings.Repeat("y", 130) + "\u00e9\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := LineHashes(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		want := len(lineSplit.Split(string(data), -1))
		if len(got) != want {
			t.Fatalf("%d hashes for %d lines of %q", len(got), want, data)
		}
		lines := 0
		if err := decodeUTF16(bytes.NewReader(data), func(uint16) {}, func(int) { lines++ }); err != nil {
			t.Fatal(err)
		}
		if lines != want {
			t.Fatalf("%d line lengths for %d lines of %q", lines, want, data)
		}
		if ref := refLineHashes(t, string(data)); !slices.Equal(got, ref) {
			t.Fatalf("%q: LineHashes %v, the rolling window of fingerprints.ts %v", data, got, ref)
		}
		// Runs of ASCII handed to lineHasher.ascii (hashUTF8) against every unit through unit.
		slowHashes, slowLens := hashBoth(t, string(data), 0)
		var mixed lineHashes
		var mixedLens []int
		h := newLineHasher(mixed.add)
		if err := hashUTF8(bytes.NewReader(data), h, func(n int) { mixedLens = append(mixedLens, n) }); err != nil {
			t.Fatal(err)
		}
		h.finish()
		mixedHashes := make([]string, mixed.len())
		for i := range mixedHashes {
			mixedHashes[i] = mixed.text(i)
		}
		if !slices.Equal(mixedHashes, slowHashes) || !slices.Equal(mixedLens, slowLens) {
			t.Fatalf("%q: hashUTF8 %v %v, unit by unit %v %v", data, mixedHashes, mixedLens, slowHashes, slowLens)
		}
		if plainASCII(data) {
			fastHashes, fastLens := hashBoth(t, string(data), 1+len(data)/3)
			if !slices.Equal(slowHashes, fastHashes) || !slices.Equal(slowLens, fastLens) || !slices.Equal(got, slowHashes) {
				t.Fatalf("%q: ascii %v %v, unit %v %v, LineHashes %v", data, fastHashes, fastLens, slowHashes, slowLens, got)
			}
		}
	})
}

// TestHashASCII checks that the fast path for plain ASCII gives what decodeUTF16 gives, whole and
// fed in pieces.
func TestHashASCII(t *testing.T) {
	for _, in := range []string{"", "\n", "a", "a\n", "a\nb", "\n\n\tx  y\n", " \t \n\t", strings.Repeat("line  of\tcode\n", 300),
		strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 20) + "\n" + strings.Repeat("{\"k\":\"v\"}\n", 150),
		strings.Repeat("0123456789ABCDEFGHIJ\n", 40) + strings.Repeat("x", 1000),
		strings.Repeat("Lorem ipsum dolor sit amet.\n", 10) + strings.Repeat("x", 250) + "\n\x01\x7f"} {
		if !plainASCII([]byte(in)) {
			t.Fatalf("plainASCII(%q) = false", in)
		}
		slowHashes, slowLens := hashBoth(t, in, 0)
		if ref := refLineHashes(t, in); !slices.Equal(slowHashes, ref) {
			t.Errorf("%q: %v, the rolling window of fingerprints.ts %v", in, slowHashes, ref)
		}
		for _, piece := range []int{0, 1, 7, 8, 9, 100, 1 << 20} {
			fastHashes, fastLens := hashBoth(t, in, piece)
			if !slices.Equal(slowHashes, fastHashes) || !slices.Equal(slowLens, fastLens) {
				t.Errorf("%q in pieces of %d: fast %v %v, want %v %v", in, piece, fastHashes, fastLens, slowHashes, slowLens)
			}
		}
	}
	if plainASCII([]byte("a\r\n")) || plainASCII([]byte("é")) {
		t.Error("plainASCII accepts CR or non-ASCII")
	}
}

// hashBoth hashes in and gives its line hashes and lengths: through decodeUTF16 when piece is 0,
// else through lineHasher.ascii, piece bytes at a time.
func hashBoth(t *testing.T, in string, piece int) ([]string, []int) {
	t.Helper()
	var lh lineHashes
	var lens []int
	h := newLineHasher(lh.add)
	lineLen := func(n int) { lens = append(lens, n) }
	if piece == 0 {
		if err := decodeUTF16(strings.NewReader(in), h.unit, lineLen); err != nil {
			t.Fatal(err)
		}
	} else {
		n := 0
		for data := []byte(in); len(data) > 0; {
			k := min(piece, len(data))
			n = h.ascii(data[:k], n, lineLen)
			data = data[k:]
		}
		lineLen(n)
	}
	h.finish()
	hashes := make([]string, lh.len())
	for i := range hashes {
		hashes[i] = lh.text(i)
	}
	return hashes, lens
}

// TestPlainASCII checks the eight-bytes-at-a-time test against the definition at every position.
func TestPlainASCII(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for i := 0; i < n; i++ {
			for _, c := range []byte{'\r', 0x80, 0xff, 0x8d, '\n', 0x0c, 0x0e, 0x7f} {
				b := bytes.Repeat([]byte{'a'}, n)
				b[i] = c
				want := c < 0x80 && c != '\r'
				if got := plainASCII(b); got != want {
					t.Errorf("plainASCII(%q) = %v", b, got)
				}
			}
		}
	}
}
