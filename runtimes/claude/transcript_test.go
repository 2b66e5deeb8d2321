package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// Builders of transcript records, shaped as Claude Code 2.1.332 writes them.

func tEnvelope(typ string, body string) string {
	return `{"parentUuid":"p","isSidechain":false,` + body + `,"type":"` + typ + `","uuid":"u","timestamp":"2026-11-30T10:00:00Z","cwd":"/repo","sessionId":"S","version":"2.1.332"}`
}

func tToolUse(id, name, input string) string {
	return tEnvelope("assistant", `"message":{"role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"`+name+`","input":`+input+`}]}`)
}

func tResult(id, text string, isError bool) string {
	t, _ := json.Marshal(text)
	return tEnvelope("user", fmt.Sprintf(`"message":{"role":"user","content":[{"type":"tool_result","content":%s,"is_error":%v,"tool_use_id":"%s"}]}`, t, isError, id))
}

func tAttach(fields string) string {
	return tEnvelope("attachment", `"attachment":{`+fields+`}`)
}

func jstr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// eventLog is a hookAdder that keeps the events instead of checking them.
type eventLog struct{ events []inputs.HookEvent }

func (l *eventLog) add(ev inputs.HookEvent, _ inputs.Options, _ *findings.Set) (bool, string) {
	l.events = append(l.events, ev)
	return true, ""
}

// describe renders the parts of an event the grouping tests compare.
func describe(ev inputs.HookEvent) string {
	a := ev.Answer
	var b strings.Builder
	fmt.Fprintf(&b, "L%d %s %s id=%s", ev.Source.Line, a.Event, a.Tool, ev.Call.ToolUseID)
	if a.Hook != "" {
		fmt.Fprintf(&b, " hook=%s", a.Hook)
	}
	if a.HasExit {
		fmt.Fprintf(&b, " exit=%d", a.ExitCode)
	}
	if a.HasStdout {
		fmt.Fprintf(&b, " stdout=%q", a.Stdout)
	}
	if a.HasStderr {
		fmt.Fprintf(&b, " stderr=%q", a.Stderr)
	}
	if len(a.AdditionalContext) > 0 {
		fmt.Fprintf(&b, " ctx=%q", a.AdditionalContext)
	}
	if a.Failed != "" {
		fmt.Fprintf(&b, " failed=%s", a.Failed)
	}
	if a.Refused {
		fmt.Fprintf(&b, " refused=%q", a.RefusalText)
	}
	if a.Blocked {
		fmt.Fprintf(&b, " blocked=%q", a.BlockReason)
	}
	if ev.Call.Command != "" {
		fmt.Fprintf(&b, " cmd=%q", ev.Call.Command)
	}
	if ev.Call.FilePath != "" {
		fmt.Fprintf(&b, " file=%s", ev.Call.FilePath)
	}
	return b.String()
}

