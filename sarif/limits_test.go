package sarif

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// manyFindings makes n findings over rules rules; every tenth is an error, every third a
// warning, the rest notes.
func manyFindings(n, rules int) []findings.Finding {
	fs := make([]findings.Finding, n)
	for i := range fs {
		lvl, v := findings.Note, "steer"
		switch {
		case i%10 == 0:
			lvl, v = findings.Error, "block"
		case i%3 == 0:
			lvl, v = findings.Warning, "repaired"
		}
		rule := fmt.Sprintf("rule-%d", i%rules)
		fs[i] = findings.Finding{
			RuleID: "gate-a/" + rule, Gate: "gate-a", Rule: rule, Kind: findings.RuntimeGate,
			Level:    lvl,
			Message:  fmt.Sprintf("Finding number %d of the run.", i),
			Location: &findings.Location{Path: fmt.Sprintf("src/file%d.go", i%50), StartLine: 1 + i}, // one line each: results on one line of one rule are folded
			Call:     &findings.Call{Runtime: "claude-code", Event: "PreToolUse", Tool: "Bash", Command: fmt.Sprintf("make target-%d", i)},
			Source:   findings.Source{File: "session.jsonl", Line: i + 1}, Count: 1 + i%7,
		}
		fs[i].Verdict = verdictOf(v)
	}
	return fs
}

func TestLimitResults(t *testing.T) {
	tests := []struct {
		name       string
		n, max     int
		wantKept   int
		wantLeft   bool
		wantErrors int // results of level error expected among the kept
	}{
		{"6000 findings, default limit", 6000, 0, 5000, true, 600},
		{"5000 findings fit", 5000, 0, 5000, false, 500},
		{"limit 10 keeps errors", 200, 10, 10, true, 10},
		{"limit above GitHub's hard cap", 30, 100000, 30, false, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions(t.TempDir())
			opts.MaxResults = tc.max
			l, _, doc := written(t, manyFindings(tc.n, 37), opts)
			run := run0(t, doc)
			results := list(t, run, "results")
			if len(results) != tc.wantKept || l.Results() != tc.wantKept {
				t.Fatalf("kept %d results (Results() %d), want %d", len(results), l.Results(), tc.wantKept)
			}
			errs := 0
			for _, r := range results {
				if r.(map[string]any)["level"] == "error" {
					errs++
				}
			}
			if errs != tc.wantErrors {
				t.Errorf("%d error results kept, want %d", errs, tc.wantErrors)
			}
			left := l.LeftOut()
			if tc.wantLeft != (len(left) > 0) {
				t.Fatalf("LeftOut = %q, want some: %v", left, tc.wantLeft)
			}
			notes := notificationTexts(t, run)
			if tc.wantLeft {
				want := fmt.Sprintf("%d of %d results left out", tc.n-tc.wantKept, tc.n)
				if !strings.HasPrefix(left[0], want) {
					t.Errorf("LeftOut[0] = %q, want it to start %q", left[0], want)
				}
				if !containsPrefix(notes, want) {
					t.Errorf("notifications %q do not say %q", notes, want)
				}
			}
		})
	}
}

// TestLimitKeepsHeaviest checks the order of keeping: level, then count, then input order
// (verdicts alike; TestLimitWeighsVerdict weighs them).
func TestLimitKeepsHeaviest(t *testing.T) {
	line := 0
	mk := func(msg string, lvl findings.Level, count int) findings.Finding {
		line++ // one line each: results on one line of one rule are folded
		return findings.Finding{RuleID: "g/r", Gate: "g", Rule: "r", Kind: findings.RuntimeGate, Level: lvl, Message: msg,
			Location: &findings.Location{Path: "a.go", StartLine: line}, Count: count}
	}
	fs := []findings.Finding{
		mk("note big.", findings.Note, 100), mk("warning 1.", findings.Warning, 1), mk("error 1.", findings.Error, 1),
		mk("warning 5.", findings.Warning, 5), mk("warning 5 later.", findings.Warning, 5), mk("error 2.", findings.Error, 2),
	}
	opts := testOptions(t.TempDir())
	opts.MaxResults = 4
	_, _, doc := written(t, fs, opts)
	var got []string
	for _, r := range list(t, run0(t, doc), "results") {
		text := r.(map[string]any)["message"].(map[string]any)["text"].(string)
		got = append(got, strings.SplitN(text, "\n", 2)[0])
	}
	want := "error 1.|warning 5.|warning 5 later.|error 2."
	if strings.Join(got, "|") != want {
		t.Errorf("kept %q\nwant %q", strings.Join(got, "|"), want)
	}
}

// TestLimitWeighsVerdict checks that, within one level, the heavier verdict is kept before the
// larger count: the order fold and collect's Bound use too.
func TestLimitWeighsVerdict(t *testing.T) {
	line := 0
	mk := func(msg string, v gates.Verdict, count int) findings.Finding {
		line++ // one line each: results on one line of one rule are folded
		return findings.Finding{RuleID: "g/r", Gate: "g", Rule: "r", Kind: findings.RuntimeGate, Level: findings.Warning,
			Verdict: v, Message: msg, Location: &findings.Location{Path: "a.go", StartLine: line}, Count: count}
	}
	fs := []findings.Finding{mk("steer 9.", gates.Steer, 9), mk("block 1.", gates.Block, 1),
		mk("repaired 2.", gates.Repaired, 2), mk("steer 3.", gates.Steer, 3)}
	opts := testOptions(t.TempDir())
	opts.MaxResults = 2
	_, _, doc := written(t, fs, opts)
	var got []string
	for _, r := range list(t, run0(t, doc), "results") {
		text := r.(map[string]any)["message"].(map[string]any)["text"].(string)
		got = append(got, strings.SplitN(text, "\n", 2)[0])
	}
	if want := "block 1.|repaired 2."; strings.Join(got, "|") != want {
		t.Errorf("kept %q\nwant %q", strings.Join(got, "|"), want)
	}
}

