// Package gates holds the AGC 0.1 contract: the response model, the verdict ladder, schema
// validation, the text form, and the runtime bindings (Claude Code hooks, judgment agents) with the
// checks that say when a gate broke its binding.
package gates

import "fmt"

// Verdict is a rung of the AGC ladder: pass, steer, repaired or block.
type Verdict string

// The verdicts of AGC 0.1, lightest first.
const (
	Pass     Verdict = "pass"
	Steer    Verdict = "steer"
	Repaired Verdict = "repaired"
	Block    Verdict = "block"
)

// Verdicts lists the verdicts from lightest to heaviest.
func Verdicts() []Verdict { return []Verdict{Pass, Steer, Repaired, Block} }

// Weight orders verdicts on the ladder: block 3 > repaired 2 > steer 1 > pass 0; -1 when unknown.
func (v Verdict) Weight() int {
	switch v {
	case Pass:
		return 0
	case Steer:
		return 1
	case Repaired:
		return 2
	case Block:
		return 3
	}
	return -1
}

// Valid reports whether v is one of the four AGC verdicts.
func (v Verdict) Valid() bool { return v.Weight() >= 0 }

// Heavier reports whether v weighs more than w on the ladder.
func (v Verdict) Heavier(w Verdict) bool { return v.Weight() > w.Weight() }

// ParseVerdict reads a verdict word, case-sensitively as the contract writes it.
func ParseVerdict(s string) (Verdict, error) {
	v := Verdict(s)
	if !v.Valid() {
		return "", fmt.Errorf("unknown verdict %q (want pass, steer, repaired or block)", s)
	}
	return v, nil
}

// Kind is what sort of gate answered: a runtime hook or a judging agent.
type Kind string

// Gate kinds of AGC 0.1.
const (
	Runtime  Kind = "runtime"
	Judgment Kind = "judgment"
)
