package claude

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// TestLongLinesInReaders: lines longer than the window are read from their skeleton. A Write of
// 3 MB still names its file, a tool result of 3 MB still completes its call, and a hook answer cut
// by the skeleton is a problem naming file and line rather than an answer read from a part of it.
func TestLongLinesInReaders(t *testing.T) {
	big := strings.Repeat(`line of output with \"quotes\" and \\ escapes\n`, 3<<20/48)
	const ctx = `{"agc":"0.1"}`
	denyOut := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","additionalContext":` + jstr(ctx) + `}}`
	t.Run("transcript", func(t *testing.T) {
		lines := []string{
			tToolUse("T1", "Write", `{"file_path":"/repo/big.txt","content":"`+big+`"}`),
			tAttach(`"type":"hook_success","hookName":"PreToolUse:Write","toolUseID":"T1","inputs.HookEvent":"PreToolUse","stdout":` + jstr(denyOut) + `,"exitCode":0,"command":"g.py"`),
			tResult("T1", "PreToolUse:Write hook error: nope", true),
			tToolUse("T2", "Bash", `{"command":"cat big"}`),
			tEnvelope("user", `"message":{"role":"user","content":[{"type":"tool_result","content":"`+big+`","is_error":false,"tool_use_id":"T2"}]}`),
			tAttach(`"type":"hook_success","hookName":"PreToolUse:Bash","toolUseID":"T3","inputs.HookEvent":"PreToolUse","stdout":"` + big + `","exitCode":0,"command":"g.py"`),
		}
		var log eventLog
		set := findings.NewSet()
		err := (transcriptReader{add: log.add}).Read(context.Background(), inputs.Input{Name: "t.jsonl", R: strings.NewReader(strings.Join(lines, "\n"))}, inputs.Options{Registry: testRegistry}, set)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ev := range log.events {
			got = append(got, describe(ev))
		}
		want := `L2 PreToolUse Write id=T1 hook=g.py exit=0 stdout=` + fmt.Sprintf("%q", denyOut) + ` refused="nope" file=/repo/big.txt`
		if len(got) != 1 || got[0] != want {
			t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), want)
		}
		if len(set.Problems) != 1 || !strings.Contains(set.Problems[0].String(), "t.jsonl:6: hook record of more than 1 MiB") {
			t.Errorf("problems %v, want one for line 6", set.Problems)
		}
		if set.Records != set.Used+set.Skipped() {
			t.Errorf("records %d != used %d + skipped %d", set.Records, set.Used, set.Skipped())
		}
	})
	t.Run("hook log", func(t *testing.T) {
		in := `{"session_id":"s1","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/w/a.txt","content":"` + big + `"},"tool_response":{"stdout":"` + big + `"},"tool_use_id":"t1"}`
		rec := func(stdout string) string {
			return `{"time":"2026-11-30T10:00:00Z","runtime":"claude-code","command":["/h/guard.sh"],"input":` + in + `,"exit_code":0,"stdout":` + stdout + `,"stderr":""}`
		}
		post := `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":` + jstr(`{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m"}]}`) + `}}`
		log := rec(jstr(post)) + "\n" + rec(`"`+big+`"`) + "\n"
		set := findings.NewSet()
		if err := inputs.HookLogFormat().Reader.Read(context.Background(), inputs.Input{Name: "h.jsonl", R: strings.NewReader(log)}, inputs.Options{Registry: testRegistry}, set); err != nil {
			t.Fatal(err)
		}
		if len(set.Findings) != 1 || set.Findings[0].Call == nil || set.Findings[0].Call.FilePath != "/w/a.txt" || set.Findings[0].Call.ToolUseID != "t1" {
			t.Fatalf("findings %+v, want one steer at /w/a.txt", set.Findings)
		}
		if len(set.Problems) != 1 || !strings.Contains(set.Problems[0].String(), "h.jsonl:2: hook output of more than 64 KiB") {
			t.Errorf("problems %v, want one for line 2", set.Problems)
		}
	})
}
