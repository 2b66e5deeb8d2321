package gates

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"fmt"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// The judgment binding: a reviewer, auditor or other judging agent ends its final message with
// exactly one fenced block whose info string is agc, holding the AGC JSON. The prose above it is
// for people and must agree with it (spec §12).

// JudgmentResult is a judging agent's final message as the judgment binding reads it.
type JudgmentResult struct {
	// Response is the response in the last ```agc block; nil when there is none or it cannot be
	// read (the judgment then has no verdict, and fails closed).
	Response *Response
	// Breaches are the binding and contract checks the message failed; lines are within it.
	Breaches []Breach
	// BlockLine is the line of the opening fence of the block read; 0 when there is none.
	BlockLine int
}

// ParseJudgment reads a judging agent's final message under the judgment binding.
func ParseJudgment(msg string) (*Response, []Breach) {
	j := ReadJudgment(msg)
	return j.Response, j.Breaches
}

// fence is one fenced code block of a Markdown message.
type fence struct {
	info  string // info string, trimmed
	open  int    // line of the opening fence (1-based)
	close int    // line of the closing fence; 0 when the block runs to the end of the message
	body  []string
}

// ReadJudgment reads a judging agent's final message under the judgment binding, saying where
// the block it read stands.
func ReadJudgment(msg string) JudgmentResult {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	fences, inFence := scanFences(lines)
	var agc []fence
	for _, f := range fences {
		if f.info == "agc" {
			agc = append(agc, f)
		}
	}
	var j JudgmentResult
	if len(agc) == 0 {
		j.Breaches = append(j.Breaches, noBlock(lines, fences))
		return j
	}
	last := agc[len(agc)-1]
	j.BlockLine = last.open
	if len(agc) > 1 {
		var at []string
		for i, f := range agc {
			if i == 10 {
				at = append(at, "…")
				break
			}
			at = append(at, fmt.Sprint(f.open))
		}
		j.Breaches = append(j.Breaches, Breach{Check: CheckJudgmentManyBlocks, Line: agc[0].open,
			Message: fmt.Sprintf("the final message has %d ```agc blocks (lines %s); only the last, at line %d, is read", len(agc), strings.Join(at, ", "), last.open)})
	}
	if last.close > 0 {
		for i := last.close; i < len(lines); i++ { // lines[i] is line i+1, the first after the fence
			if strings.TrimSpace(lines[i]) != "" {
				j.Breaches = append(j.Breaches, Breach{Check: CheckJudgmentNotLast, Line: i + 1,
					Message: fmt.Sprintf("text follows the ```agc block (which closes at line %d): the block must end the final message", last.close)})
				break
			}
		}
	}
	body := []byte(strings.Join(last.body, "\n"))
	r, bs := Decode(body)
	for _, b := range bs {
		b.Line = min(max(b.Line, 0), len(last.body)) + last.open // an empty block: its fence
		j.Breaches = append(j.Breaches, b)
	}
	if r == nil {
		return j
	}
	j.Response = r
	if r.Gate.Kind != Judgment {
		j.Breaches = append(j.Breaches, Breach{Check: CheckJudgmentWrongKind, Pointer: "/gate/kind",
			Line:    last.open + lineOf(body, []string{"gate", "kind"}),
			Message: fmt.Sprintf("the ```agc block names gate %q of kind %q; a judging agent's verdict must come from a gate of kind \"judgment\"", r.Gate.ID, r.Gate.Kind)})
	}
	j.Breaches = append(j.Breaches, proseBreaches(lines, inFence, r.Verdict)...)
	return j
}

// maxProseBreaches caps the prose lines reported one by one; the last one counts the rest.
const maxProseBreaches = 5

// proseBreaches reports the explicit verdict lines of prose (outside fenced blocks) that name
// another verdict than the block's.
func proseBreaches(lines []string, inFence []bool, block Verdict) []Breach {
	var out []Breach
	more := 0
	for i, l := range lines {
		if inFence[i] {
			continue
		}
		v, ok := proseVerdict(l)
		if !ok || v == block {
			continue
		}
		if len(out) == maxProseBreaches {
			more++
			continue
		}
		out = append(out, Breach{Check: CheckJudgmentProse, Line: i + 1,
			Message: fmt.Sprintf("the prose says the verdict is %s, but the ```agc block's verdict is %s", v, block)})
	}
	if more > 0 {
		out[len(out)-1].Message += fmt.Sprintf(" (and %s like it)", plural.N(more, "more verdict line", "more verdict lines"))
	}
	return out
}

