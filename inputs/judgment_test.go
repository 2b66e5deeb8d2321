package inputs

import (
	"bytes"
	"context"
	"encoding/json"
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
		{"x\n````markdown\n" + fenceBT + "agc\n{}\n" + fenceBT + "\n````", false}, // an example inside a block
	}
	for _, tt := range tests {
		if got := sniffJudgment(NewHead([]byte(tt.head))); got != tt.want {
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
			Options{Registry: testRegistry}, want{records: 1, used: 1, rules: []string{"code-review/sql-injection", "code-review/naming"}, lines: []int{5, 5}}},
		{"pass", msg("fine", fenceBT+"agc", `{"agc":"0.1","gate":{"id":"code-review","kind":"judgment"},"verdict":"pass","findings":[]}`, fenceBT),
			Options{Registry: testRegistry}, want{records: 1, skips: map[string]int{"pass verdict": 1}}},
		{"no block fails closed", msg("Looks good.", "", "Verdict: pass"),
			Options{Registry: testRegistry}, want{records: 1, used: 1, rules: []string{"agc/judgment-no-block"}, lines: []int{3}}},
		{"empty file fails closed", "", Options{Registry: testRegistry}, want{records: 1, used: 1, rules: []string{"agc/judgment-no-block"}, lines: []int{1}}},
		{"breaches at their lines", msg("**Verdict:** pass", fenceBT+"agc", reviewJSON, fenceBT, "thanks"),
			Options{Registry: testRegistry}, want{records: 1, used: 1, rules: []string{"code-review/sql-injection", "code-review/naming", "agc/judgment-block-not-last", "agc/judgment-prose-disagrees"}, lines: []int{2, 2, 7, 1}}},
		{"invalid UTF-8 is read with a problem", msg("Verdict: block \xff", fenceBT+"agc", reviewJSON, fenceBT),
			Options{Registry: testRegistry}, want{records: 1, used: 1, rules: []string{"code-review/sql-injection", "code-review/naming"}, problems: []string{"review.md:1: not valid UTF-8"}}},
		{"binary", "\x7fELF\x00\x00" + fenceBT + "agc",
			Options{Registry: testRegistry}, want{records: 1, skips: map[string]int{"binary data": 1}, problems: []string{"review.md:1: binary data"}}},
		{"too long", msg("x", fenceBT+"agc", reviewJSON, fenceBT), Options{Registry: testRegistry, MaxRecord: 20},
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
	if err := (judgmentReader{}).Read(context.Background(), Input{Name: "r.md", R: strings.NewReader(in)}, Options{Registry: testRegistry}, set); err != nil {
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

// transcriptLine is one assistant record of a transcript.
func transcriptLine(id string, sidechain bool, blocks ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"type": "assistant", "sessionId": "S", "isSidechain": sidechain, "uuid": id + "-u",
		"timestamp": "2026-11-30T10:00:00Z", "message": map[string]any{"id": id, "role": "assistant", "content": blocks}})
	return string(b) + "\n"
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// TestNamedJudgments reads reviewer outputs of every format named with --judgment (Input.Judgment)
// and not: a named output without a final message ending in one agc block is the judgment-binding
// breach; an output not so named gives a judgment only when its final message holds a block.
func TestNamedJudgments(t *testing.T) {
	review := "Review.\n\n" + fenceBT + "agc\n" + reviewJSON + "\n" + fenceBT
	user := `{"type":"user","sessionId":"S","message":{"role":"user","content":"Review."}}` + "\n"
	toolUse := transcriptLine("m1", false, map[string]any{"type": "tool_use", "id": "T1", "name": "Read", "input": map[string]any{"file_path": "/x"}})
	result := func(text string) string {
		b, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "result": text, "session_id": "S"})
		return string(b) + "\n"
	}
	initLine := `{"type":"system","subtype":"init","session_id":"S","cwd":"/repo"}` + "\n"
	tests := []struct {
		name  string
		rd    Reader
		in    string
		named bool
		want  []string // rule ids
	}{
		{"transcript block", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock(review)), false, []string{"code-review/naming", "code-review/sql-injection"}},
		{"transcript block named", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock(review)), true, []string{"code-review/naming", "code-review/sql-injection"}},
		{"transcript block split over records", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock("Review.")) + transcriptLine("m2", false, textBlock(fenceBT+"agc\n"+reviewJSON+"\n"+fenceBT)), true, []string{"code-review/naming", "code-review/sql-injection"}},
		{"transcript no block", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock("Looks fine.")), false, nil},
		{"transcript no block named", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock("Looks fine.")), true, []string{"agc/judgment-no-block"}},
		{"transcript ends in a tool call named", readerOf(t, transcriptFormat), user + transcriptLine("m0", false, textBlock(review)) + toolUse, true, []string{"agc/judgment-no-block"}},
		{"transcript sidechain block after the main message", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock("Looks fine.")) + transcriptLine("m3", true, textBlock(review)), true, []string{"agc/judgment-no-block"}},
		{"transcript sidechain block not named", readerOf(t, transcriptFormat), user + transcriptLine("m3", true, textBlock(review)), false, nil},
		{"transcript without assistant named", readerOf(t, transcriptFormat), user, true, []string{"agc/judgment-no-block"}},
		{"transcript unreadable record after the message named", readerOf(t, transcriptFormat), user + transcriptLine("m2", false, textBlock(review)) + "{\"type\":\"assistant\",\n", true, []string{"agc/judgment-no-block"}},
		{"stream block", readerOf(t, streamJSONFormat), initLine + result(review), false, []string{"code-review/naming", "code-review/sql-injection"}},
		{"stream no block", readerOf(t, streamJSONFormat), initLine + result("Looks fine."), false, nil},
		{"stream no block named", readerOf(t, streamJSONFormat), initLine + result("Looks fine."), true, []string{"agc/judgment-no-block"}},
		{"stream without result named", readerOf(t, streamJSONFormat), initLine, true, []string{"agc/judgment-no-block"}},
		{"execution file no block named", readerOf(t, streamJSONFormat), "[" + strings.TrimSpace(initLine) + ",\n" + strings.TrimSpace(result("Looks fine.")) + "]", true, []string{"agc/judgment-no-block"}},
		{"markdown binary named", judgmentReader{}, "x\x00y", true, []string{"agc/judgment-no-block"}},
		{"markdown binary", judgmentReader{}, "x\x00y", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := findings.NewSet()
			err := tt.rd.Read(context.Background(), Input{Name: "f", R: strings.NewReader(tt.in), Named: tt.named, Judgment: tt.named}, Options{Registry: testRegistry}, set)
			if err != nil {
				t.Fatal(err)
			}
			got := ruleIDs(set)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("rules %v, want %v (problems %v)", got, tt.want, set.Problems)
			}
			if set.Records != set.Used+set.Skipped() {
				t.Errorf("%d records but %d used + %d skipped", set.Records, set.Used, set.Skipped())
			}
		})
	}
}

