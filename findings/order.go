package findings

import (
	"cmp"
	"slices"
)

// Heavier orders findings for people, heaviest first: trusted (a reviewer's output) before
// agent-writable, then level, then verdict, then more events. It is the one order of the outputs
// (SARIF limits, annotations, the summary); compare with slices.SortStableFunc so input order is
// kept otherwise. Findings are passed by pointer: copying them for every comparison dominated the
// sort.
func Heavier(a, b *Finding) int {
	if a.Trusted != b.Trusted {
		if a.Trusted {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(b.Level.Weight(), a.Level.Weight()); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Verdict.Weight(), a.Verdict.Weight()); c != 0 {
		return c
	}
	return cmp.Compare(b.Count, a.Count)
}

// SortHeaviest orders fs for every capped output, in place: the trusted findings first, then
// the heaviest finding of each gate before a second of any gate, each part by Heavier and input
// order otherwise (Spread). It sorts positions, not the large findings themselves, then moves
// each finding once.
func SortHeaviest(fs []Finding) { sortBy(fs, true) }

// SortWeight orders fs by Heavier alone (trusted first, then level, verdict and count), input
// order otherwise, in place: the order of collect's findings, on which SortHeaviest and the
// SARIF's cap spread the gates.
func SortWeight(fs []Finding) { sortBy(fs, false) }

// sortBy orders fs by Heavier, then with spread by Spread.
func sortBy(fs []Finding, spread bool) {
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return Heavier(&fs[i], &fs[j]) })
	if spread {
		order = Spread(order, func(i int) (bool, string) { return fs[i].Trusted, fs[i].Gate })
	}
	permute(fs, order)
}

// Spread reorders xs, already heaviest first, so that a cap keeps what must not be crowded out:
// the trusted first (all of them), then of the rest the first of each gate, then the others,
// each part in the order it had. key tells an element's trust and gate.
func Spread[T any](xs []T, key func(T) (trusted bool, gate string)) []T {
	out := make([]T, 0, len(xs))
	seen := map[string]bool{}
	var firsts, rest []T
	for _, x := range xs {
		trusted, gate := key(x)
		switch {
		case trusted:
			out = append(out, x)
		case !seen[gate]:
			seen[gate] = true
			firsts = append(firsts, x)
		default:
			rest = append(rest, x)
		}
	}
	return append(append(out, firsts...), rest...)
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
