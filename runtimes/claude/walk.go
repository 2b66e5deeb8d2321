package claude

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// A message's content blocks read in one walk. jsonscan.Lookup(message, "content"), Elements and
// a Lookup of each element walk a tool result three times (each finds the end of the value it
// gives before its caller looks inside). contentBlocks walks the array once and finds the same
// values; where it cannot be sure of that (a value that is not well formed) it gives up and the
// three walks decide, so that every record reads as before.

// blockKeys are the members of a content block that the readers of tool_result blocks (type,
// tool_use_id, is_error, content) and of tool_use blocks (type, id, name, input) read.
var blockKeys = [...]string{"type", "tool_use_id", "is_error", "content", "id", "name", "input"}

// Indexes in block of the members in blockKeys.
const (
	bType = iota
	bToolUseID
	bIsError
	bContent
	bID
	bName
	bInput
)

// block holds the raw values of a content block's blockKeys members, nil when absent.
type block [len(blockKeys)][]byte

// stopWalk is what a walkObject callback returns to end the walk there, successfully.
const stopWalk = -2

// contentBlocks returns the values of the blockKeys members of each object element of the
// "content" array of message, exactly as jsonscan.Lookup(message, "content"), Elements and
// Lookup(element, blockKeys...) find them (an element that is not an object has none and is left
// out).
func contentBlocks(message []byte) []block {
	if blocks, ok := walkBlocks(message, nil); ok {
		return blocks
	}
	var out []block
	content := jsonscan.Lookup(message, "content")[0]
	jsonscan.Elements(content, func(el []byte) bool {
		if len(el) > 0 && el[0] == '{' {
			var b block
			copy(b[:], jsonscan.Lookup(el, blockKeys[:]...))
			out = append(out, b)
		}
		return true
	})
	return out
}

// walkView looks up the view of the record d in one walk that also reads its message's content
// blocks (so that a tool result is walked once, not once for the view and once for its blocks).
// It reports false when it gave up; v is then partial and the caller looks the view up again.
func walkView(d []byte, v *view) bool {
	left := len(v.m)
	end := walkObject(d, 0, func(key []byte, at int) int {
		n := viewIndex(key[1 : len(key)-1])
		var e int
		if n == vMessage && v.m[vMessage] == nil {
			e = walkMessage(d, at, v)
		} else {
			e = plainEnd(d, at)
		}
		if e < 0 {
			return -1
		}
		if n >= 0 && v.m[n] == nil {
			v.m[n] = d[at:e]
			left--
		}
		if left == 0 {
			return stopWalk
		}
		return e
	})
	return end != -1
}

// walkMessage walks the message object at d[at] and returns its end (-1: gave up), keeping the
// blocks of its first "content" member in v as walkBlocks finds them.
func walkMessage(d []byte, at int, v *view) int {
	found := false
	end := walkObject(d, at, func(key []byte, a int) int {
		if found || string(key) != `"content"` {
			return plainEnd(d, a)
		}
		found = true
		if a < len(d) && d[a] == '[' {
			var e int
			v.blocks, e = walkArray(d, a, nil)
			return e
		}
		return plainEnd(d, a) // not an array: no blocks
	})
	v.walked = end >= 0
	return end
}

// walkBlocks appends to dst the blocks of message's first "content" member in one walk; ok is
// false when it gave up.
func walkBlocks(message []byte, dst []block) ([]block, bool) {
	ok := true
	end := walkObject(message, 0, func(key []byte, at int) int {
		if string(key) != `"content"` {
			return plainEnd(message, at)
		}
		var e int
		dst, e = walkArray(message, at, dst)
		ok = e >= 0
		return stopWalk
	})
	return dst, ok && end != -1
}

// walkArray appends the object elements of the array at b[at] to dst and returns the index just
// past the array, or -1 when it gives up. A value that is not an array has no elements (0).
func walkArray(b []byte, at int, dst []block) ([]block, int) {
	if at >= len(b) || b[at] != '[' {
		return dst, 0
	}
	i := jsonscan.SkipSpace(b, at+1)
	if i < len(b) && b[i] == ']' {
		return dst, i + 1
	}
	for i < len(b) {
		var end int
		if b[i] == '{' {
			var m block
			end = walkObject(b, i, func(key []byte, at int) int {
				e := plainEnd(b, at)
				for n, want := range blockKeys {
					if e >= 0 && m[n] == nil && len(key) == len(want)+2 && string(key[1:len(key)-1]) == want {
						m[n] = b[at:e]
					}
				}
				return e
			})
			dst = append(dst, m)
		} else {
			end = plainEnd(b, i)
		}
		if end < 0 {
			return dst, -1
		}
		switch i = jsonscan.SkipSpace(b, end); {
		case i < len(b) && b[i] == ',':
			i = jsonscan.SkipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return dst, i + 1
		default:
			return dst, -1
		}
	}
	return dst, -1
}

// walkObject walks the members of the object at b[i] once, as jsonscan.MembersAt does, giving fn
// each raw key (with its quotes) and where its value starts; fn returns where the value ends,
// -1 to give up or stopWalk. It returns the index just past the object, -1 when it gave up or
// b holds no object there, or stopWalk.
func walkObject(b []byte, i int, fn func(key []byte, at int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	if i = jsonscan.SkipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return i + 1
	}
	for i < len(b) && b[i] == '"' {
		end := jsonscan.StringEnd(b, i)
		if end < 0 {
			return -1
		}
		key := b[i:end]
		if i = jsonscan.SkipSpace(b, end); i >= len(b) || b[i] != ':' {
			return -1
		}
		vend := fn(key, jsonscan.SkipSpace(b, i+1))
		if vend < 0 {
			return vend
		}
		switch i = jsonscan.SkipSpace(b, vend); {
		case i < len(b) && b[i] == ',':
			i = jsonscan.SkipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return i + 1
		default:
			return -1
		}
	}
	return -1
}

// plainEnd is jsonscan.ValueEnd, or -1 for a scalar that holds a quote or an opening bracket:
// where the value's end might not be where the bracket counting of Lookup and Elements puts it.
func plainEnd(b []byte, at int) int {
	e := jsonscan.ValueEnd(b, at)
	if e > at && b[at] != '"' && b[at] != '{' && b[at] != '[' && bytes.ContainsAny(b[at:e], `"{[`) {
		return -1
	}
	return e
}
