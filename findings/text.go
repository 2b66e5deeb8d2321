package findings

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Caps on the parts of AlertText, in runes: one hostile record cannot make an alert unreadable.
// Texts are cut only here, at output time, after redaction.
const (
	maxSentence = 500 // the gate's sentence
	maxWhat     = 200 // a command, a file path or a hook command
	maxSide     = 120 // each side of a repair
	maxFact     = 300 // any other fact (target, anchoring)
)

// AlertText is the plain text that stands for a finding wherever people read it: SARIF
// message.text, annotations and the job summary all show this same text. It is the gate's
// sentence (ending in a full stop), then one short fact per line, as Trivy writes its alerts:
// verdict and gate, the target, what the agent did (tool and command or file), a repair's
// before → after, where it was recorded, count and first/last time, and why it is anchored
// where it is. It holds no Markdown; callers escape it for their surface.
func AlertText(f *Finding) string {
	lines := []string{FirstSentence(f), whoLine(f)}
	if f.Target != "" {
		lines = append(lines, "Target: "+Clip(f.Target, maxFact))
	}
	if s := CallLine(f.Call); s != "" {
		lines = append(lines, s)
	}
	if s := effectLine(f); s != "" {
		lines = append(lines, s)
	}
	if s := RepairLine(f.Repair); s != "" {
		lines = append(lines, s)
	}
	if f.Source.File != "" {
		lines = append(lines, "Recorded at: "+SourceString(f.Source))
	}
	if s := seenLine(f); s != "" {
		lines = append(lines, s)
	}
	if f.Anchored != "" {
		lines = append(lines, Sentence(Clip(f.Anchored, maxFact)))
	}
	return strings.Join(lines, "\n")
}

// FirstSentence is the gate's message on one line, cut, ending in a full stop (a contract
// breach's message, which agc-sarif writes, is also capitalised);
// "Gate g reported rule r." when the gate gave none.
func FirstSentence(f *Finding) string {
	s := Clip(f.Message, maxSentence)
	if f.Kind == Contract { // our own sentence: capitalise it; a gate's keeps its case ("npm …")
		s = Sentence(s)
	} else if s != "" && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	if s == "" {
		gate, rule := f.Gate, f.Rule
		if gate == "" || rule == "" {
			gate, rule, _ = strings.Cut(f.RuleID, "/")
		}
		s = fmt.Sprintf("Gate %s reported rule %s.", gate, rule)
	}
	return s
}

// whoLine says what decided: the verdict and the gate, the hook, or the contract check.
func whoLine(f *Finding) string {
	switch f.Kind {
	case Contract:
		sev := f.Severity
		if sev == "" {
			sev = f.Level
		}
		return fmt.Sprintf("Contract check: %s (severity %s)", f.RuleID, sev)
	case Unstructured:
		return fmt.Sprintf("Verdict: %s, by hook %s (no AGC response)", verdictName(f.Verdict), Clip(f.Rule, maxFact))
	}
	kind := "runtime gate"
	if f.Kind == JudgmentGate {
		kind = "judgment gate"
	}
	s := fmt.Sprintf("Verdict: %s, by %s %s, rule %s", verdictName(f.Verdict), kind, Clip(f.Gate, maxFact), Clip(f.Rule, maxFact))
	if f.Severity != "" {
		s += ", severity " + string(f.Severity)
	}
	return s
}

func verdictName(v gates.Verdict) string {
	if v == "" {
		return "none stated"
	}
	return string(v)
}

// CallLine is what the agent did: "Tool call: Bash (PreToolUse), command: rm -rf build", or
// the file it touched; "" when nothing is known of the call.
func CallLine(c *Call) string {
	if c == nil || (c.Tool == "" && c.Command == "" && c.FilePath == "") {
		return ""
	}
	tool := c.Tool
	if tool == "" {
		tool = "unknown tool"
	}
	s := "Tool call: " + Clip(tool, maxFact)
	if c.Event != "" {
		s += " (" + Clip(c.Event, maxFact) + ")"
	}
	if c.Command != "" {
		s += ", command: " + Clip(c.Command, maxWhat)
	}
	if c.FilePath != "" {
		s += ", file: " + Clip(c.FilePath, maxWhat)
	}
	return s
}

// RepairLine is "Repair: before → after", each side on one line and cut; "" without a repair.
// When the sides differ only in white space, they are shown quoted ("\tx" → "    x"), so the
// change stays visible.
func RepairLine(r *Repair) string {
	if r == nil {
		return ""
	}
	before, after := Clip(r.Before, maxSide), Clip(r.After, maxSide)
	if before == after && r.Before != r.After {
		before, after = Cut(strconv.Quote(r.Before), maxSide), Cut(strconv.Quote(r.After), maxSide)
	}
	return "Repair: " + orEmpty(before) + " → " + orEmpty(after)
}

func orEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// seenLine is the count and times of a merged finding, or the time of a single one.
func seenLine(f *Finding) string {
	first, last := f.FirstTime, f.LastTime
	if first == "" {
		first = f.Time
	}
	if f.Count <= 1 {
		if first == "" {
			return ""
		}
		return "Time: " + Clip(textTime(first), maxFact)
	}
	s := fmt.Sprintf("Seen: %d times", f.Count)
	if first != "" {
		s += ", first " + Clip(textTime(first), maxFact)
	}
	if last != "" && textTime(last) != textTime(first) {
		s += ", last " + Clip(textTime(last), maxFact)
	}
	return s
}

// textTime is an RFC 3339 time as text shows it: to the millisecond at most, in its own zone; a time
// that does not parse is shown as it was recorded.
func textTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return s
	}
	return t.Truncate(time.Millisecond).Format(time.RFC3339Nano) // trailing zeros dropped, as recorded
}

// SourceString is "file:line", or the file alone when the line is not known.
func SourceString(s Source) string {
	if s.Line > 0 {
		return s.File + ":" + strconv.Itoa(s.Line)
	}
	return s.File
}

// Sentence makes s start with a capital letter and end with a full stop (or another sentence
// end); "" stays "".
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

// Clip puts s on one line (runs of white space become one space) and cuts it to at most n
// runes, marking a cut with "…".
func Clip(s string, n int) string { return Cut(oneLine(s), n) }

// Cut cuts s to at most n runes, marking a cut with "…".
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	k := 0
	for i := range s {
		if k == n-1 {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// oneLine is strings.Join(strings.Fields(s), " "), without the work when s is already so.
func oneLine(s string) string {
	space := true // the previous character was a space, or s starts here
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return strings.Join(strings.Fields(s), " ")
			}
			space = false
			i += n
			continue
		}
		isSpace := c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
		if isSpace && (c != ' ' || space) {
			return strings.Join(strings.Fields(s), " ")
		}
		space = isSpace
		i++
	}
	if space && s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}
