package inputs

import (
	"bytes"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Head is a file's first bytes (up to SniffSize) as the formats' sniffers see them. The
// top-level members of the object it starts with are found once, by the first sniffer that asks:
// detection tries every format in turn, and on 10,000 one-line files each sniffer walking the
// head again was a sixth of collect's CPU.
type Head struct {
	raw      []byte
	walked   bool
	members  []member
	complete bool // the object was read to its end
	small    [12]member
}

// member is one top-level member of the object a head starts with.
type member struct {
	key []byte // the raw key with its quotes (RawStr decodes it)
	val []byte // the raw value; nil when the head ends inside it
}

// Raw is the head's bytes, as detection got them.
func (h *Head) Raw() []byte { return h.raw }

// NewHead is the head of a file whose first bytes are b.
func NewHead(b []byte) *Head { return &Head{raw: b} }

// walk lists the members of the object the head starts with: every member before the head ends
// or the JSON breaks, the member the head cuts included (with val nil).
func (h *Head) walk() {
	if h.walked {
		return
	}
	h.walked = true
	h.members = h.small[:0]
	b := h.raw
	h.complete = jsonscan.MembersAt(b, 0, func(k []byte, at, end int) bool {
		m := member{key: k}
		if end >= 0 {
			m.val = b[at:end]
		}
		h.members = append(h.members, m)
		return true
	})
}

// Get is the raw value of the first member written key (without escapes) of the object the head
// starts with, as jsonscan.Lookup(raw, key) gives it: nil when absent or cut. (On broken JSON
// this may differ from a lookup in the first value as jsonscan.ValueEnd bounds it; either is a
// guess there, and every reader checks its records again.)
func (h *Head) Get(key string) []byte {
	h.walk()
	for _, m := range h.members {
		if m.val == nil {
			return nil // Lookup stops at a member the head cuts
		}
		if len(m.key) == len(key)+2 && string(m.key[1:len(m.key)-1]) == key {
			return m.val
		}
	}
	return nil
}

// First is the raw key (with its quotes) and raw value of the first member of the object the
// head starts with, nil when it starts with none; the value is nil when the head ends in it.
func (h *Head) First() (key, val []byte) {
	h.walk()
	if len(h.members) == 0 {
		return nil, nil
	}
	return h.members[0].key, h.members[0].val
}

// Keys calls fn with each top-level key, decoded, the cut member's included, and says whether the
// object was read to its end.
func (h *Head) Keys(fn func(key []byte)) bool {
	h.walk()
	for _, m := range h.members {
		k := m.key[1 : len(m.key)-1]
		if bytes.IndexByte(k, '\\') >= 0 {
			k = []byte(RawStr(m.key))
		}
		fn(k)
	}
	return h.complete
}
