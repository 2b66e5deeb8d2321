package findings

import (
	"hash/maphash"
	"math/bits"
)

// groupIndex finds the slot of an event group by its key. It maps a hash of the key, which is
// cheaper to hash, compare and move than the key itself (five strings and a line); the slot's
// finding tells whether it is the key looked for. The rare key whose hash another key already
// has is kept under the key itself, in more.
type groupIndex struct {
	seed  maphash.Seed
	slots map[uint64]int32
	more  map[groupKey]int32
}

func newGroupIndex(size int) groupIndex {
	return groupIndex{seed: maphash.MakeSeed(), slots: make(map[uint64]int32, size)}
}

// hash is the hash of k: the fields' own hashes mixed. The seed is random, so collisions cannot
// be chosen by an input, and a collision costs only a lookup in more.
func (x *groupIndex) hash(k *groupKey) uint64 {
	h := uint64(k.line)
	for _, s := range [...]string{k.rule, k.target, k.path, string(k.level), string(k.verdict)} {
		h = bits.RotateLeft64((h^maphash.String(x.seed, s))*0x9e3779b97f4a7c15, 29)
	}
	return h
}

// find returns the slot of the group of k in fs, and the hash of k for add.
func (x *groupIndex) find(fs []Finding, k *groupKey) (int32, uint64, bool) {
	h := x.hash(k)
	if i, ok := x.slots[h]; ok && aggregateKey(&fs[i]) == *k {
		return i, h, true
	}
	i, ok := x.more[*k]
	return i, h, ok
}

// add files slot i, which holds no group yet findable, as the group of k, whose hash is h.
func (x *groupIndex) add(fs []Finding, k *groupKey, h uint64, i int32) {
	if j, ok := x.slots[h]; ok && aggregateKey(&fs[j]) != *k {
		if x.more == nil {
			x.more = map[groupKey]int32{}
		}
		x.more[*k] = i
		return
	}
	x.slots[h] = i
}

// remap moves every slot i to remap[i], dropping those that map to evicted.
func (x *groupIndex) remap(remap []int32) {
	for h, i := range x.slots {
		if remap[i] == evicted {
			delete(x.slots, h)
		} else {
			x.slots[h] = remap[i]
		}
	}
	for k, i := range x.more {
		if remap[i] == evicted {
			delete(x.more, k)
		} else {
			x.more[k] = remap[i]
		}
	}
}