func TestTranscriptGrouping(t *testing.T) {
	const ctx = `{"agc":"0.1"}`
	denyOut := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","additionalContext":` + jstr(ctx) + `}}`
	repairOut := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"},"additionalContext":` + jstr(ctx) + `}}`
	bash := tToolUse("T1", "Bash", `{"command":"git push"}`)
	tests := []struct {
		name    string
		lines   []string
		want    []string
		used    int
		skipped int
	}{
		{"json deny: context then refusal", []string{
			bash,
			tAttach(`"type":"hook_additional_context","content":[` + jstr(ctx) + `],"hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse"`),
			tResult("T1", "PreToolUse:Bash hook error: no pushing", true),
		}, []string{`L2 PreToolUse Bash id=T1 ctx=["{\"agc\":\"0.1\"}"] refused="no pushing" cmd="git push"`}, 2, 1},
		{"repair: hook_success carries the context", []string{
			bash,
			tAttach(`"type":"hook_success","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","content":"","stdout":` + jstr(repairOut) + `,"stderr":"","exitCode":0,"command":"g.py"`),
			tAttach(`"type":"hook_additional_context","content":[` + jstr(ctx) + `],"hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse"`),
			tResult("T1", "ok", false),
		}, []string{`L2 PreToolUse Bash id=T1 hook=g.py exit=0 stdout=` + fmt.Sprintf("%q", repairOut) + ` stderr="" cmd="git push"`}, 2, 2},
		{"exit 2: only the refusal", []string{
			bash,
			tResult("T1", "PreToolUse:Bash hook error: [g.py]: inputs.AGC block: g/r — no\n", true),
		}, []string{`L2 PreToolUse Bash id=T1 hook=g.py refused="[g.py]: inputs.AGC block: g/r — no\n" cmd="git push"`}, 1, 1},
		{"deny answer explains the refusal", []string{
			bash,
			tAttach(`"type":"hook_success","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stdout":` + jstr(denyOut) + `,"exitCode":0,"command":"g.py"`),
			tResult("T1", "PreToolUse:Bash hook error: nope", true),
		}, []string{`L2 PreToolUse Bash id=T1 hook=g.py exit=0 stdout=` + fmt.Sprintf("%q", denyOut) + ` refused="nope" cmd="git push"`}, 2, 1},
		{"post block: after the result, until the next record", []string{
			tToolUse("T2", "Write", `{"file_path":"/repo/a.txt","content":"x"}`),
			tResult("T2", "File created", false),
			tAttach(`"type":"hook_blocking_error","hookName":"PostToolUse:Write","toolUseID":"T2","inputs.HookEvent":"PostToolUse","blockingError":{"blockingError":"bad write","command":"g.py"}`),
			tAttach(`"type":"hook_additional_context","content":[` + jstr(ctx) + `],"hookName":"PostToolUse:Write","toolUseID":"T2","inputs.HookEvent":"PostToolUse"`),
			`{"type":"api-request-blob","sessionId":"S","message":{"content":[{"type":"tool_result","content":"PreToolUse:Bash hook error: x","is_error":true,"tool_use_id":"T9"}]}}`,
		}, []string{`L3 PostToolUse Write id=T2 hook=g.py ctx=["{\"agc\":\"0.1\"}"] blocked="bad write" file=/repo/a.txt`}, 2, 3},
		{"post exit 2: blocking error names the command", []string{
			tToolUse("T2", "Write", `{"file_path":"/repo/a.txt"}`),
			tResult("T2", "File created", false),
			tAttach(`"type":"hook_blocking_error","hookName":"PostToolUse:Write","toolUseID":"T2","inputs.HookEvent":"PostToolUse","blockingError":{"blockingError":"[g.py]: secret\n","command":"g.py"}`),
		}, []string{`L3 PostToolUse Write id=T2 hook=g.py exit=2 stderr="secret\n" blocked="[g.py]: secret\n" file=/repo/a.txt`}, 1, 2},
		{"two hooks on one call", []string{
			bash,
			tAttach(`"type":"hook_success","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stdout":"","exitCode":0,"command":"a.sh"`),
			tAttach(`"type":"hook_success","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stdout":` + jstr(repairOut) + `,"exitCode":0,"command":"b.sh"`),
			tAttach(`"type":"hook_additional_context","content":[` + jstr(ctx) + `],"hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse"`),
			tResult("T1", "ok", false),
		}, []string{
			`L2 PreToolUse Bash id=T1 hook=a.sh exit=0 stdout="" cmd="git push"`,
			`L3 PreToolUse Bash id=T1 hook=b.sh exit=0 stdout=` + fmt.Sprintf("%q", repairOut) + ` cmd="git push"`,
		}, 3, 2},
		{"crash and another hook's context", []string{
			bash,
			tAttach(`"type":"hook_non_blocking_error","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stderr":"Failed with non-blocking status code: boom","stdout":"","exitCode":1,"command":"c.sh"`),
			tAttach(`"type":"hook_additional_context","content":["inputs.AGC steer: g/r — use make"],"hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse"`),
			tResult("T1", "ok", false),
		}, []string{
			`L2 PreToolUse Bash id=T1 hook=c.sh exit=1 stdout="" stderr="boom" failed=crashed cmd="git push"`,
			`L3 PreToolUse Bash id=T1 ctx=["inputs.AGC steer: g/r — use make"] cmd="git push"`,
		}, 2, 2},
		{"cancelled, error during execution, other hook records", []string{
			tAttach(`"type":"hook_cancelled","hookName":"PreToolUse:Read","toolUseID":"T3","inputs.HookEvent":"PreToolUse","command":"slow.sh","durationMs":4293,"timedOut":true,"timeoutMs":3000`),
			tAttach(`"type":"hook_error_during_execution","content":"spawn ENOENT","hookName":"PostToolUse:Read","toolUseID":"T3","inputs.HookEvent":"PostToolUse","command":"gone.sh"`),
			tAttach(`"type":"hook_system_message","content":"hi","hookName":"PostToolUse:Read","toolUseID":"T3","inputs.HookEvent":"PostToolUse"`),
		}, []string{
			`L1 PreToolUse Read id=T3 hook=slow.sh failed=timeout`,
			`L2 PostToolUse Read id=T3 hook=gone.sh stderr="spawn ENOENT" failed=not-run`,
		}, 3, 0},
		{"lifecycle hook has no tool call", []string{
			tAttach(`"type":"hook_success","hookName":"SessionStart:startup","toolUseID":"0b6f-uuid","inputs.HookEvent":"SessionStart","content":"hi","stdout":"hi\n","stderr":"","exitCode":0,"command":"echo hi"`),
			`{"type":"queue-operation","sessionId":"S"}`,
		}, []string{`L1 SessionStart  id= hook=echo hi exit=0 stdout="hi\n" stderr=""`}, 1, 1},
		{"a PreToolUse group waits for its result across other records", []string{
			bash,
			tAttach(`"type":"hook_additional_context","content":["c"],"hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse"`),
			`{"type":"api-request","sessionId":"S"}`,
			tAttach(`"type":"prompt_snapshot","systemPrompt":["x"],"rendered":[{"content":"PreToolUse:Bash hook additional context: c"}]`),
			tResult("T1", "PreToolUse:Bash hook error: denied", true),
		}, []string{`L2 PreToolUse Bash id=T1 ctx=["c"] refused="denied" cmd="git push"`}, 2, 3},
		{"answer rejected for its event name", []string{
			bash,
			tAttach(`"type":"hook_non_blocking_error","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stderr":` +
				jstr("Failed with non-blocking status code: Failed to run: Hook returned incorrect event name: expected 'PreToolUse' but got 'PostToolUse'. Full stdout: {\"x\":1}") + `,"stdout":"","exitCode":1,"command":"g.py"`),
		}, []string{`L2 PreToolUse Bash id=T1 hook=g.py stdout="{\"x\":1}" cmd="git push"`}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := &eventLog{}
			set := findings.NewSet()
			in := inputs.Input{Name: "t.jsonl", R: strings.NewReader(strings.Join(tc.lines, "\n") + "\n")}
			if err := (transcriptReader{add: log.add}).Read(context.Background(), in, inputs.Options{Registry: testRegistry}, set); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range log.events {
				got = append(got, describe(ev))
				if ev.Call.SessionID != "S" || ev.Call.Cwd != "/repo" || ev.Call.Runtime != "claude-code" || ev.Source.File != "t.jsonl" {
					t.Errorf("event call %+v source %+v", ev.Call, ev.Source)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if set.Used != tc.used || set.Skipped() != tc.skipped || set.Records != len(tc.lines) {
				t.Errorf("records %d used %d skipped %d (%v), want %d %d %d", set.Records, set.Used, set.Skipped(), set.Skips, len(tc.lines), tc.used, tc.skipped)
			}
		})
	}
}

// TestTranscriptDamaged reads a transcript with every kind of damage: each is a problem naming the
// file and line, and reading goes on.
func TestTranscriptDamaged(t *testing.T) {
	crash := func(id string) string {
		return tAttach(`"type":"hook_non_blocking_error","hookName":"PreToolUse:Bash","toolUseID":"` + id + `","inputs.HookEvent":"PreToolUse","stderr":"Failed with non-blocking status code: boom","stdout":"","exitCode":1,"command":"c.sh"`)
	}
	var pretty strings.Builder
	var v any
	if err := json.Unmarshal([]byte(crash("P")), &v); err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	pretty.Write(b)
	lines := []string{
		crash("A"), // 1
		`{"type":"attachment","attachment":{"type":"hook_success", garbage "tool_use"}`, // 2: not JSON
		strings.Repeat("x", 300), // 3: too long (and no markers)
		pretty.String(),          // 4..: pretty-printed
		crash("B"),
		crash("C")[:80], // cut short at the end
	}
	in := strings.Join(lines, "\n")
	set := findings.NewSet()
	err := (transcriptReader{}).Read(context.Background(), inputs.Input{Name: "d.jsonl", R: strings.NewReader(in)}, inputs.Options{Registry: testRegistry, MaxRecord: 200}, set)
	if err != nil {
		t.Fatal(err)
	}
	// The pretty-printed record is longer than 200 bytes in total, so read it with the default
	// limit too.
	if len(set.Problems) < 3 {
		t.Fatalf("problems %v", set.Problems)
	}
	var msgs []string
	for _, p := range set.Problems {
		msgs = append(msgs, p.String())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"d.jsonl:3: line longer than the record limit of 200 bytes", "cut short"} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems do not say %q:\n%s", want, joined)
		}
	}
	set2 := findings.NewSet()
	if err := (transcriptReader{}).Read(context.Background(), inputs.Input{Name: "d.jsonl", R: strings.NewReader(in)}, inputs.Options{Registry: testRegistry}, set2); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, f := range set2.Findings {
		ids[f.Call.ToolUseID] = f.Source.Line
	}
	if ids["A"] != 1 || ids["P"] != 4 || ids["B"] == 0 || len(ids) != 3 {
		t.Errorf("findings by call and line: %v (problems %v)", ids, set2.Problems)
	}
	if set2.Records != set2.Used+set2.Skipped() || set2.Used != 3 {
		t.Errorf("records %d used %d skips %v", set2.Records, set2.Used, set2.Skips)
	}
}

