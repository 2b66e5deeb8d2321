package collect

import (
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// Outcome is a kind of finding that --fail-on can name.
type Outcome string

// The outcomes --fail-on accepts.
const (
	FailBlock         Outcome = "block"          // any block: runtime, unstructured hook or judgment
	FailJudgmentBlock Outcome = "judgment-block" // a judging agent's block
	FailRepaired      Outcome = "repaired"       // any repair
	FailSteer         Outcome = "steer"          // any steer
	FailContract      Outcome = "contract"       // a contract breach of severity error (agc/…)
	FailNone          Outcome = "none"           // never fail
)

// DefaultFailOn is the default of --fail-on: a runtime block was already enforced by the
// runtime, but a reviewer's block or a broken gate must stop the merge.
const DefaultFailOn = "judgment-block,contract"

// ParseFailOn reads a comma-separated --fail-on list.
func ParseFailOn(s string) ([]Outcome, error) {
	var out []Outcome
	for _, part := range strings.Split(s, ",") {
		p := Outcome(strings.TrimSpace(part))
		switch p {
		case "":
			continue
		case FailBlock, FailJudgmentBlock, FailRepaired, FailSteer, FailContract, FailNone:
			out = append(out, p)
		default:
			return nil, fmt.Errorf("unknown --fail-on outcome %q (want a comma list of block, judgment-block, repaired, steer, contract, none)", p)
		}
	}
	for _, o := range out {
		if o == FailNone && len(out) > 1 {
			return nil, fmt.Errorf("--fail-on none cannot be combined with other outcomes")
		}
	}
	return out, nil
}

// matches reports whether finding f is outcome o.
func (o Outcome) matches(f *findings.Finding) bool {
	switch o {
	case FailBlock:
		return f.Kind != findings.Contract && f.Verdict == gates.Block
	case FailJudgmentBlock:
		return f.Kind == findings.JudgmentGate && f.Verdict == gates.Block
	case FailRepaired:
		return f.Kind != findings.Contract && f.Verdict == gates.Repaired
	case FailSteer:
		return f.Kind != findings.Contract && f.Verdict == gates.Steer
	case FailContract:
		return f.Kind == findings.Contract && f.Severity == findings.Error
	}
	return false
}

// Fails reports whether finding f is one of the outcomes in want, so that it decides exit
// status 1. Outputs use it to show, whatever their filters, every finding that fails the step.
func Fails(want []Outcome, f *findings.Finding) bool {
	for _, o := range want {
		if o.matches(f) {
			return true
		}
	}
	return false
}

// failed lists the outcomes of want that occur among the findings of lists, in the order of want.
func failed(want []Outcome, lists ...[]findings.Finding) []Outcome {
	var out []Outcome
	for _, o := range want {
		if occurs(o, lists) {
			out = append(out, o)
		}
	}
	return out
}

// occurs reports whether a finding of lists is outcome o.
func occurs(o Outcome, lists [][]findings.Finding) bool {
	for _, fs := range lists {
		for i := range fs {
			if o.matches(&fs[i]) {
				return true
			}
		}
	}
	return false
}
