package findings

import (
	"cmp"
	"slices"
)

// Heavier orders findings for people, heaviest first: level, then verdict, then more events. It
// is the one order of the outputs (SARIF limits, annotations, the summary); compare with
// slices.SortStableFunc so input order is kept otherwise. Findings are passed by pointer: copying
// them for every comparison dominated the sort.
func Heavier(a, b *Finding) int {
	if c := cmp.Compare(b.Level.Weight(), a.Level.Weight()); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Verdict.Weight(), a.Verdict.Weight()); c != 0 {
		return c
	}
	return cmp.Compare(b.Count, a.Count)
}

// SortHeaviest orders fs by Heavier in place, keeping input order otherwise. It sorts positions,
// not the large findings themselves, then moves each finding once.
func SortHeaviest(fs []Finding) {
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return Heavier(&fs[i], &fs[j]) })
	permute(fs, order)
}

// permute moves fs[order[i]] to fs[i] for every i, in place: order is a permutation of the
// positions of fs, and is used up (every element becomes -1). Each finding is copied once (one
// more per cycle of the permutation), and no second slice of findings is made.
func permute(fs []Finding, order []int) {
	for i := range order {
		if order[i] < 0 {
			continue
		}
		tmp := fs[i]
		j := i
		for {
			k := order[j]
			order[j] = -1
			if k == i {
				fs[j] = tmp
				break
			}
			fs[j] = fs[k]
			j = k
		}
	}
}
