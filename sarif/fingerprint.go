package sarif

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
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

// The window's hash is kept as the difference of two prefix hashes: with P(n) the hash of the
// first n kept units (P(n+1) = 37·P(n) + unit), the window of the 100 units from position a has
// the hash P(a+100) − 37^100·P(a), the wrapping arithmetic of fingerprints.ts included. So one
// multiply-add per unit, no window to keep, and eight plain bytes can be taken in one step.

// Powers of hashMod for taking eight units at once.
const (
	hashPow4 = hashMod * hashMod * hashMod * hashMod
	hashPow8 = hashPow4 * hashPow4
)

// lineHasher computes the line hashes of fingerprints.ts, fed one UTF-16 code unit at a time
// (unit) or plain ASCII a buffer at a time (ascii). It emits the hash value of every line, in line
// order; the ":k" suffix is counted by lineHashes.
type lineHasher struct {
	p    uint64 // P(kept)
	kept int    // units kept so far (spaces and tabs are not kept)
	// open are the lines whose hash is not out yet, oldest first from head: a ring of at most
	// hashBlockSize, since each starts at a unit of its own and is out 100 units later.
	open    [hashBlockSize]openLine
	head, n int
	atStart bool // the next unit kept starts a line
	prevCR  bool
	emit    func(hash uint64)
}

// openLine is a line whose hash is not out yet: where it started, and P there.
type openLine struct {
	at int
	p  uint64
}

func newLineHasher(emit func(hash uint64)) *lineHasher {
	return &lineHasher{atStart: true, emit: emit}
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
	h.step(uint64(c), h.atStart)
	h.atStart = c == '\n'
}

// step keeps one unit: first the line whose window ends before it is out, then, when start, a
// line starts at it.
func (h *lineHasher) step(c uint64, start bool) {
	if h.n > 0 && h.open[h.head].at+hashBlockSize == h.kept {
		h.emit(h.p - hashFirstMod*h.open[h.head].p)
		h.head, h.n = (h.head+1)%hashBlockSize, h.n-1
	}
	if start {
		h.open[(h.head+h.n)%hashBlockSize] = openLine{h.kept, h.p}
		h.n++
	}
	h.p = hashMod*h.p + c
	h.kept++
}

// asciiChunk is how many bytes asciiRun hashes between two calls out of it; it emits at most one
// hash per byte.
const asciiChunk = 256

// ascii is unit for every byte of data, when data is plain ASCII (plainASCII): the same state
// machine with no carriage returns to look after, several times faster than a call per byte. It
// calls lineLen with the length of every line that ends in data (newline excluded); n is the
// length of the current line so far, and it returns it.
func (h *lineHasher) ascii(data []byte, n int, lineLen func(int)) int {
	for rest := data; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			n += len(rest)
			break
		}
		lineLen(n + i)
		n, rest = 0, rest[i+1:]
	}
	var out [asciiChunk]uint64
	for len(data) > 0 {
		chunk := data[:min(len(data), asciiChunk)]
		data = data[len(chunk):]
		for _, v := range out[:h.asciiRun(chunk, &out)] {
			h.emit(v)
		}
	}
	h.prevCR = false
	return n
}

// SWAR masks: every byte one, every byte's high bit, every byte a space, a tab, a newline.
const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
	swarSpace = ' ' * swarOnes
	swarTab   = '\t' * swarOnes
	swarLF    = '\n' * swarOnes
)

// zeros has the high bit set of every byte of x that is zero, and of no other.
func zeros(x uint64) uint64 {
	const lows = 0x7f7f7f7f7f7f7f7f
	return ^((x&lows + lows) | x) & swarHighs // no carry leaves a byte: 0x7f + 0x7f < 0x100
}

