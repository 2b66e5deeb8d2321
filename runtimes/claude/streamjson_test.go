package claude

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Builders of stream-json messages, shaped as Claude Code 2.1.332 prints them.

func sToolUse(id, name, input string) string {
	return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]},"session_id":"S","timestamp":"2026-11-30T10:00:00Z"}`
}

func sStarted(hookID, name string) string {
	ev, _, _ := strings.Cut(name, ":")
	return `{"type":"system","subtype":"hook_started","hook_id":"` + hookID + `","hook_name":"` + name + `","hook_event":"` + ev + `","session_id":"S"}`
}

func sResponse(hookID, name, stdout, stderr string, exit int, outcome string) string {
	ev, _, _ := strings.Cut(name, ":")
	m := map[string]any{"type": "system", "subtype": "hook_response", "hook_id": hookID, "hook_name": name, "hook_event": ev,
		"output": stdout + stderr, "stdout": stdout, "stderr": stderr, "exit_code": exit, "outcome": outcome, "session_id": "S"}
	b, _ := json.Marshal(m)
	return string(b)
}

func sResult(id, text string, isError bool) string {
	m := map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "content": text, "is_error": isError, "tool_use_id": id}}}, "session_id": "S"}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestStreamGrouping(t *testing.T) {
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`
	bash := sToolUse("T1", "Bash", `{"command":"git push"}`)
	tests := []struct {
		name  string
		lines []string
		want  []string
		used  int
	}{
		{"exit 2 with hook events", []string{
			bash, sStarted("h1", "PreToolUse:Bash"), sResponse("h1", "PreToolUse:Bash", "", "inputs.AGC block: g/r — no\n", 2, "error"),
			sResult("T1", "PreToolUse:Bash hook error: [g.py]: inputs.AGC block: g/r — no\n", true),
		}, []string{`L3 PreToolUse Bash id=T1 hook=g.py exit=2 stdout="" stderr="inputs.AGC block: g/r — no\n" refused="[g.py]: inputs.AGC block: g/r — no\n" cmd="git push"`}, 2},
		{"json deny with hook events", []string{
			bash, sStarted("h1", "PreToolUse:Bash"), sResponse("h1", "PreToolUse:Bash", deny, "", 0, "success"),
			sResult("T1", "PreToolUse:Bash hook error: no", true),
		}, []string{`L3 PreToolUse Bash id=T1 exit=0 stdout=` + jq(deny) + ` stderr="" refused="no" cmd="git push"`}, 2},
		{"refusal without hook events", []string{
			bash, sResult("T1", "PreToolUse:Bash hook error: no", true),
		}, []string{`L2 PreToolUse Bash id=T1 refused="no" cmd="git push"`}, 1},
		{"lifecycle hook cancelled", []string{
			sStarted("h1", "SessionStart:startup"), sResponse("h1", "SessionStart:startup", "", "", 1, "cancelled"),
		}, []string{`L2 SessionStart  id= stdout="" stderr="" failed=cancelled`}, 1},
		{"hook that could not run", []string{
			bash, sStarted("h1", "PreToolUse:Bash"), `{"type":"system","subtype":"hook_response","hook_id":"h1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","output":"spawn ENOENT","outcome":"error"}`,
		}, []string{`L3 PreToolUse Bash id=T1 stdout="spawn ENOENT" failed=not-run cmd="git push"`}, 1},
		{"post hook answers before the result", []string{
			sToolUse("T2", "Write", `{"file_path":"/repo/a"}`),
			sStarted("h1", "PreToolUse:Write"), sResponse("h1", "PreToolUse:Write", "", "", 0, "success"),
			sStarted("h2", "PostToolUse:Write"), sResponse("h2", "PostToolUse:Write", `{"decision":"block","reason":"r"}`, "", 0, "success"),
			sResult("T2", "File created", false),
		}, []string{
			`L3 PreToolUse Write id=T2 exit=0 stdout="" stderr="" file=/repo/a`,
			`L5 PostToolUse Write id=T2 exit=0 stdout="{\"decision\":\"block\",\"reason\":\"r\"}" stderr="" file=/repo/a`,
		}, 2},
		{"a hook of no known call", []string{
			sStarted("h1", "PreToolUse:Bash"), sResponse("h1", "PreToolUse:Bash", "", "boom", 1, "error"),
		}, []string{`L2 PreToolUse Bash id= exit=1 stdout="" stderr="boom"`}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := &eventLog{}
			set := findings.NewSet()
			in := inputs.Input{Name: "s.jsonl", R: strings.NewReader(strings.Join(tc.lines, "\n") + "\n")}
			if err := (streamJSONReader{add: log.add}).Read(context.Background(), in, inputs.Options{Registry: testRegistry}, set); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range log.events {
				got = append(got, describe(ev))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if set.Used != tc.used || set.Records != len(tc.lines) || set.Records != set.Used+set.Skipped() {
				t.Errorf("records %d used %d skips %v, want %d records, %d used", set.Records, set.Used, set.Skips, len(tc.lines), tc.used)
			}
		})
	}
}