// TestGzipLimit shrinks the size limit to check the order of what is given up: first the
// Markdown bodies, then the lightest results, each named in LeftOut.
func TestGzipLimit(t *testing.T) {
	fs := manyFindings(400, 5)
	for i := range fs {
		fs[i].Call.Command = strings.Repeat(fmt.Sprintf("x%dy", i*7919), 300) // hard to compress
	}
	full, err := build(fs, testOptions(t.TempDir()), MaxGzipBytes)
	if err != nil {
		t.Fatal(err)
	}
	fullSize, err := gzipSize(full.data, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		limit       int
		wantAll     bool
		wantLeftOut []string
	}{
		{"fits", fullSize, true, nil},
		{"markdown goes first", fullSize - 1, true, []string{"message.markdown of all 400 results left out"}},
		{"then results", 20_000, false, []string{"message.markdown of all 400 results left out", "results left out: the gzipped SARIF was"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := build(fs, testOptions(t.TempDir()), tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			checkSchema(t, l.data)
			size, err := gzipSize(l.data, 0)
			if err != nil {
				t.Fatal(err)
			}
			if size > tc.limit {
				t.Errorf("gzipped size %d over the limit %d", size, tc.limit)
			}
			if (l.Results() == 400) != tc.wantAll {
				t.Errorf("%d results kept; want all: %v", l.Results(), tc.wantAll)
			}
			for _, w := range tc.wantLeftOut {
				if !containsSubstring(l.LeftOut(), w) {
					t.Errorf("LeftOut %q does not say %q", l.LeftOut(), w)
				}
			}
			if tc.wantLeftOut == nil && len(l.LeftOut()) > 0 {
				t.Errorf("LeftOut = %q, want nothing", l.LeftOut())
			}
		})
	}
}

func TestNotificationCap(t *testing.T) {
	opts := testOptions(t.TempDir())
	for i := range 1500 {
		opts.Notifications = append(opts.Notifications, Notification{Level: "error", Message: "bad record", File: "in.jsonl", Line: i + 1})
	}
	opts.Notifications = append(opts.Notifications, Notification{Level: "fatal", Message: ""})
	_, _, doc := written(t, nil, opts)
	notes := notificationTexts(t, run0(t, doc))
	if len(notes) != MaxNotifications+1 {
		t.Fatalf("%d notifications, want %d", len(notes), MaxNotifications+1)
	}
	if notes[0] != "in.jsonl:1: bad record" {
		t.Errorf("first notification %q", notes[0])
	}
	if want := "501 more notifications left out"; !strings.HasPrefix(notes[MaxNotifications], want) {
		t.Errorf("last notification %q, want %q", notes[MaxNotifications], want)
	}
}

func notificationTexts(t *testing.T, run map[string]any) []string {
	t.Helper()
	inv := list(t, run, "invocations")[0].(map[string]any)
	ns, _ := inv["toolExecutionNotifications"].([]any)
	var out []string
	for _, n := range ns {
		out = append(out, n.(map[string]any)["message"].(map[string]any)["text"].(string))
	}
	return out
}

func containsPrefix(xs []string, p string) bool {
	for _, x := range xs {
		if strings.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

func containsSubstring(xs []string, p string) bool {
	for _, x := range xs {
		if strings.Contains(x, p) {
			return true
		}
	}
	return false
}

// TestLimitKeepsTrustedThenEachGate: past the result cap, a reviewer's (trusted) note is kept
// before every agent-written error, and one result of each gate before a second of any.
func TestLimitKeepsTrustedThenEachGate(t *testing.T) {
	line := 0
	mk := func(gate, msg string, lvl findings.Level) findings.Finding {
		line++
		return findings.Finding{RuleID: gate + "/r", Gate: gate, Rule: "r", Kind: findings.JudgmentGate, Level: lvl, Message: msg,
			Location: &findings.Location{Path: "a.go", StartLine: line}, Count: 1}
	}
	var fs []findings.Finding
	for i := range 20 {
		fs = append(fs, mk("flood", fmt.Sprintf("flood %d.", i), findings.Error))
	}
	fs = append(fs, mk("other", "other note.", findings.Note))
	trusted := mk("reviewer", "trusted note.", findings.Note)
	trusted.Trusted = true
	fs = append(fs, trusted)
	opts := testOptions(t.TempDir())
	opts.MaxResults = 3
	_, _, doc := written(t, fs, opts)
	var got []string
	for _, r := range list(t, run0(t, doc), "results") {
		got = append(got, strings.SplitN(r.(map[string]any)["message"].(map[string]any)["text"].(string), "\n", 2)[0])
	}
	if want := "flood 0.|other note.|trusted note."; strings.Join(got, "|") != want {
		t.Errorf("kept %q\nwant %q", strings.Join(got, "|"), want)
	}
}