// TestTranscriptSniff checks detection on the first record.
func TestTranscriptSniff(t *testing.T) {
	tests := []struct {
		head       string
		transcript bool
		stream     bool
	}{
		{`{"type":"queue-operation","operation":"enqueue","timestamp":"t","sessionId":"S"}` + "\n", true, false},
		{tAttach(`"type":"hook_success"`), true, false},
		{"{\n  \"parentUuid\": null,\n  \"type\": \"user\"\n}\n", true, false},
		{`{"type":"system","subtype":"init","session_id":"S"}`, false, true},
		{`{"type":"system","subtype":"stop_hook_summary","sessionId":"S","parentUuid":"p"}`, true, false},
		{"[\n  {\n    \"type\": \"system\",\n    \"subtype\": \"init\"\n  }\n]", false, true},
		{`[{"type":"assistant"}]`, false, false},
		{`{"agc":"0.1","gate":{"id":"g","kind":"runtime"}}`, false, false},
		{`{"time":"t","command":["x"],"exit_code":0,"stdout":""}`, false, false},
		{`{"type":"system","subtype":"init","cwd":"` + strings.Repeat("x", 100) + "", false, true}, // cut by the head
		{``, false, false},
		{`not json`, false, false},
		{`{"type":"summary","summary":"Fix the build","leafUuid":"l"}` + "\n" + `{"type":"user"}`, true, false},
		{`{"type":"file-history-snapshot","messageId":"m"}` + "\n" + tAttach(`"type":"hook_success"`), true, false},
		{`{"type":"a"}` + "\n" + `{"no":"type"}` + "\n" + tAttach(`"type":"hook_success"`), false, false},
	}
	for _, tc := range tests {
		if got := sniffTranscript(inputs.NewHead([]byte(tc.head))); got != tc.transcript {
			t.Errorf("sniffTranscript(%.60s) = %v", tc.head, got)
		}
		if got := sniffStreamJSON(inputs.NewHead([]byte(tc.head))); got != tc.stream {
			t.Errorf("sniffStreamJSON(%.60s) = %v", tc.head, got)
		}
	}
}

