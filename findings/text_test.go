package findings

import (
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

func TestAlertText(t *testing.T) {
	long := strings.Repeat("x", 500)
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{"runtime block with command", Finding{RuleID: "guard/no-push", Gate: "guard", Rule: "no-push", Kind: RuntimeGate,
			Verdict: gates.Block, Message: "Force pushes are not allowed", Target: "Bash.command",
			Call:   &Call{Tool: "Bash", Event: "PreToolUse", Command: "git push\n  --force"},
			Source: Source{File: "hook-log.jsonl", Line: 3}, Time: "2026-11-30T09:00:00Z",
			Anchored: "Anchored to the hook's line in .claude/settings.json: the call touched no file"},
			"Force pushes are not allowed.\nVerdict: block, by runtime gate guard, rule no-push\nTarget: Bash.command\n" +
				"Tool call: Bash (PreToolUse), command: git push --force\nRecorded at: hook-log.jsonl:3\n" +
				"Time: 2026-11-30T09:00:00Z\nAnchored to the hook's line in .claude/settings.json: the call touched no file."},
		{"repair of a file, merged", Finding{RuleID: "fmt/tabs", Gate: "fmt", Rule: "tabs", Kind: RuntimeGate,
			Verdict: gates.Repaired, Severity: Warning, Message: "Tabs replaced.", Call: &Call{Tool: "Write", FilePath: "src/a.go"},
			Repair: &Repair{Before: "\tx", After: "    x"}, Count: 3, FirstTime: "t1", LastTime: "t2"},
			"Tabs replaced.\nVerdict: repaired, by runtime gate fmt, rule tabs, severity warning\n" +
				"Tool call: Write, file: src/a.go\nRepair: \"\\tx\" → \"    x\"\nSeen: 3 times, first t1, last t2"},
		{"contract breach is capitalised", Finding{RuleID: "agc/schema", Gate: "agc", Rule: "schema", Kind: Contract,
			Severity: Error, Level: Warning, Message: "the verdict is missing"},
			"The verdict is missing.\nContract check: agc/schema (severity error)"},
		{"hook without AGC, no message", Finding{RuleID: "hook/gate", Gate: "hook", Rule: "gate", Kind: Unstructured,
			Verdict: gates.Block, Repair: &Repair{Before: long, After: ""}},
			"Gate hook reported rule gate.\nVerdict: block, by hook gate (no AGC response)\nRepair: " +
				strings.Repeat("x", maxSide-1) + "… → (empty)"},
		{"judgment keeps the gate's case", Finding{RuleID: "review/exec", Gate: "review", Rule: "exec", Kind: JudgmentGate,
			Verdict: gates.Steer, Message: "os.system runs a shell!"},
			"os.system runs a shell!\nVerdict: steer, by judgment gate review, rule exec"},
	}
	for _, tc := range tests {
		if got := AlertText(&tc.f); got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestAlertTextCuts checks that no part of the text can grow without bound or break a line.
func TestAlertTextCuts(t *testing.T) {
	huge := strings.Repeat("word\n", 10000)
	f := Finding{RuleID: "g/r", Gate: "g", Rule: "r", Kind: RuntimeGate, Verdict: gates.Block, Message: huge, Target: huge,
		Call: &Call{Tool: huge, Event: huge, Command: huge, FilePath: huge}, Repair: &Repair{Before: huge, After: huge},
		Source: Source{File: "f", Line: 1}, Anchored: huge, Count: 2, FirstTime: huge, LastTime: huge + "x"}
	text := AlertText(&f)
	if n := len([]rune(text)); n > 4000 {
		t.Errorf("alert text is %d runes", n)
	}
	if lines := strings.Count(text, "\n") + 1; lines != 8 {
		t.Errorf("alert text has %d lines, want 8 (one per fact):\n%s", lines, text)
	}
}

// TestOneLine checks oneLine against strings.Fields and strings.Join.
func TestOneLine(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", " a", "a ", "a\tb", "a\nb", "ü b", "a\u00a0b",
		"a\u2003b", "\u0085", "x\xffy z", "one two three.", "\v", "a\r\nb"} {
		want := strings.Join(strings.Fields(s), " ")
		if got := oneLine(s); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzOneLine checks oneLine against strings.Fields and strings.Join on any text.
func FuzzOneLine(f *testing.F) {
	f.Add("a  b\t\u00a0c ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestTextTimeMilliseconds: times in text stop at the millisecond; a time that does not parse
// is shown as recorded.
func TestTextTimeMilliseconds(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-30T09:00:00.123456789Z": "2026-11-30T09:00:00.123Z",
		"2026-11-30T09:00:00Z":           "2026-11-30T09:00:00Z",
		"2026-11-30T10:00:00.5+01:00":    "2026-11-30T10:00:00.5+01:00",
		"yesterday":                      "yesterday",
	} {
		if got := textTime(in); got != want {
			t.Errorf("textTime(%q) = %q, want %q", in, got, want)
		}
	}
	f := Finding{Count: 2, FirstTime: "2026-11-30T09:00:00.123456789Z", LastTime: "2026-11-30T09:00:01.000999Z"}
	if got, want := seenLine(&f), "Seen: 2 times, first 2026-11-30T09:00:00.123Z, last 2026-11-30T09:00:01Z"; got != want {
		t.Errorf("seenLine = %q, want %q", got, want)
	}
}