func jq(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestParallelCalls reads the real records of two parallel Read calls, each refused by the second
// of two PreToolUse hooks (testdata/samples/replay-parallel-read): stream-json does not say which
// call a hook ran for, so the reader must assign them by order.
func TestParallelCalls(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "samples", "replay-parallel-read")
	events := map[string][]string{}
	for _, f := range []string{"stream.jsonl", "session.jsonl"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		r, _ := testRegistry.ReaderFor(testRegistry.Detect(data[:min(len(data), inputs.SniffSize)]))
		log := &eventLog{}
		var add hookAdder = log.add
		switch r.(type) {
		case streamJSONReader:
			r = streamJSONReader{add: add}
		case transcriptReader:
			r = transcriptReader{add: add}
		default:
			t.Fatalf("%s detected as %T", f, r)
		}
		if err := r.Read(context.Background(), inputs.Input{Name: f, R: bytes.NewReader(data)}, inputs.Options{Registry: testRegistry}, findings.NewSet()); err != nil {
			t.Fatal(err)
		}
		for _, ev := range log.events {
			a := ev.Answer
			kind := "context"
			if a.Refused {
				kind = "refused by " + a.Hook
			}
			events[f] = append(events[f], ev.Call.ToolUseID+" "+ev.Call.FilePath+" "+kind)
		}
	}
	h2 := `cat >/dev/null; sleep 0.2; echo h2 >&2; exit 2`
	want := []string{
		"toolu_0000RRRRRRRRRRRRRRRRRR /tmp/c2/par/a.txt context",
		"toolu_0000RRRRRRRRRRRRRRRRRR /tmp/c2/par/a.txt refused by " + h2,
		"toolu_0001RRRRRRRRRRRRRRRRRR /tmp/c2/par/b.txt context",
		"toolu_0001RRRRRRRRRRRRRRRRRR /tmp/c2/par/b.txt refused by " + h2,
	}
	for f, got := range events {
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s events:\n%s\nwant:\n%s", f, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// With the binding: the same findings from both files, all merged when both are read.
	stream, _ := readClaude(t, filepath.Join(dir, "stream.jsonl"), inputs.Options{Registry: testRegistry, IncludeUnstructured: true})
	session, _ := readClaude(t, filepath.Join(dir, "session.jsonl"), inputs.Options{Registry: testRegistry, IncludeUnstructured: true})
	both := findings.NewSet()
	both.Merge(session)
	both.Merge(stream)
	if len(stream.Findings) == 0 || both.Duplicates != len(stream.Findings) || len(both.Findings) != len(session.Findings) {
		t.Errorf("stream %v, session %v: %d duplicates when read together", ruleIDs(stream), ruleIDs(session), both.Duplicates)
	}
}

// TestExecutionFile reads a stream as claude-code-action writes it, a pretty-printed JSON array,
// and expects what the same messages give as lines.
func TestExecutionFile(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "samples", "replay-parallel-read", "stream.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		msgs = append(msgs, json.RawMessage(bytes.Clone(sc.Bytes())))
	}
	var arr bytes.Buffer
	enc := json.NewEncoder(&arr)
	enc.SetIndent("", "  ")
	if err := enc.Encode(msgs); err != nil {
		t.Fatal(err)
	}
	if testRegistry.Detect(arr.Bytes()[:min(arr.Len(), inputs.SniffSize)]) != StreamJSON {
		t.Fatalf("the execution file is not detected as stream-json")
	}
	lines := findings.NewSet()
	if err := (streamJSONReader{}).Read(context.Background(), inputs.Input{Name: "s.jsonl", R: bytes.NewReader(data)}, inputs.Options{Registry: testRegistry, IncludeUnstructured: true}, lines); err != nil {
		t.Fatal(err)
	}
	array := findings.NewSet()
	if err := (streamJSONReader{}).Read(context.Background(), inputs.Input{Name: "exec.json", R: bytes.NewReader(arr.Bytes())}, inputs.Options{Registry: testRegistry, IncludeUnstructured: true}, array); err != nil {
		t.Fatal(err)
	}
	if array.Records != lines.Records || array.Used != lines.Used || strings.Join(ruleIDs(array), " ") != strings.Join(ruleIDs(lines), " ") {
		t.Errorf("array: %d records, %d used, %v; lines: %d records, %d used, %v", array.Records, array.Used, ruleIDs(array), lines.Records, lines.Used, ruleIDs(lines))
	}
	for _, f := range array.Findings {
		if f.Source.File != "exec.json" || f.Source.Line < 2 {
			t.Errorf("finding source %+v", f.Source)
		}
	}
	// Cut off in the middle: the messages before the cut are read, the cut one is a problem.
	cut := arr.Bytes()[:arr.Len()*2/3]
	part := findings.NewSet()
	if err := (streamJSONReader{}).Read(context.Background(), inputs.Input{Name: "exec.json", R: bytes.NewReader(cut)}, inputs.Options{Registry: testRegistry}, part); err != nil {
		t.Fatal(err)
	}
	if len(part.Problems) != 1 || !strings.Contains(part.Problems[0].Message, "cut short") || part.Records == 0 {
		t.Errorf("cut execution file: %d records, problems %v", part.Records, part.Problems)
	}
}