// newToolOutput streams a transcript user record whose tool output is n bytes long, without ever
// holding it.
func newToolOutput(n int64) io.Reader {
	head := `{"parentUuid":"p","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"T","content":"`
	tail := `","is_error":false}]},"sessionId":"S"}` + "\n"
	return io.MultiReader(strings.NewReader(head), io.LimitReader(repeatByte('a'), n), strings.NewReader(tail))
}

type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// TestTranscriptHugeLine reads a 200 MB line of tool output: it is skipped without being parsed,
// memory stays within the record limit, and the hook record after it is still read.
func TestTranscriptHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200 MB")
	}
	const size = 200 << 20
	const limit = 4 << 20
	crash := tAttach(`"type":"hook_non_blocking_error","hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stderr":"x","stdout":"","exitCode":1,"command":"c.sh"`)
	r := io.MultiReader(newToolOutput(size), strings.NewReader(crash+"\n"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	set := findings.NewSet()
	if err := (transcriptReader{}).Read(context.Background(), inputs.Input{Name: "big.jsonl", R: r}, inputs.Options{Registry: testRegistry, MaxRecord: limit}, set); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("200 MB line: %d bytes allocated in all (limit %d)", alloc, limit)
	if alloc > 8*limit {
		t.Errorf("allocated %d bytes reading a 200 MB line with a %d byte record limit", alloc, limit)
	}
	if set.Skips[skipTooLong] != 1 || len(set.Problems) != 1 || !strings.HasPrefix(set.Problems[0].String(), "big.jsonl:1: line longer") {
		t.Errorf("skips %v problems %v", set.Skips, set.Problems)
	}
	if set.Used != 1 || len(set.Findings) != 1 || set.Findings[0].Source.Line != 2 {
		t.Errorf("the hook record after the long line: used %d findings %+v", set.Used, set.Findings)
	}
}

// TestTranscriptLongOutputNotParsed hands the reader long records that cannot carry a hook
// answer: they are skipped by their markers or by a scan of their top level, without decoding.
func TestTranscriptLongOutputNotParsed(t *testing.T) {
	const size = 8 << 20
	out := strings.Repeat("z", size)
	tests := []struct {
		name, line, reason string
	}{
		{"no markers", `{"parentUuid":"p","type":"user","message":{"role":"user","content":"` + out + `"},"sessionId":"S"}`, inputs.SkipNotHook},
		{"tool output", tResult("T1", out, false), inputs.SkipNotHook},
		{"request blob", `{"type":"api-request-blob","sessionId":"S","message":{"content":[{"type":"tool_use","text":"` + out + `"}]}}`, inputs.SkipNotHook},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := findings.NewSet()
			s := newHookState("l.jsonl", inputs.Options{Registry: testRegistry}, set, nil)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			d := []byte(tc.line)
			v := lookupView(d)
			s.transcriptRecord(inputs.Record{Line: 1, Data: d}, &v)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			if alloc > size+(64<<10) { // the []byte conversion of the test line itself is size
				t.Errorf("allocated %d bytes for a %d byte record", alloc-size, size)
			}
			if set.Skips[tc.reason] != 1 || set.Records != 1 {
				t.Errorf("skips %v", set.Skips)
			}
		})
	}
}

