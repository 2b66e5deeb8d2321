package gates

import (
	"strings"
	"testing"
)

func TestParseText(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		ok      bool
		verdict Verdict
		gate    string
		rule    string
		target  string
		msg     string
	}{
		{"seed example", "AGC repaired: workstream-isolation/main-checkout-access/Bash.command — the command now runs in the workstream.",
			true, Repaired, "workstream-isolation", "main-checkout-access", "Bash.command", "the command now runs in the workstream."},
		{"no target, double dash", "AGC block: secrets/no-env-read -- reading .env is not allowed", true, Block, "secrets", "no-env-read", "", "reading .env is not allowed"},
		{"single dash, spaces around", "  AGC steer: style/prefer-rg - use rg instead of grep -r  ", true, Steer, "style", "prefer-rg", "", "use rg instead of grep -r"},
		{"pass", "AGC pass: code-review/ok — nothing to report", true, Pass, "code-review", "ok", "", "nothing to report"},
		{"unknown verdict", "AGC deny: g/r — m", false, "", "", "", "", ""},
		{"upper-case verdict", "AGC BLOCK: g/r — m", false, "", "", "", "", ""},
		{"no rule", "AGC block: g — m", false, "", "", "", "", ""},
		{"too many parts", "AGC block: g/r/Bash.command/x — m", false, "", "", "", "", ""},
		{"bad gate id", "AGC block: Gate/r — m", false, "", "", "", "", ""},
		{"bad target", "AGC block: g/r/command — m", false, "", "", "", "", ""},
		{"no separator", "AGC block: g/r the message", false, "", "", "", "", ""},
		{"empty message", "AGC block: g/r — ", false, "", "", "", "", ""},
		{"not at start", "note: AGC block: g/r — m", false, "", "", "", "", ""},
		{"two lines", "AGC block: g/r — m\nmore", false, "", "", "", "", ""},
		{"empty", "", false, "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := ParseText(tt.in)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.ok, r)
			}
			if !ok {
				if r != nil {
					t.Errorf("response %+v with ok false", r)
				}
				return
			}
			if r.AGC != "0.1" || r.Gate.Kind != Runtime || r.Verdict != tt.verdict || r.Gate.ID != tt.gate || len(r.Findings) != 1 {
				t.Fatalf("response %+v", r)
			}
			f := r.Findings[0]
			if f.Rule != tt.rule || f.Target != tt.target || f.Message != tt.msg {
				t.Errorf("finding %+v, want rule %q target %q message %q", f, tt.rule, tt.target, tt.msg)
			}
		})
	}
}

func TestFindText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
		rule string
	}{
		{"refusal prefix", "PreToolUse:Bash hook error: [./guard.sh]: AGC block: workstream-isolation/main-checkout-access/Bash.command — outside the workstream", true, "main-checkout-access"},
		{"later line", "guard: checking\nAGC steer: style/prefer-rg — use rg\n", true, "prefer-rg"},
		{"first of two", "AGC block: g/first — a\nAGC steer: g/second — b", true, "first"},
		{"skips a false start", "MAGC block: g/x — no\nAGC notaverdict\nAGC steer: g/y — yes", true, "y"},
		{"CRLF", "x\r\nAGC block: g/r — m\r\n", true, "r"},
		{"none", "plain stderr\nexit 2", false, ""},
		{"inside a word", "XAGC block: g/r — m", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := FindText(tt.in)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if ok && r.Findings[0].Rule != tt.rule {
				t.Errorf("rule %q, want %q", r.Findings[0].Rule, tt.rule)
			}
		})
	}
}

func TestTextAgreesWithSchema(t *testing.T) {
	// Every response the text form yields must pass Decode once encoded, so that text and JSON
	// forms of one response are read alike.
	for _, line := range []string{
		"AGC repaired: workstream-isolation/main-checkout-access/Bash.command — the command now runs in the workstream.",
		"AGC block: a.b_c-d/0rule -- x",
	} {
		r, ok := ParseText(line)
		if !ok {
			t.Fatalf("ParseText(%q) failed", line)
		}
		if _, bs := Decode(mustJSON(t, r)); len(bs) > 0 {
			t.Errorf("%q: Decode breaches %+v", line, bs)
		}
	}
}

func FuzzParseText(f *testing.F) {
	f.Add("AGC repaired: workstream-isolation/main-checkout-access/Bash.command — the command now runs in the workstream.")
	f.Add("AGC block: g/r -- m")
	f.Add("prefix AGC steer: g/r/Edit.file_path - m")
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := ParseText(s)
		if ok {
			if r == nil || len(r.Findings) != 1 || !r.Verdict.Valid() || r.Findings[0].Message == "" {
				t.Fatalf("ParseText(%q) = %+v", s, r)
			}
			if strings.ContainsAny(r.Findings[0].Message, "\n\r") {
				t.Fatalf("message spans lines: %q", r.Findings[0].Message)
			}
		}
		if ok2 := func() bool { _, ok := FindText(s); return ok }(); ok && !ok2 {
			t.Fatalf("ParseText accepts %q but FindText does not", s)
		}
	})
}

// longAGCLines once took seconds per line in FindText (quadratic); BenchmarkFindTextLongLines
// measures it, TestFindTextLongLines checks the answer.
func longAGCLines() string {
	line := strings.Repeat("AGC block: ", 5900)
	return strings.Repeat(line+"\n", 20) + "AGC steer: g/r — found at last"
}

func TestFindTextLongLines(t *testing.T) {
	r, ok := FindText(longAGCLines())
	if !ok || r.Findings[0].Message != "found at last" {
		t.Errorf("FindText = %+v, %v", r, ok)
	}
}

func BenchmarkFindTextLongLines(b *testing.B) {
	s := longAGCLines()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		FindText(s)
	}
}