func TestStreamResult(t *testing.T) {
	block := "Looks wrong.\n\n```agc\n{\"agc\":\"0.1\",\"gate\":{\"id\":\"code-review\",\"kind\":\"judgment\"},\"verdict\":\"block\",\"findings\":[{\"rule\":\"r\",\"message\":\"m\"}]}\n```"
	pass := "Fine.\n\n```agc\n{\"agc\":\"0.1\",\"gate\":{\"id\":\"code-review\",\"kind\":\"judgment\"},\"verdict\":\"pass\",\"findings\":[]}\n```"
	result := func(text string) string {
		b, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "result": text, "session_id": "S", "uuid": "U",
			"permission_denials": []any{map[string]any{"tool_name": "Bash", "tool_use_id": "T1", "tool_input": map[string]any{"command": "x"}}}})
		return string(b)
	}
	tests := []struct {
		name   string
		text   string
		rule   string
		reason string
	}{
		{"agc block", block, "code-review/r", ""},
		{"pass verdict", pass, "", inputs.SkipJudgmentPass},
		{"no block", "All done.", "", inputs.SkipNoAGCBlock},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := findings.NewSet()
			in := `{"type":"system","subtype":"init","session_id":"S","cwd":"/repo"}` + "\n" + result(tc.text) + "\n"
			if err := (streamJSONReader{}).Read(context.Background(), inputs.Input{Name: "s.jsonl", R: strings.NewReader(in)}, inputs.Options{Registry: testRegistry}, set); err != nil {
				t.Fatal(err)
			}
			if tc.rule != "" {
				if len(set.Findings) == 0 || set.Findings[0].RuleID != tc.rule || set.Used != 1 {
					t.Fatalf("findings %v used %d skips %v", ruleIDs(set), set.Used, set.Skips)
				}
				f := set.Findings[0]
				if f.Source.Line != 2 || f.Call.SessionID != "S" || f.Call.Cwd != "/repo" || !strings.HasPrefix(f.EventKey, "judgment/") /* keyed by its text: one with its --judgment file */ || f.Kind != findings.JudgmentGate {
					t.Errorf("finding %+v call %+v", f, f.Call)
				}
				return
			}
			if len(set.Findings) != 0 || set.Skips[tc.reason] != 1 {
				t.Errorf("findings %v skips %v", ruleIDs(set), set.Skips)
			}
		})
	}
}

// FuzzStreamJSON reads arbitrary bytes as stream-json lines or an execution-file array: no
// panic, no error from in-memory input, every record counted.
func FuzzStreamJSON(f *testing.F) {
	f.Add([]byte(sToolUse("T1", "Bash", `{"command":"x"}`) + "\n" + sResult("T1", "PreToolUse:Bash hook error: [g]: inputs.AGC block: g/r — m", true)))
	f.Fuzz(func(t *testing.T, data []byte) { readFuzzed(t, streamJSONReader{}, data) })
}