// FuzzTranscript reads arbitrary bytes as a transcript: no panic, no error from in-memory input,
// every record counted, every problem naming file and line.
func FuzzTranscript(f *testing.F) {
	f.Add([]byte(tToolUse("T1", "Bash", `{"command":"x"}`) + "\n" + tResult("T1", "PreToolUse:Bash hook error: denied", true)))
	f.Fuzz(func(t *testing.T, data []byte) { readFuzzed(t, transcriptReader{}, data) })
}

// BenchmarkTranscriptReplay reads a transcript made of the real records of
// testdata/samples/replay-parallel-read/session.jsonl (hook attachments, API request blobs,
// prompt snapshots) repeated with fresh tool ids, each repetition adding a 1 MiB tool output:
// the mix of a real session.
//
//	go test ./inputs -run '^$' -bench TranscriptReplay
func BenchmarkTranscriptReplay(b *testing.B) {
	real, err := os.ReadFile(filepath.Join("..", "..", "testdata", "samples", "replay-parallel-read", "session.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	big := tResult("toolu_big", strings.Repeat("output line\\n", (1<<20)/13), false) + "\n"
	var buf bytes.Buffer
	for i := 0; buf.Len() < 128<<20; i++ {
		buf.Write(bytes.ReplaceAll(real, []byte("RRRRRRRRRRRRRRRRRR"), []byte(fmt.Sprintf("%018d", i))))
		buf.WriteString(big)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var set *findings.Set
	for i := 0; i < b.N; i++ {
		set = findings.NewSet()
		if err := (transcriptReader{}).Read(context.Background(), inputs.Input{Name: "bench.jsonl", R: bytes.NewReader(data)}, inputs.Options{Registry: testRegistry, IncludeUnstructured: true}, set); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(set.Records), "records")
	b.ReportMetric(float64(len(set.Findings)), "findings")
}

// TestTranscriptGroupBounds feeds one PreToolUse group more records than a group holds and more
// pending groups than are kept open: every record is still counted, and all evidence is emitted.
func TestTranscriptGroupBounds(t *testing.T) {
	var lines []string
	for i := 0; i < 3*maxGroupParts; i++ {
		lines = append(lines, tAttach(`"type":"hook_additional_context","content":["c"],"hookName":"PreToolUse:Bash","toolUseID":"T1","inputs.HookEvent":"PreToolUse"`))
	}
	for i := 0; i < 2*maxOpenGroups; i++ {
		lines = append(lines, tAttach(fmt.Sprintf(`"type":"hook_cancelled","hookName":"PreToolUse:Bash","toolUseID":"P%d","inputs.HookEvent":"PreToolUse","command":"c"`, i)))
	}
	log := &eventLog{}
	set := findings.NewSet()
	in := inputs.Input{Name: "b.jsonl", R: strings.NewReader(strings.Join(lines, "\n"))}
	if err := (transcriptReader{add: log.add}).Read(context.Background(), in, inputs.Options{Registry: testRegistry}, set); err != nil {
		t.Fatal(err)
	}
	contexts, failed := 0, 0
	for _, ev := range log.events {
		contexts += len(ev.Answer.AdditionalContext)
		if ev.Answer.Failed != "" {
			failed++
		}
	}
	if contexts != 3*maxGroupParts || failed != 2*maxOpenGroups || set.Records != len(lines) || set.Used != len(lines) {
		t.Errorf("%d contexts, %d failures, %d records, %d used; want %d, %d, %d", contexts, failed, set.Records, set.Used, 3*maxGroupParts, 2*maxOpenGroups, len(lines))
	}
	if len(log.events) > 3+2*maxOpenGroups {
		t.Errorf("%d events", len(log.events))
	}
}
