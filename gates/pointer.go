package gates

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
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
	off := skipSpace(data, 0)
	for _, tok := range tokens {
		if off >= len(data) {
			return off
		}
		var next int
		switch data[off] {
		case '{':
			next = memberOffset(data, off, tok)
		case '[':
			next = elementOffset(data, off, tok)
		default:
			return off
		}
		if next < 0 {
			return off
		}
		off = next
	}
	return off
}

// memberOffset returns the offset of the value of member key in the object at off (the last one,
// as encoding/json keeps the last of duplicate keys), or -1.
func memberOffset(data []byte, off int, key string) int {
	found := -1
	i := skipSpace(data, off+1)
	for i < len(data) && data[i] == '"' {
		end := skipString(data, i)
		var k string
		if json.Unmarshal(data[i:end], &k) != nil {
			return found
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return found
		}
		i = skipSpace(data, i+1)
		if k == key {
			found = i
		}
		i = skipSpace(data, skipValue(data, i))
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
			continue
		}
		break
	}
	return found
}

// elementOffset returns the offset of element tok (a decimal index) of the array at off, or -1.
func elementOffset(data []byte, off int, tok string) int {
	n, err := strconv.Atoi(tok)
	if err != nil || n < 0 {
		return -1
	}
	i := skipSpace(data, off+1)
	for k := 0; i < len(data) && data[i] != ']'; k++ {
		if k == n {
			return i
		}
		i = skipSpace(data, skipValue(data, i))
		if i >= len(data) || data[i] != ',' {
			return -1
		}
		i = skipSpace(data, i+1)
	}
	return -1
}

// skipSpace returns the offset of the first non-space byte at or after i.
func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just after the string starting at i (data[i] == '"').
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(data)
}

// skipValue returns the offset just after the value starting at i, without recursion.
func skipValue(data []byte, i int) int {
	depth := 0
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			i = skipString(data, i)
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
			i++
		default:
			i++
		}
		if depth <= 0 && i > 0 && (data[i-1] == '"' || data[i-1] == '}' || data[i-1] == ']') {
			if depth < 0 {
				return i - 1
			}
			return i
		}
	}
	return i
}

// linesOf returns, for each pointer, the line where its value starts in data, or the line of its
// deepest enclosing value that exists (see lineOf). It reads data once, however many pointers.
func linesOf(data []byte, pointers [][]string) []int {
	want := map[string]bool{}
	for _, p := range pointers {
		for i := 0; i <= len(p); i++ {
			want[pointerString(p[:i])] = true
		}
	}
	at := map[string]int{}
	var walk func(off int, ptr string, depth int)
	walk = func(off int, ptr string, depth int) {
		at[ptr] = off
		if off >= len(data) || depth > 64 {
			return
		}
		switch data[off] {
		case '{':
			i := skipSpace(data, off+1)
			for i < len(data) && data[i] == '"' {
				end := skipString(data, i)
				var k string
				if json.Unmarshal(data[i:end], &k) != nil {
					return
				}
				i = skipSpace(data, end)
				if i >= len(data) || data[i] != ':' {
					return
				}
				i = skipSpace(data, i+1)
				if child := ptr + pointerString([]string{k}); want[child] {
					walk(i, child, depth+1)
				}
				i = skipSpace(data, skipValue(data, i))
				if i >= len(data) || data[i] != ',' {
					return
				}
				i = skipSpace(data, i+1)
			}
		case '[':
			i := skipSpace(data, off+1)
			for k := 0; i < len(data) && data[i] != ']'; k++ {
				if child := ptr + "/" + strconv.Itoa(k); want[child] {
					walk(i, child, depth+1)
				}
				i = skipSpace(data, skipValue(data, i))
				if i >= len(data) || data[i] != ',' {
					return
				}
				i = skipSpace(data, i+1)
			}
		}
	}
	walk(skipSpace(data, 0), "", 0)
	// Lines of the offsets found, counted in one pass over data in offset order.
	out := make([]int, len(pointers))
	offs := make([]int, len(pointers))
	for i, p := range pointers {
		offs[i] = 0
		for n := len(p); n >= 0; n-- {
			if off, ok := at[pointerString(p[:n])]; ok {
				offs[i] = off
				break
			}
		}
	}
	order := make([]int, len(pointers))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return offs[order[a]] < offs[order[b]] })
	line, pos := 1, 0
	for _, i := range order {
		line += bytes.Count(data[pos:offs[i]], []byte{'\n'})
		pos = offs[i]
		out[i] = line
	}
	return out
}
