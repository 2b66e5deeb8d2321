package corpus

import (
	"encoding/json"
	"fmt"
	"github.com/agc-sarif/agc-sarif/gates"
	"io"
)

// agcLines writes AGC responses, one per line, with every verdict, a few invalid lines and a few
// responses whose verdict is lighter than their finding.
func (g *gen) agcLines() error {
	for i := 0; g.left() > 0 && g.err == nil; i++ {
		g.agcLine(i, false)
	}
	return g.err
}

// agcLine writes response number i; noPass leaves out pass verdicts and breaches (every line is
// then exactly one finding at a place of its own).
func (g *gen) agcLine(i int, noPass bool) {
	r := gateRules[g.rng.IntN(len(gateRules))]
	x := g.rng.Float64()
	if noPass {
		x = 0.40 + 0.55*x
	}
	v := "pass"
	switch {
	case x < 0.40:
	case x < 0.60:
		v = "steer"
	case x < 0.75:
		v = "repaired"
	case x < 0.95:
		v = "block"
	case x < 0.97:
		// Invalid JSON (a trailing comma, as string-pasting gates write it); brackets balance, so
		// readers see one record and report agc/invalid-json.
		g.record([]byte(`{"agc":"0.1","gate":{"id":"` + r.gate + `","kind":"runtime"},"verdict":"block","findings":[{"rule":"` + r.rule + `","message":"m",}]}`))
		g.st.HookRecords++
		g.st.Events++
		g.st.Breaches["agc/invalid-json"]++
		return
	default:
		v = "lighter"
	}
	g.st.HookRecords++
	resp := gates.Response{AGC: "0.1", Gate: gates.Gate{ID: r.gate, Kind: gates.Runtime}, Verdict: gates.Verdict(v), Findings: []gates.Finding{}, At: g.now()}
	g.count(map[string]outcome{"pass": oPass, "steer": oSteer, "repaired": oRepaired, "block": oDeny, "lighter": oSteer}[v])
	if v != "pass" {
		path, line := ResponseLocation(i)
		f := gates.Finding{Rule: r.rule, Message: "The " + r.message, Target: r.target,
			Location: &gates.Location{Path: path, Line: line}}
		if v == "lighter" {
			// A steer response with a block finding: read, and breaches the ladder.
			resp.Verdict, f.Verdict = "steer", "block"
			g.st.Findings["steer"]--
			g.st.Findings["block"]++
			g.st.Breaches["agc/verdict-lighter-than-findings"]++
		}
		resp.Findings = append(resp.Findings, f)
	}
	b, err := json.Marshal(resp)
	if err != nil && g.err == nil {
		g.err = fmt.Errorf("corpus: %w", err)
	}
	g.record(b)
}

// ResponseLines is how many lines of one file the findings of Responses use.
const ResponseLines = 250

// ResponseLocation is the place of response number i's finding: a repo-relative path (one file
// per ResponseLines responses) and a line in 1..ResponseLines. A benchmark that anchors findings
// creates these files.
func ResponseLocation(i int) (string, int) {
	return fmt.Sprintf("internal/pkg%d/file%d.go", i/ResponseLines%100, i/ResponseLines), 1 + i%ResponseLines
}

// Responses writes n AGC responses, one per line, none of them pass and each at a place of its
// own, so that they give exactly n findings that do not merge (for SARIF at scale).
func Responses(w io.Writer, n int, seed int64) (Stats, error) {
	g := newGen(w, AGC, 0, seed)
	for i := 0; i < n && g.err == nil; i++ {
		g.agcLine(i, true)
	}
	err := g.flush()
	g.st.Bytes = g.n
	return g.st, err
}
