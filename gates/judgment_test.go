package gates

import (
	"strings"
	"testing"
)

// bt is a backtick fence, kept out of the source's line starts so that a folder walk of this
// repository does not take this file for a judging agent's message.
const bt = "```"

// msg joins lines into a message.
func msg(lines ...string) string { return strings.Join(lines, "\n") }

const judgmentJSON = `{"agc": "0.1", "gate": {"id": "code-review", "kind": "judgment"}, "verdict": "block",
 "findings": [{"rule": "sql-injection", "message": "query built from user input", "location": {"path": "src/db.go", "line": 12}}]}`

func TestReadJudgment(t *testing.T) {
	type brk struct {
		check string
		line  int
	}
	tests := []struct {
		name      string
		in        string
		verdict   Verdict // "" when no response
		blockLine int
		breaches  []brk
	}{
		{"clean", msg("## Review", "", "Verdict: block", "", bt+"agc", judgmentJSON, bt, ""), Block, 5, nil},
		{"tilde fence, long, trailing spaces", msg("ok", "~~~~agc   ", judgmentJSON, "~~~~~"), Block, 2, nil},
		{"indented fence", msg("ok", "   "+bt+"agc", judgmentJSON, "   "+bt), Block, 2, nil},
		{"CRLF", strings.ReplaceAll(msg("ok", bt+"agc", judgmentJSON, bt), "\n", "\r\n"), Block, 2, nil},
		{"unclosed block runs to the end", msg("ok", bt+"agc", judgmentJSON), Block, 2, nil},
		{"no block", msg("Looks fine to me.", "", "Verdict: pass", ""), "", 0, []brk{{CheckJudgmentNoBlock, 3}}},
		{"json block instead", msg("see", bt+"json", judgmentJSON, bt), "", 0, []brk{{CheckJudgmentNoBlock, 2}}},
		{"block quoted inside a longer fence", msg("example:", "````md", bt+"agc", judgmentJSON, bt, "````"), "", 0, []brk{{CheckJudgmentNoBlock, 2}}},
		{"four-space indent is code, not a fence", msg("x", "    "+bt+"agc", "    {}", "    "+bt), "", 0, []brk{{CheckJudgmentNoBlock, 4}}},
		{"two blocks, last read", msg(bt+"agc", `{"agc":"0.1"}`, bt, "", bt+"agc", judgmentJSON, bt), Block, 5, []brk{{CheckJudgmentManyBlocks, 1}}},
		{"text after block", msg("x", bt+"agc", judgmentJSON, bt, "", "Thanks!"), Block, 2, []brk{{CheckJudgmentNotLast, 7}}},
		{"invalid JSON, line in message", msg("x", "", bt+"agc", "{", `"agc": "0.1",`, `"gate": nope`, "}", bt), "", 3, []brk{{CheckInvalidJSON, 6}}},
		{"schema error, line in message", msg("x", bt+"agc", `{"agc": "0.1", "gate": {"id": "code-review", "kind": "judgment"},`, ` "verdict": "maybe", "findings": []}`, bt), "", 2, []brk{{CheckSchema, 4}}},
		{"empty block", msg("x", bt+"agc", bt), "", 2, []brk{{CheckInvalidJSON, 2}}},
		{"empty unclosed block", msg("x", bt+"agc"), "", 2, []brk{{CheckInvalidJSON, 2}}},
		{"runtime kind", msg("x", bt+"agc", strings.Replace(judgmentJSON, `"judgment"`, `"runtime"`, 1), bt), Block, 2, []brk{{CheckJudgmentWrongKind, 3}}},
		{"prose disagrees", msg("# Review", "**Verdict:** pass", "", bt+"agc", judgmentJSON, bt), Block, 4, []brk{{CheckJudgmentProse, 2}}},
		{"prose forms", msg("Overall verdict — steer", "- Verdict: `repaired`", "| Verdict | pass |", "Verdict is blocked", bt+"agc", judgmentJSON, bt), Block, 5,
			[]brk{{CheckJudgmentProse, 1}, {CheckJudgmentProse, 2}, {CheckJudgmentProse, 3}}},
		{"bare words are not verdict lines", msg("I would not pass this; the verdict of the tests was to block it.", "We could steer around it.", bt+"agc", strings.Replace(judgmentJSON, `"block",`, `"block" ,`, 1), bt), Block, 3, nil},
		{"verdict lines in code blocks are ignored", msg(bt+"text", "Verdict: pass", bt, bt+"agc", judgmentJSON, bt), Block, 4, nil},
		{"lighter verdict", msg("x", bt+"agc", strings.Replace(judgmentJSON, `"verdict": "block"`, `"verdict": "steer"`, 1), bt), Steer, 2, nil},
		{"empty message", "", "", 0, []brk{{CheckJudgmentNoBlock, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := ReadJudgment(tt.in)
			var got Verdict
			if j.Response != nil {
				got = j.Response.Verdict
			}
			if got != tt.verdict || j.BlockLine != tt.blockLine {
				t.Errorf("verdict %q at line %d, want %q at line %d", got, j.BlockLine, tt.verdict, tt.blockLine)
			}
			var gotB []brk
			for _, b := range j.Breaches {
				if b.Check == CheckVerdictTooLight {
					continue // checked in TestDecode; the finding below overrides
				}
				gotB = append(gotB, brk{b.Check, b.Line})
			}
			if len(gotB) != len(tt.breaches) {
				t.Fatalf("breaches %+v, want %+v", j.Breaches, tt.breaches)
			}
			for i := range gotB {
				if gotB[i] != tt.breaches[i] {
					t.Errorf("breach %d = %+v, want %+v (%s)", i, gotB[i], tt.breaches[i], j.Breaches[i].Message)
				}
			}
			r, bs := ParseJudgment(tt.in)
			if r != j.Response && (r == nil || j.Response == nil || r.Verdict != j.Response.Verdict) || len(bs) != len(j.Breaches) {
				t.Errorf("ParseJudgment disagrees with ReadJudgment")
			}
		})
	}
}

func TestProseVerdict(t *testing.T) {
	tests := []struct {
		line string
		want Verdict
	}{
		{"Verdict: pass", Pass},
		{"VERDICT: BLOCK", Block},
		{"**Verdict:** block", Block},
		{"**Verdict**: steer", Steer},
		{"## Final verdict: repaired", Repaired},
		{"> Verdict = pass", Pass},
		{"1. Verdict: passed", Pass},
		{"The verdict is block", Block},
		{"Verdict: the code should pass", ""},
		{"verdicts: pass", ""},
		{"We pass the verdict: block to the caller later", ""},
		{"Verdict: blockchain", ""},
	}
	for _, tt := range tests {
		got, ok := proseVerdict(tt.line)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("proseVerdict(%q) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
}

func FuzzParseJudgment(f *testing.F) {
	f.Add(msg("Verdict: pass", bt+"agc", judgmentJSON, bt))
	f.Add(msg("~~~agc", "{}", "~~~", "after"))
	f.Add(msg("````", bt+"agc", "````", bt+"agc", `{"agc":"2.0"}`))
	f.Fuzz(func(t *testing.T, s string) {
		j := ReadJudgment(s)
		lines := strings.Count(s, "\n") + 1
		if j.Response == nil && len(j.Breaches) == 0 {
			t.Fatal("no response and no breach: a judgment must fail closed")
		}
		for _, b := range j.Breaches {
			if b.Line < 1 || b.Line > lines {
				t.Fatalf("breach line %d outside the message's %d lines: %+v", b.Line, lines, b)
			}
			if _, ok := LookupCheck(b.Check); !ok {
				t.Fatalf("unknown check %q", b.Check)
			}
		}
	})
}

func TestReadJudgmentCapsRepeats(t *testing.T) {
	in := strings.Repeat("Verdict: pass\n", 8) + strings.Repeat(bt+"agc\n{}\n"+bt+"\n", 30) + bt + "agc\n" + judgmentJSON + "\n" + bt
	j := ReadJudgment(in)
	var prose, many []Breach
	for _, b := range j.Breaches {
		switch b.Check {
		case CheckJudgmentProse:
			prose = append(prose, b)
		case CheckJudgmentManyBlocks:
			many = append(many, b)
		}
	}
	if len(prose) != maxProseBreaches || !strings.Contains(prose[len(prose)-1].Message, "3 more") {
		t.Errorf("prose breaches %+v", prose)
	}
	if len(many) != 1 || !strings.Contains(many[0].Message, "31 ```agc blocks") || len(many[0].Message) > 200 {
		t.Errorf("many-blocks breach %+v", many)
	}
}
