package inputs

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// A message's content blocks read in one walk. jsonscan.Lookup(message, "content"), Elements and
// a Lookup of each element walk a tool result three times (each finds the end of the value it
// gives before its caller looks inside). contentBlocks walks the array once and finds the same
// values; where it cannot be sure of that (a value that is not well formed) it gives up and the
// three walks decide, so that every record reads as before.

// blockKeys are the members of a content block a reader wants, in the order it wants them.
type blockKeys [4]string

// block holds the raw values of a content block's blockKeys members, nil when absent.
type block [4][]byte

// stopWalk is what a walkObject callback returns to end the walk there, successfully.
const stopWalk = -2

// contentBlocks calls fn for each object element of the "content" array of message with the
// values of its keys members, exactly as jsonscan.Lookup(message, "content"), Elements and
// Lookup(element, keys...) find them (an element that is not an object has none: fn is not called).
func contentBlocks(message []byte, keys *blockKeys, fn func(b *block)) {
	if blocks, ok := walkBlocks(message, keys, nil); ok {
		for i := range blocks {
			fn(&blocks[i])
		}
		return
	}
	content := jsonscan.Lookup(message, "content")[0]
	jsonscan.Elements(content, func(el []byte) bool {
		var b block
		copy(b[:], jsonscan.Lookup(el, keys[:]...))
		if len(el) > 0 && el[0] == '{' {
			fn(&b)
		}
		return true
	})
}

// walkBlocks appends to dst the blocks of message's first "content" member in one walk; ok is
// false when it gave up.
func walkBlocks(message []byte, keys *blockKeys, dst []block) ([]block, bool) {
	ok := true
	end := walkObject(message, 0, func(key []byte, at int) int {
		if string(key) != `"content"` {
			return plainEnd(message, at)
		}
		var e int
		dst, e = walkArray(message, at, keys, dst)
		ok = e >= 0
		return stopWalk
	})
	return dst, ok && end != -1
}

// walkArray appends the object elements of the array at b[at] to dst and returns the index just
// past the array, or -1 when it gives up. A value that is not an array has no elements (0).
func walkArray(b []byte, at int, keys *blockKeys, dst []block) ([]block, int) {
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
				for n, want := range keys {
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
