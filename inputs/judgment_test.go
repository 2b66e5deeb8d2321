package inputs

import (
	"context"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// fenceBT is a backtick fence, kept out of line starts in this source (see gates/judgment_test.go).
const fenceBT = "```"

const reviewJSON = `{"agc": "0.1", "gate": {"id": "code-review", "kind": "judgment"}, "verdict": "block", "findings": [
 {"rule": "sql-injection", "message": "Query built from the request.", "location": {"path": "src/db.go", "line": 12}},
 {"rule": "naming", "verdict": "steer", "message": "Rename tmp2."}]}`

func TestSniffJudgment(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{"# Review\n\n" + fenceBT + "agc\n{}\n" + fenceBT, true},
		{"x\n~~~~agc  \n{}", true},
		{"x\n   " + fenceBT + "agc", true},
		{"x\n    " + fenceBT + "agc", false}, // indented code
		{"x\n" + fenceBT + "json\n{\"agc\":\"0.1\"}", false},
		{"x\n" + fenceBT + "agcx", false},
		{"see the " + fenceBT + "agc block", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := sniffJudgment([]byte(tt.head)); got != tt.want {
			t.Errorf("sniffJudgment(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func TestJudgmentReader(t *testing.T) {
	msg := func(lines ...string) string { return strings.Join(lines, "\n") }
	type want struct {
		records, used int
		rules         []string
		lines         []int
		skips         map[string]int
		problems      []string
	}
	tests := []struct {
		name string
		in   string
		opts Options
		want want
	}{
		{"findings at the block's line", msg("# Review", "", "Verdict: block", "", fenceBT+"agc", reviewJSON, fenceBT),
			Options{}, want{records: 1, used: 1, rules: []string{"code-review/sql-injection", "code-review/naming"}, lines: []int{5, 5}}},
		{"pass", msg("fine", fenceBT+"agc", `{"agc":"0.1","gate":{"id":"code-review","kind":"judgment"},"verdict":"pass","findings":[]}`, fenceBT),
			Options{}, want{records: 1, skips: map[string]int{"pass verdict": 1}}},
		{"no block fails closed", msg("Looks good.", "", "Verdict: pass"),
			Options{}, want{records: 1, used: 1, rules: []string{"agc/judgment-no-block"}, lines: []int{3}}},
		{"empty file fails closed", "", Options{}, want{records: 1, used: 1, rules: []string{"agc/judgment-no-block"}, lines: []int{1}}},
		{"breaches at their lines", msg("**Verdict:** pass", fenceBT+"agc", reviewJSON, fenceBT, "thanks"),
			Options{}, want{records: 1, used: 1, rules: []string{"code-review/sql-injection", "code-review/naming", "agc/judgment-block-not-last", "agc/judgment-prose-disagrees"}, lines: []int{2, 2, 7, 1}}},
		{"invalid UTF-8 is read with a problem", msg("Verdict: block \xff", fenceBT+"agc", reviewJSON, fenceBT),
			Options{}, want{records: 1, used: 1, rules: []string{"code-review/sql-injection", "code-review/naming"}, problems: []string{"review.md:1: not valid UTF-8"}}},
		{"binary", "\x7fELF\x00\x00" + fenceBT + "agc",
			Options{}, want{records: 1, skips: map[string]int{"binary data": 1}, problems: []string{"review.md:1: binary data"}}},
		{"too long", msg("x", fenceBT+"agc", reviewJSON, fenceBT), Options{MaxRecord: 20},
			want{records: 1, skips: map[string]int{"too long": 1}, problems: []string{"review.md:1: the message is longer than the record limit of 20 bytes"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := findings.NewSet()
			if err := (judgmentReader{}).Read(context.Background(), Input{Name: "review.md", R: strings.NewReader(tt.in), Named: true}, tt.opts, set); err != nil {
				t.Fatal(err)
			}
			if set.Records != set.Used+set.Skipped() {
				t.Fatalf("%d records but %d used + %d skipped", set.Records, set.Used, set.Skipped())
			}
			checkSet(t, set, tt.want.records, tt.want.used, tt.want.rules, tt.want.lines, tt.want.skips, tt.want.problems)
		})
	}
}

func TestJudgmentFindingsKeepNoLocation(t *testing.T) {
	in := strings.Join([]string{"x", fenceBT + "agc", reviewJSON, fenceBT}, "\n")
	set := findings.NewSet()
	if err := (judgmentReader{}).Read(context.Background(), Input{Name: "r.md", R: strings.NewReader(in)}, Options{}, set); err != nil {
		t.Fatal(err)
	}
	if len(set.Findings) != 2 {
		t.Fatalf("%d findings", len(set.Findings))
	}
	if l := set.Findings[0].Location; l == nil || l.Path != "src/db.go" || l.StartLine != 12 {
		t.Errorf("stated location lost: %+v", l)
	}
	if set.Findings[1].Location != nil {
		t.Errorf("a finding without location got one: %+v", set.Findings[1].Location)
	}
	if set.Findings[1].Kind != findings.JudgmentGate || set.Findings[1].Level != findings.Note {
		t.Errorf("kind %s level %s", set.Findings[1].Kind, set.Findings[1].Level)
	}
}