// asciiRun feeds the bytes of chunk (at most asciiChunk) and puts the hashes due in out, returning
// how many. It calls nothing, so that its state stays in registers, and takes eight bytes at
// once where no line starts or ends among them: in one step when none is a space or a tab, else
// the others one by one, found by their bits; eight with a newline go one byte at a time.
func (h *lineHasher) asciiRun(chunk []byte, out *[asciiChunk]uint64) int {
	const none = int(^uint(0) >> 1)
	open := &h.open
	p, kept, atStart, head, n, first := h.p, h.kept, h.atStart, h.head, h.n, hashFirstMod
	due := none // where the oldest open line is out
	if n > 0 {
		due = open[head].at + hashBlockSize
	}
	k := 0
	for i := 0; i < len(chunk); {
		end := i + 1
		if i+8 <= len(chunk) && !atStart && due-kept >= 8 {
			if j, q := plainBlocks(chunk, i, p, (due-kept)/8); j > i {
				kept += j - i
				i, p = j, q
				continue
			}
			w := binary.LittleEndian.Uint64(chunk[i:])
			blank := zeros(w^swarSpace) | zeros(w^swarTab)
			switch {
			case zeros(w^swarLF) != 0:
				end = i + 8 // a line ends among them: one at a time
			default: // a space or tab among them: the bytes kept, by the high bits of the others
				keep := ^blank & swarHighs
				for m := keep; m != 0; m &= m - 1 {
					p = hashMod*p + w>>(bits.TrailingZeros64(m)-7)&0xff
				}
				kept += bits.OnesCount64(keep)
				i += 8
				continue
			}
		}
		for ; i < end; i++ {
			c := chunk[i]
			if c == ' ' || c == '\t' {
				continue
			}
			if kept == due {
				out[k%asciiChunk] = p - first*open[head].p
				k++
				if head++; head == hashBlockSize {
					head = 0
				}
				if n--; n > 0 {
					due = open[head].at + hashBlockSize
				} else {
					due = none
				}
			}
			if atStart {
				open[(head+n)%hashBlockSize] = openLine{kept, p}
				if n++; n == 1 {
					due = kept + hashBlockSize
				}
			}
			atStart = c == '\n'
			p = hashMod*p + uint64(c)
			kept++
		}
	}
	h.p, h.kept, h.atStart, h.head, h.n = p, kept, atStart, head, n
	return k
}

// plainBlocks takes the bytes of b from i on into p (P) eight at a time, while none of the eight
// is 0x20 or less (no space, tab or newline), at most max times; it returns where it stopped and
// P there. Its loop holds few values, so that they all stay in registers.
func plainBlocks(b []byte, i int, p uint64, max int) (int, uint64) {
	for ; max > 0 && i+8 <= len(b); max-- {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-0x21*swarOnes)&^w&swarHighs != 0 { // a byte of 0x20 or less (exact in ASCII)
			break
		}
		// b0·37⁷ + … + b7 (b0 the first byte), a pair, then a quad, at a time.
		t := (w&0x00ff00ff00ff00ff)*hashMod + (w>>8)&0x00ff00ff00ff00ff
		t = (t&0x0000ffff0000ffff)*(hashMod*hashMod) + (t>>16)&0x0000ffff0000ffff
		p = p*hashPow8 + (t&0xffffffff)*hashPow4 + t>>32
		i += 8
	}
	return i, p
}

// finish feeds the EOF unit and flushes the lines still open: 100 zero units.
func (h *lineHasher) finish() {
	h.unit(hashEOF)
	for range hashBlockSize {
		h.step(0, false)
	}
}

// lineHashes are the primaryLocationLineHash values of a text's lines, kept as numbers: element
// i is line i+1's hash value and how many lines up to it had that value (the ":k" suffix).
type lineHashes struct {
	values []uint64
	nth    []uint32
	counts map[uint64]uint32
}

// add appends the next line's hash value.
func (lh *lineHashes) add(v uint64) {
	if lh.counts == nil {
		lh.counts = map[uint64]uint32{}
	}
	k := lh.counts[v] + 1
	lh.counts[v] = k
	lh.values = append(lh.values, v)
	lh.nth = append(lh.nth, k)
}

