package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// Finding is one thing probe found about the guard on one input.
type Finding struct {
	Rule    string         // a probe/* rule or a contract check id (agc/…)
	Level   findings.Level // error, warning or note
	Case    Case           // the input it was found on
	Did     string         // what the guard did: its exit status, time and the start of its answer
	Message string         // what is wrong, for people
}

// traceback matches the crash reports of the usual guard languages: a Python traceback, a Go
// panic, a Node.js uncaught error with its stack.
var traceback = lazyre.New(`(?m)^Traceback \(most recent call last\):|^panic: |^goroutine \d+ \[|^\s+at .+:\d+:\d+\)?$`)

// Judge returns probe's findings about one run of the guard on c: hang, crash, fails-closed,
// stdout-not-json, and on a real (not hostile) input every contract finding of the runtime's
// binding and a decision without an AGC response.
func Judge(c Case, r Run, hook string) []Finding {
	mk := func(rule, msg string) Finding {
		return Finding{Rule: rule, Level: level(rule), Case: c, Did: Did(r), Message: msg}
	}
	switch {
	case r.TimedOut:
		return []Finding{mk(RuleHang, fmt.Sprintf("the guard ran %s on %s and was killed with its process group at the timeout of %s; the runtime would have waited that long for it.", r.Duration.Round(millisecond), c.What(), r.Timeout))}
	case r.Exit != 0 && r.Exit != 2:
		return []Finding{mk(RuleCrash, fmt.Sprintf("the guard exited %d on %s: not a decision, the call runs unguarded (or, where the runtime fails closed, is refused without a reason).%s", r.Exit, c.What(), stderrTail(r.Stderr)))}
	case traceback.Match(r.Stderr):
		return []Finding{mk(RuleCrash, fmt.Sprintf("the guard printed a traceback on %s and exited %d.%s", c.What(), r.Exit, stderrTail(r.Stderr)))}
	}
	var out []Finding
	notJSON := r.Exit == 0 && !readableAnswer(r.Stdout)
	if notJSON {
		out = append(out, mk(RuleStdoutNotJSON, fmt.Sprintf("the guard exited 0 on %s with stdout %s, which is not one JSON answer.", c.What(), Short(r.Stdout))))
	}
	res, ok := Check(c, r, hook)
	if c.Hostile {
		if r.Exit == 2 || ok && res.Decision == "block" {
			out = append(out, mk(RuleFailsClosed, fmt.Sprintf("the guard blocked on %s; on input it cannot read it must exit 0 with no answer.", c.What())))
		}
		return out
	}
	if !ok {
		return out
	}
	checks := runtimes.Checks()
	for _, b := range res.Breaches {
		if b.Check == gates.CheckHookFailedOpen {
			continue // a crash or a hang: reported above
		}
		lvl := findings.Error
		if row, ok := checks.Lookup(b.Check); ok {
			lvl = findings.Level(row.Level)
		}
		out = append(out, Finding{Rule: b.Check, Level: lvl, Case: c, Did: Did(r), Message: b.Message})
	}
	if u := res.Unstructured; u != nil && !notJSON && decided(res.Decision) {
		out = append(out, mk(RuleNoAGC, fmt.Sprintf("the guard answered %s on %s without an AGC response (%s).", res.Decision, c.What(), Short([]byte(u.Message)))))
	}
	return out
}

// Check checks one run's answer with the binding of c's runtime, as `check --event` does
// (runtimes.CheckHookAnswer), naming the hook and the tool; false when the runtime has no such
// event.
func Check(c Case, r Run, hook string) (gates.HookResult, bool) {
	b := runtimes.For(c.Runtime)
	if !slices.Contains(b.Events(), c.Event) {
		return gates.HookResult{}, false
	}
	a := gates.HookAnswer{Event: c.Event, Hook: hook, HasExit: true, ExitCode: r.Exit,
		HasStdout: true, Stdout: string(r.Stdout), HasStderr: true, Stderr: string(r.Stderr)}
	if !c.Hostile {
		a.Tool = c.Name
	}
	if r.TimedOut {
		a.Failed = "timeout"
	}
	return b.CheckHook(a), true
}

// decided reports whether a hook answer's effect is a decision worth an AGC response.
func decided(d string) bool {
	switch d {
	case "block", "repaired", "ask", "context", "defer":
		return true
	}
	return false
}

// readableAnswer reports whether stdout is what a runtime reads as a hook's JSON answer: nothing,
// or one JSON object.
func readableAnswer(stdout []byte) bool {
	t := bytes.TrimSpace(stdout)
	if len(t) == 0 {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(t, &m) == nil
}

// level is the default level of a probe rule.
func level(rule string) findings.Level {
	if row, ok := Rows().Lookup(rule); ok {
		return findings.Level(row.Level)
	}
	return findings.Error
}

const millisecond = 1000000

// What names the input for people: "PreToolUse Bash (claude-code)", "hostile input: cut JSON".
func (c Case) What() string {
	s := strings.TrimSpace(c.Event + " " + c.Name)
	if c.Hostile {
		s = fmt.Sprintf("%s (hostile: %s)", c.Event, c.Name)
	}
	if c.Origin != "" {
		s += " from " + c.Origin
	}
	return s
}

// Did says what the guard did in one run: its exit status, time and the start of its stdout.
func Did(r Run) string {
	if r.TimedOut {
		return fmt.Sprintf("killed after %s", r.Duration.Round(millisecond))
	}
	s := fmt.Sprintf("exit %d in %s", r.Exit, r.Duration.Round(millisecond))
	if len(bytes.TrimSpace(r.Stdout)) > 0 {
		s += ", stdout " + Short(r.Stdout)
	}
	return s
}

// shortLen is how much of an input or answer a finding quotes.
const shortLen = 72

// Short quotes the start of b for one line of a report: control bytes and bytes that are not
// UTF-8 escaped, cut at shortLen runes with its whole length said.
func Short(b []byte) string {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return "(empty)"
	}
	cut := t
	n := 0
	for i := range string(t) {
		if n == shortLen {
			cut = t[:i]
			break
		}
		n++
	}
	s := strconv.Quote(string(cut))
	if len(cut) < len(t) {
		s += fmt.Sprintf("… (%d bytes)", len(t))
	}
	if !utf8.Valid(t) {
		s += " (not UTF-8)"
	}
	return s
}

// stderrTail is the last line of stderr, quoted, to say why a guard crashed.
func stderrTail(stderr []byte) string {
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return ""
	}
	return " Its stderr ends: " + Short([]byte(last)) + "."
}