// noBlock is the breach for a message without a ```agc block, at its last non-blank line, with a
// hint when another fenced block holds what looks like the AGC JSON.
func noBlock(lines []string, fences []fence) Breach {
	line := 1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			line = i + 1
			break
		}
	}
	msg := "the final message has no ```agc block, so the judgment has no verdict (fail closed)"
	for _, f := range fences {
		if strings.Contains(strings.Join(f.body, "\n"), `"agc"`) {
			info := f.info
			if info == "" {
				info = "none"
			}
			msg += fmt.Sprintf("; the fenced block at line %d looks like an AGC response but its info string is %s, not agc", f.open, info)
			line = f.open
			break
		}
	}
	return Breach{Check: CheckJudgmentNoBlock, Line: line, Message: msg}
}

// scanFences finds the fenced code blocks of a Markdown message as CommonMark does: an opening
// fence of three or more backticks or tildes indented by at most three spaces, closed by a fence
// of the same character at least as long, or by the end of the message. inFence[i] says whether
// line i+1 belongs to a block (fences included).
func scanFences(lines []string) ([]fence, []bool) {
	var out []fence
	inFence := make([]bool, len(lines))
	var cur *fence
	var ch byte
	var n int
	for i, l := range lines {
		if cur != nil {
			inFence[i] = true
			if c, k, rest, ok := fenceRun(l); ok && c == ch && k >= n && strings.TrimSpace(rest) == "" {
				cur.close = i + 1
				out = append(out, *cur)
				cur = nil
				continue
			}
			cur.body = append(cur.body, l)
			continue
		}
		c, k, rest, ok := fenceRun(l)
		if !ok || c == '`' && strings.ContainsRune(rest, '`') {
			continue
		}
		inFence[i] = true
		cur, ch, n = &fence{info: strings.TrimSpace(rest), open: i + 1}, c, k
	}
	if cur != nil {
		out = append(out, *cur)
	}
	return out, inFence
}

// fenceRun reads a fence at the start of l: at most three spaces, then three or more backticks or
// tildes; it returns the character, the run's length and the rest of the line.
func fenceRun(l string) (byte, int, string, bool) {
	i := 0
	for i < len(l) && i < 4 && l[i] == ' ' {
		i++
	}
	if i > 3 || i >= len(l) || l[i] != '`' && l[i] != '~' {
		return 0, 0, "", false
	}
	c, j := l[i], i
	for j < len(l) && l[j] == c {
		j++
	}
	if j-i < 3 {
		return 0, 0, "", false
	}
	return c, j - i, l[j:], true
}

// verdictLine matches an explicit verdict line of prose: "Verdict: pass", "**Verdict:** block",
// "Overall verdict — steer", "| Verdict | repaired |", case-insensitively. Bare words in prose do
// not match.
var verdictLine = lazyre.New("(?i)^\\s*(?:[>#*_+|-]+\\s*|\\d+[.)]\\s+)*" +
	"(?:(?:overall|final|gate|review|reviewer|agc|my|the|this|our)\\s+)*verdict\\s*(?:\\*\\*|__|\\*|_)?\\s*" +
	"(?::|—|–|--?|=|\\||\\bis\\b)\\s*(?:\\*\\*|__|\\*|_|`)*\\s*" +
	"(pass(?:ed|es)?|steer(?:ed|s)?|repair(?:ed|s)?|block(?:ed|s)?)\\b")

// proseVerdict returns the verdict an explicit verdict line of prose names.
func proseVerdict(l string) (Verdict, bool) {
	if len(l) > 1000 {
		return "", false
	}
	m := verdictLine.FindStringSubmatch(l)
	if m == nil {
		return "", false
	}
	w := strings.ToLower(m[1])
	for _, v := range []Verdict{Pass, Steer, Repaired, Block} {
		if strings.HasPrefix(w, string(v)[:4]) {
			return v, true
		}
	}
	return "", false
}
