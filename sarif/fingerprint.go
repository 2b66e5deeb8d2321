package sarif

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// This file is a port of github/codeql-action src/fingerprints.ts (function hash), the algorithm
// GitHub's SARIF uploader uses for partialFingerprints.primaryLocationLineHash. It works on the
// UTF-16 code units of the file decoded as UTF-8 the way Node.js decodes it: spaces and tabs are
// dropped, CR and CRLF become LF, and the hash of a line is a polynomial (base 37, wrapping 64-bit
// arithmetic) over the 100 kept units that start at the line, the input followed by one 65535 unit
// and then zeros. The hex value without leading zeros gets ":k", k counting equal values so far.

const (
	hashBlockSize = 100
	hashMod       = 37
	hashEOF       = 65535
)

// hashFirstMod is 37^100 mod 2^64, the weight of the unit that leaves the window.
var hashFirstMod = func() uint64 {
	m := uint64(1)
	for range hashBlockSize {
		m *= hashMod
	}
	return m
}()

// lineHasher is the rolling hash state of fingerprints.ts, fed one UTF-16 code unit at a time.
type lineHasher struct {
	window      [hashBlockSize]uint64
	lineNumbers [hashBlockSize]int // line starting at this window slot, -1 when none
	hash        uint64
	index       int
	lineNumber  int
	lineStart   bool
	prevCR      bool
	counts      map[string]int
	emit        func(line int, hash string)
}

func newLineHasher(emit func(line int, hash string)) *lineHasher {
	h := &lineHasher{lineStart: true, counts: map[string]int{}, emit: emit}
	for i := range h.lineNumbers {
		h.lineNumbers[i] = -1
	}
	return h
}

func (h *lineHasher) output() {
	v := strconv.FormatUint(h.hash, 16)
	h.counts[v]++
	h.emit(h.lineNumbers[h.index], v+":"+strconv.Itoa(h.counts[v]))
	h.lineNumbers[h.index] = -1
}

func (h *lineHasher) update(c uint64) {
	begin := h.window[h.index]
	h.window[h.index] = c
	h.hash = hashMod*h.hash + c - hashFirstMod*begin
	h.index = (h.index + 1) % hashBlockSize
}

// unit processes one code unit of the input (processCharacter in fingerprints.ts).
func (h *lineHasher) unit(c uint16) {
	if c == ' ' || c == '\t' || (h.prevCR && c == '\n') {
		h.prevCR = false
		return
	}
	if c == '\r' {
		c = '\n'
		h.prevCR = true
	} else {
		h.prevCR = false
	}
	if h.lineNumbers[h.index] != -1 {
		h.output()
	}
	if h.lineStart {
		h.lineStart = false
		h.lineNumber++
		h.lineNumbers[h.index] = h.lineNumber
	}
	if c == '\n' {
		h.lineStart = true
	}
	h.update(uint64(c))
}

// finish feeds the EOF unit and flushes the lines still in the window.
func (h *lineHasher) finish() {
	h.unit(hashEOF)
	for range hashBlockSize {
		if h.lineNumbers[h.index] != -1 {
			h.output()
		}
		h.update(0)
	}
}

// LineHashes computes GitHub's primaryLocationLineHash for every line of r, reading it as a stream;
// element i is the hash of line i+1. A text ending in a newline has one more, empty, last line.
func LineHashes(r io.Reader) ([]string, error) {
	var out []string
	var bad error
	h := newLineHasher(func(line int, hash string) {
		if line != len(out)+1 && bad == nil {
			bad = fmt.Errorf("line hash out of order: line %d after %d", line, len(out))
		}
		out = append(out, hash)
	})
	if err := decodeUTF16(r, h.unit, nil); err != nil {
		return nil, err
	}
	h.finish()
	if bad != nil {
		return nil, bad
	}
	return out, nil
}

// decodeUTF16 reads r as UTF-8 the way Node.js does (WHATWG decoder: each maximal invalid
// subsequence becomes one U+FFFD, a byte order mark is kept) and calls unit for every UTF-16 code
// unit. When lineLen is not nil it is called with the length in UTF-16 units of every line,
// newline excluded (lines end at LF, CR or CRLF), the last line included.
func decodeUTF16(r io.Reader, unit func(uint16), lineLen func(int)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	n, cr := 0, false
	put := func(c uint16) {
		unit(c)
		if lineLen == nil {
			return
		}
		switch {
		case c == '\n' && cr:
			cr = false
		case c == '\n' || c == '\r':
			lineLen(n)
			n, cr = 0, c == '\r'
		default:
			n, cr = n+1, false
		}
	}
	putRune := func(cp rune) {
		if cp < 0x10000 {
			put(uint16(cp))
			return
		}
		cp -= 0x10000
		put(uint16(0xD800 + cp>>10))
		put(uint16(0xDC00 + cp&0x3FF))
	}
	var (
		cp     rune // code point being assembled
		need   int  // continuation bytes still needed
		lo, hi byte = 0x80, 0xBF
	)
	for {
		b, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading: %w", err)
		}
		if need == 0 {
			switch {
			case b < 0x80:
				put(uint16(b))
			case b >= 0xC2 && b <= 0xDF:
				need, cp = 1, rune(b&0x1F)
			case b >= 0xE0 && b <= 0xEF:
				if b == 0xE0 {
					lo = 0xA0
				} else if b == 0xED {
					hi = 0x9F
				}
				need, cp = 2, rune(b&0x0F)
			case b >= 0xF0 && b <= 0xF4:
				if b == 0xF0 {
					lo = 0x90
				} else if b == 0xF4 {
					hi = 0x8F
				}
				need, cp = 3, rune(b&0x07)
			default:
				put(0xFFFD)
			}
			continue
		}
		if b < lo || b > hi {
			// The sequence so far is one maximal invalid subpart; b starts afresh.
			need, lo, hi = 0, 0x80, 0xBF
			put(0xFFFD)
			if err := br.UnreadByte(); err != nil {
				return fmt.Errorf("reading: %w", err)
			}
			continue
		}
		lo, hi = 0x80, 0xBF
		cp = cp<<6 | rune(b&0x3F)
		need--
		if need == 0 {
			putRune(cp)
		}
	}
	if need > 0 {
		put(0xFFFD)
	}
	if lineLen != nil {
		lineLen(n)
	}
	return nil
}
