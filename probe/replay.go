package probe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/hooklog"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// Call is one recorded hook call to replay: its input and what the guard answered then.
type Call struct {
	Case Case
	Then Run
}

// maxLine bounds one line of a hook log or an event file.
const maxLine = 64 << 20

// ReadLog reads the calls of a recorder's hook log (agc-sarif record, agc-record). Lines that are
// not records, and records whose input the recorder cut, are named in skipped.
func ReadLog(name string, r io.Reader) (calls []Call, skipped []string, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, n)
		var rec hooklog.Record
		if json.Unmarshal(line, &rec) != nil || rec.Input == nil {
			skipped = append(skipped, where+": not a hook-log record")
			continue
		}
		if rec.InputCut != nil {
			skipped = append(skipped, where+": the recorder kept only part of the input; not replayed")
			continue
		}
		stdin, err := recorded(rec.Input, rec.InputEncoding)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: input: %v", where, err))
			continue
		}
		out, e1 := decodeStream(rec.Stdout, rec.StdoutEncoding)
		errb, e2 := decodeStream(rec.Stderr, rec.StderrEncoding)
		if e1 != nil || e2 != nil {
			skipped = append(skipped, where+": output not decodable")
			continue
		}
		rt := rec.Runtime
		if rt == "" {
			rt = agent.Detect(stdin)
		}
		c := Case{Runtime: rt, Event: EventOf(rt, stdin), Name: toolOf(rt, stdin), Stdin: stdin, Origin: where, Replayed: true}
		then := Run{Exit: rec.ExitCode, Stdout: out, Stderr: errb, TimedOut: rec.TimedOut}
		calls = append(calls, Call{Case: c, Then: then})
	}
	if err := sc.Err(); err != nil {
		return calls, skipped, fmt.Errorf("%s: %w", name, err)
	}
	return calls, skipped, nil
}

// recorded is the stdin a record's input field holds: the JSON value itself, or a JSON string
// holding the text (base64 when the encoding says so).
func recorded(input json.RawMessage, encoding string) ([]byte, error) {
	t := bytes.TrimSpace(input)
	if len(t) == 0 || t[0] != '"' {
		return t, nil
	}
	var s string
	if err := json.Unmarshal(t, &s); err != nil {
		return nil, err
	}
	return decodeStream(s, encoding)
}

func decodeStream(s, encoding string) ([]byte, error) {
	if encoding == "base64" {
		return base64.StdEncoding.DecodeString(s)
	}
	return []byte(s), nil
}

// EventOf is the hook event a runtime's stdin names, as the runtime spells it; the runtime's
// first event when the input names none.
func EventOf(runtime string, stdin []byte) string {
	b := runtimes.For(runtime)
	if c, ok := b.HookInput(stdin); ok && c.Event != "" {
		return c.Event
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(stdin, &m)
	for _, k := range eventKeys {
		if s := gates.RawString(m[k]); s != "" {
			return s
		}
	}
	if ev := b.Events(); len(ev) > 0 {
		return ev[0]
	}
	return ""
}

// toolOf is the tool a runtime's stdin names ("?" when none).
func toolOf(runtime string, stdin []byte) string {
	if c, ok := runtimes.For(runtime).HookInput(stdin); ok && c.Tool != "" {
		return c.Tool
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(stdin, &m)
	for _, k := range toolKeys {
		if s := gates.RawString(m[k]); s != "" {
			return s
		}
	}
	return "?"
}

// ReadEvents reads a user's event file: one JSON hook input, or JSON lines. runtime names the
// runtime when the user chose one; otherwise each input's runtime is detected.
func ReadEvents(name string, data []byte, runtime string) ([]Case, error) {
	var one json.RawMessage
	if json.Unmarshal(data, &one) == nil {
		return []Case{eventCase(name+":1", bytes.TrimSpace(data), runtime)}, nil
	}
	var out []Case
	for i, line := range strings.Split(string(data), "\n") {
		t := bytes.TrimSpace([]byte(line))
		if len(t) == 0 {
			continue
		}
		if !json.Valid(t) {
			return nil, fmt.Errorf("%s:%d: not a JSON hook input", name, i+1)
		}
		out = append(out, eventCase(fmt.Sprintf("%s:%d", name, i+1), t, runtime))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no hook input", name)
	}
	return out, nil
}

func eventCase(where string, stdin []byte, runtime string) Case {
	if runtime == "" {
		runtime = agent.Detect(stdin)
	}
	return Case{Runtime: runtime, Event: EventOf(runtime, stdin), Name: toolOf(runtime, stdin), Stdin: stdin, Origin: where}
}

// replay re-runs one recorded call and reports a changed answer as probe/changed, besides a hang
// or crash of the new run.
func replay(ctx context.Context, opts Options, call Call) (Row, []Finding, error) {
	r, err := run(ctx, opts, call.Case)
	if err != nil {
		return Row{}, nil, err
	}
	row := Row{Case: call.Case, Run: r, Worst: r.Duration, Runs: 1}
	var out []Finding
	for _, f := range Judge(Case{Runtime: call.Case.Runtime, Event: call.Case.Event, Name: call.Case.Name, Hostile: true, Origin: call.Case.Origin}, r, shellJoin(opts.Argv)) {
		if f.Rule == RuleHang || f.Rule == RuleCrash {
			f.Case = call.Case
			out = append(out, f)
		}
	}
	if diff := Changes(call.Case, call.Then, r); len(diff) > 0 {
		out = append(out, Finding{Rule: RuleChanged, Level: level(RuleChanged), Case: call.Case, Did: Did(r),
			Message: fmt.Sprintf("%s now gets another answer: %s.", call.Case.What(), strings.Join(diff, "; "))})
	}
	return row, out, nil
}

// Answer is what a hook answer decided, as compared between a recording and a new run.
type Answer struct {
	Exit         string
	Verdict      string // the heaviest AGC verdict carried, "none" when none
	Decision     string // what the runtime does with it: block, repaired, ask, allow, context, failed, or none
	UpdatedInput string // the rewritten input, compact JSON; "none" when there is none
}

// AnswerOf reads one run's answer as the runtime would.
func AnswerOf(c Case, r Run) Answer {
	a := Answer{Exit: fmt.Sprint(r.Exit), Verdict: "none", Decision: "none", UpdatedInput: "none"}
	if r.TimedOut {
		a.Exit = "killed"
	}
	res, ok := Check(c, r, "")
	if !ok {
		return a
	}
	var heaviest gates.Verdict
	for _, resp := range res.Responses {
		if heaviest == "" || resp.Verdict.Weight() > heaviest.Weight() {
			heaviest = resp.Verdict
		}
	}
	if heaviest != "" {
		a.Verdict = string(heaviest)
	}
	if res.Decision != "" {
		a.Decision = res.Decision
	}
	if len(res.UpdatedInput) > 0 {
		var buf bytes.Buffer
		if json.Compact(&buf, res.UpdatedInput) == nil {
			a.UpdatedInput = buf.String()
		} else {
			a.UpdatedInput = string(res.UpdatedInput)
		}
	}
	return a
}

// Changes lists what differs between the recorded answer and the new one, each as
// "what before → after".
func Changes(c Case, then, now Run) []string {
	a, b := AnswerOf(c, then), AnswerOf(c, now)
	var out []string
	add := func(what, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s %s → %s", what, x, y))
		}
	}
	add("exit status", a.Exit, b.Exit)
	add("verdict", a.Verdict, b.Verdict)
	add("decision", a.Decision, b.Decision)
	add("updated input", Short([]byte(a.UpdatedInput)), Short([]byte(b.UpdatedInput)))
	return out
}
