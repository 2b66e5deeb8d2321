package collect

import (
	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// LevelKey is what --level can set a level for: a verdict, or "contract" for contract breaches.
type LevelKey string

// The keys --level accepts.
const (
	LevelBlock    LevelKey = "block"
	LevelRepaired LevelKey = "repaired"
	LevelSteer    LevelKey = "steer"
	LevelContract LevelKey = "contract"
)

// Levels are --level overrides: the output level of every finding of a key, whatever --fail-on
// says. Overriding changes what GitHub shows, never what fails the step.
type Levels map[LevelKey]findings.Level

// ParseLevels reads --level values, each a comma list of KEY=LEVEL ("block=error,steer=warning").
func ParseLevels(specs []string) (Levels, error) {
	out := Levels{}
	for _, spec := range specs {
		for _, part := range strings.Split(spec, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			k, v, ok := strings.Cut(part, "=")
			key, lvl := LevelKey(strings.TrimSpace(k)), findings.Level(strings.TrimSpace(v))
			switch {
			case !ok:
				return nil, fmt.Errorf("--level %q: want KEY=LEVEL, such as block=error", part)
			case key != LevelBlock && key != LevelRepaired && key != LevelSteer && key != LevelContract:
				return nil, fmt.Errorf("--level %q: unknown key %q (want block, repaired, steer or contract)", part, key)
			case lvl.Weight() == 0:
				return nil, fmt.Errorf("--level %q: unknown level %q (want error, warning or note)", part, lvl)
			}
			out[key] = lvl
		}
	}
	return out, nil
}

// keyOf is the --level key of f ("" for a finding without a verdict that is no breach).
func keyOf(f *findings.Finding) LevelKey {
	if f.Kind == findings.Contract {
		return LevelContract
	}
	switch f.Verdict {
	case gates.Block, gates.Repaired, gates.Steer:
		return LevelKey(f.Verdict)
	}
	return ""
}

// LevelOf is the output level of f: the --level override for its key, else error when f fails
// the step under want, else the gate's own severity capped at warning when it states one, else warning for a block, a repair or a contract breach, and note for the
// rest (steers, pass-through hook notes).
func LevelOf(want []Outcome, over Levels, f *findings.Finding) findings.Level {
	if l, ok := over[keyOf(f)]; ok {
		return l
	}
	if Fails(want, f) {
		return findings.Error
	}
	if f.Kind != findings.Contract && f.Severity.Weight() > 0 {
		// A gate's own severity overrides its verdict's default, below error: only a finding
		// that fails the step may be an error, so GitHub's check and the step agree.
		if f.Severity == findings.Error {
			return findings.Warning
		}
		return f.Severity
	}
	if f.Kind == findings.Contract || f.Verdict == gates.Block || f.Verdict == gates.Repaired {
		return findings.Warning
	}
	return findings.Note
}

// setLevels gives every finding its output level, keeping a contract breach's own severity
// (what --fail-on contract tests) apart from it.
func setLevels(want []Outcome, over Levels, fs []findings.Finding) {
	for i := range fs {
		setLevel(want, over, &fs[i])
	}
}

// setLevel is setLevels for one finding.
func setLevel(want []Outcome, over Levels, f *findings.Finding) {
	if f.Kind == findings.Contract && f.Severity == "" {
		f.Severity = f.Level
	}
	f.Level = LevelOf(want, over, f)
}
