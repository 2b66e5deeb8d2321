package sarif

import (
	"strconv"
	"strings"
	"testing"
)

// refHasher is the line hash of fingerprints.ts as it is written there: a rolling window of the
// last 100 units and, per slot, the line that starts at it. The hasher of fingerprint.go keeps
// no window (prefix hashes) and takes eight plain bytes at a time; it is checked against this.
type refHasher struct {
	window      [hashBlockSize]uint64
	lineNumbers [hashBlockSize]int
	hash        uint64
	index       int
	lineNumber  int
	lineStart   bool
	prevCR      bool
	counts      map[string]int
	out         []string
}

func newRefHasher() *refHasher {
	h := &refHasher{lineStart: true, counts: map[string]int{}}
	for i := range h.lineNumbers {
		h.lineNumbers[i] = -1
	}
	return h
}

func (h *refHasher) output() {
	v := strconv.FormatUint(h.hash, 16)
	h.counts[v]++
	h.out = append(h.out, v+":"+strconv.Itoa(h.counts[v]))
	h.lineNumbers[h.index] = -1
}

func (h *refHasher) update(c uint64) {
	begin := h.window[h.index]
	h.window[h.index] = c
	h.hash = hashMod*h.hash + c - hashFirstMod*begin
	h.index = (h.index + 1) % hashBlockSize
}

func (h *refHasher) unit(c uint16) {
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

func (h *refHasher) finish() {
	h.unit(hashEOF)
	for range hashBlockSize {
		if h.lineNumbers[h.index] != -1 {
			h.output()
		}
		h.update(0)
	}
}

// refLineHashes are the line hashes of in by refHasher.
func refLineHashes(t testing.TB, in string) []string {
	t.Helper()
	h := newRefHasher()
	if err := decodeUTF16(strings.NewReader(in), h.unit, nil); err != nil {
		t.Fatal(err)
	}
	h.finish()
	return h.out
}

// TestRefHasherUpstreamVectors checks the reference itself against codeql-action's vectors.
func TestRefHasherUpstreamVectors(t *testing.T) {
	for _, tc := range fingerprintVectors {
		if got := refLineHashes(t, tc.input); strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