// len is the number of lines hashed.
func (lh *lineHashes) len() int { return len(lh.values) }

// text is the primaryLocationLineHash of line i+1 as GitHub writes it: the value in hexadecimal
// without leading zeros, ":", and the count.
func (lh *lineHashes) text(i int) string {
	var buf [16 + 1 + 10]byte
	b := strconv.AppendUint(buf[:0], lh.values[i], 16)
	b = strconv.AppendUint(append(b, ':'), uint64(lh.nth[i]), 10)
	return string(b)
}

// LineHashes computes GitHub's primaryLocationLineHash for every line of r, reading it as a stream;
// element i is the hash of line i+1. A text ending in a newline has one more, empty, last line.
func LineHashes(r io.Reader) ([]string, error) {
	var lh lineHashes
	h := newLineHasher(lh.add)
	if err := hashUTF8(r, h, nil); err != nil {
		return nil, err
	}
	h.finish()
	out := make([]string, lh.len())
	for i := range out {
		out[i] = lh.text(i)
	}
	return out, nil
}

// decodeUTF16 reads r as UTF-8 the way Node.js does (WHATWG decoder: each maximal invalid
// subsequence becomes one U+FFFD, a byte order mark is kept) and calls unit for every UTF-16 code
// unit. When lineLen is not nil it is called with the length in UTF-16 units of every line,
// newline excluded (lines end at LF, CR or CRLF), the last line included.
func decodeUTF16(r io.Reader, unit func(uint16), lineLen func(int)) error {
	return decode(r, unit, lineLen, nil)
}

// hashUTF8 feeds h the UTF-16 code units of r as decodeUTF16 does, and its runs of plain ASCII
// through h.ascii: a file with one character outside ASCII was hashed a byte at a time, and a
// stream-json input of 4 MiB that a finding points at took 30 ms. lineLen may be nil.
func hashUTF8(r io.Reader, h *lineHasher, lineLen func(int)) error {
	ll := lineLen
	if ll == nil {
		ll = func(int) {}
	}
	return decode(r, h.unit, lineLen, func(run []byte, n int) int { return h.ascii(run, n, ll) })
}

// decode is decodeUTF16; with ascii not nil, a run of plain ASCII (plainASCII) met where no
// character is half read and no carriage return waits for its line feed is handed to ascii with
// the length of the line so far, which returns the length after it.
func decode(r io.Reader, unit func(uint16), lineLen func(int), ascii func(run []byte, n int) int) error {
	br := bufio.NewReaderSize(r, 64<<10)
	n, cr := 0, false
	put := func(c uint16) {
		unit(c)
		switch {
		case c == '\n' && cr:
			cr = false
		case c == '\n' || c == '\r':
			if lineLen != nil {
				lineLen(n)
			}
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
		if ascii != nil && need == 0 && !cr {
			if br.Buffered() == 0 {
				_, _ = br.Peek(1) // fill; an error or the end is met by ReadByte below
			}
			buf, _ := br.Peek(br.Buffered())
			if k := asciiPrefix(buf); k > 0 {
				n = ascii(buf[:k], n)
				if _, err := br.Discard(k); err != nil {
					return fmt.Errorf("reading: %w", err)
				}
				continue
			}
		}
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

// asciiPrefix is how many bytes b starts with that are ASCII and not a carriage return.
func asciiPrefix(b []byte) int {
	const high, ones, cr = 0x8080808080808080, 0x0101010101010101, 0x0d0d0d0d0d0d0d0d
	i := 0
	for ; i+8 <= len(b); i += 8 { // eight bytes at a time, as plainASCII
		w := binary.LittleEndian.Uint64(b[i:])
		x := w ^ cr
		if w&high != 0 || (x-ones)&^x&high != 0 {
			break
		}
	}
	for i < len(b) && b[i] < 0x80 && b[i] != '\r' {
		i++
	}
	return i
}
