package gates

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// This file finds where a JSON value stands in the bytes it was decoded from, so that breaches
// can name the line of the offending value. It is used only after the bytes decoded as JSON, so it
// can trust their shape; it still never reads past the end, and recurses only as deep as the
// pointers it looks for.

// pointerString renders JSON pointer tokens as a JSON pointer (RFC 6901): "" is the whole value.
func pointerString(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		sb.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return sb.String()
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// lineOf returns the line where the value at the JSON pointer tokens starts in data, or the line
// of the deepest enclosing value that exists when the pointer goes further than data does.
func lineOf(data []byte, tokens []string) int {
	return lineAt(data, offsetOf(data, tokens))
}

// offsetOf returns the byte offset where the value at tokens starts (see lineOf).
func offsetOf(data []byte, tokens []string) int {
	off := jsonscan.SkipSpace(data, 0)
	for _, tok := range tokens {
		next := childOffset(data, off, tok)
		if next < 0 {
			return off
		}
		off = next
	}
	return off
}

// childOffset returns the offset of the value at pointer token tok inside the value at off: the
// member named tok of an object (the last one, as encoding/json keeps the last of duplicate
// keys) or the element numbered tok of an array; -1 when there is none.
func childOffset(data []byte, off int, tok string) int {
	found := -1
	if off >= len(data) {
		return found
	}
	switch data[off] {
	case '{':
		jsonscan.MembersAt(data, off, func(key []byte, at, _ int) bool {
			k, ok := jsonscan.Unquote(key)
			if ok && k == tok {
				found = at
			}
			return ok
		})
	case '[':
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return found
		}
		jsonscan.ElementsAt(data, off, func(at, _ int) bool {
			if n == 0 {
				found = at
			}
			n--
			return n >= 0
		})
	}
	return found
}

// valueOffsets returns, for each pointer, the offset where its value starts in data, or that of
// its deepest enclosing value that exists (see lineOf; of duplicate members, the last). It reads
// data once, however many pointers.
func valueOffsets(data []byte, pointers [][]string) []int {
	w := pointerWalk{data: data, want: map[string]bool{}, at: map[string]int{}}
	for _, p := range pointers {
		for i := 0; i <= len(p); i++ {
			w.want[pointerString(p[:i])] = true
		}
	}
	w.walk(jsonscan.SkipSpace(data, 0), "", 0)
	offs := make([]int, len(pointers))
	for i, p := range pointers {
		for n := len(p); n >= 0; n-- {
			if off, ok := w.at[pointerString(p[:n])]; ok {
				offs[i] = off
				break
			}
		}
	}
	return offs
}

// pointerWalk finds the offsets of the values at the wanted pointers, walking into no others.
type pointerWalk struct {
	data []byte
	want map[string]bool // the pointers wanted and those enclosing them
	at   map[string]int  // the offsets found
}

// walk records the value at off as ptr and walks into its wanted children, at most 64 deep.
func (w *pointerWalk) walk(off int, ptr string, depth int) {
	w.at[ptr] = off
	if off >= len(w.data) || depth > 64 {
		return
	}
	switch w.data[off] {
	case '{':
		jsonscan.MembersAt(w.data, off, func(key []byte, at, _ int) bool {
			k, ok := jsonscan.Unquote(key)
			if child := ptr + pointerString([]string{k}); ok && w.want[child] {
				w.walk(at, child, depth+1)
			}
			return ok
		})
	case '[':
		k := 0
		jsonscan.ElementsAt(w.data, off, func(at, _ int) bool {
			if child := ptr + "/" + strconv.Itoa(k); w.want[child] {
				w.walk(at, child, depth+1)
			}
			k++
			return true
		})
	}
}

// linesAt returns the line of each offset, counted in one pass over data in offset order.
func linesAt(data []byte, offs []int) []int {
	order := make([]int, len(offs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return offs[order[a]] < offs[order[b]] })
	out := make([]int, len(offs))
	line, pos := 1, 0
	for _, i := range order {
		line += bytes.Count(data[pos:offs[i]], []byte{'\n'})
		pos = offs[i]
		out[i] = line
	}
	return out
}