// FuzzNamedJudgment reads arbitrary bytes as a reviewer's output named with --judgment, with
// every reader such a file can go to, and checks that it fails closed: the file gives findings
// or a pass verdict, never nothing.
func FuzzNamedJudgment(f *testing.F) {
	f.Add([]byte(transcriptLine("m", false, textBlock("Review.\n\n"+fenceBT+"agc\n"+reviewJSON+"\n"+fenceBT))))
	f.Add([]byte(`{"type":"system","subtype":"init","session_id":"S"}` + "\n" + `{"type":"result","result":"ok"}`))
	f.Add([]byte("# Review\n\n" + fenceBT + "agc\n{}\n" + fenceBT))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rd := range []Reader{readerOf(t, transcriptFormat), readerOf(t, streamJSONFormat), judgmentReader{}} {
			set := findings.NewSet()
			in := Input{Name: "f", R: bytes.NewReader(data), Named: true, Judgment: true}
			if err := rd.Read(context.Background(), in, Options{Registry: testRegistry, MaxRecord: 1 << 16}, set); err != nil {
				t.Fatalf("%T: error on in-memory input: %v", rd, err)
			}
			if len(set.Findings) == 0 && set.Skips[SkipJudgmentPass] == 0 {
				t.Fatalf("%T: named judgment gave no finding and no pass verdict (fails open); skips %v", rd, set.Skips)
			}
			for _, fd := range set.Findings {
				if fd.RuleID == "" || fd.Message == "" || fd.Source.File != "f" {
					t.Fatalf("%T: finding without rule, message or file: %+v", rd, fd)
				}
			}
		}
	})
}
