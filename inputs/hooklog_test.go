package inputs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// readHookLog reads one hook log with the hook-log reader.
func readHookLog(t testing.TB, name string, data []byte, opts Options) *findings.Set {
	opts = withTestRegistry(opts)
	t.Helper()
	set := findings.NewSet()
	if err := (hookLogReader{}).Read(context.Background(), Input{Name: name, R: bytes.NewReader(data)}, opts, set); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Errorf("%s: records %d != used %d + skipped %d", name, set.Records, set.Used, set.Skipped())
	}
	return set
}

func hookLogRuleIDs(set *findings.Set) []string {
	seen := map[string]bool{}
	var ids []string
	for _, f := range set.Findings {
		if !seen[f.RuleID] {
			seen[f.RuleID] = true
			ids = append(ids, f.RuleID)
		}
	}
	sort.Strings(ids)
	return ids
}

// TestHookLogReplays reads the hook logs of the Claude Code replays in testdata/claude and checks
// the rule ids against want.json, and the findings against hook-log.want.json (-update rewrites it).
func TestHookLogReplays(t *testing.T) {
	logs, err := filepath.Glob("../testdata/claude/*/hook-log.jsonl")
	if err != nil || len(logs) < 16 {
		t.Fatalf("want at least 16 replay hook logs, found %d (%v)", len(logs), err)
	}
	for _, p := range logs {
		dir := filepath.Dir(p)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if testRegistry.Detect(data) != HookLog {
				t.Errorf("Detect = %q, want %q", testRegistry.Detect(data), HookLog)
			}
			set := readHookLog(t, "hook-log.jsonl", data, Options{Registry: testRegistry, IncludeUnstructured: true})
			var want struct {
				RuleIDs []string `json:"rule_ids"`
			}
			wb, err := os.ReadFile(filepath.Join(dir, "want.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(wb, &want); err != nil {
				t.Fatalf("want.json: %v", err)
			}
			sort.Strings(want.RuleIDs)
			if got := hookLogRuleIDs(set); !reflect.DeepEqual(got, want.RuleIDs) {
				t.Errorf("rule ids = %v, want %v", got, want.RuleIDs)
				for _, f := range set.Findings {
					t.Logf("  %s: %s", f.RuleID, f.Message)
				}
			}
			for _, f := range set.Findings {
				if f.Call == nil || f.Call.Runtime != "claude-code" || f.Call.ToolUseID == "" || f.Call.SessionID == "" || f.Call.Command == "" && f.Call.FilePath == "" || f.EventKey == "" {
					t.Errorf("%s: call not filled: %+v key %q", f.RuleID, f.Call, f.EventKey)
				}
				if f.Source.Line < 1 || f.Time == "" {
					t.Errorf("%s: source %+v time %q", f.RuleID, f.Source, f.Time)
				}
			}
			compareGolden(t, filepath.Join(dir, "hook-log.want.json"), set.Findings)
		})
	}
}

// compareGolden compares v, as JSON, with a golden file (decoded), or rewrites it under -update.
func compareGolden(t *testing.T, path string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wb, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./inputs -update to create it)", err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(wb, &w); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s differs from the findings; got:\n%s", path, got)
	}
}

func TestHookLogRecords(t *testing.T) {
	in := `{"session_id":"s1","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd /main && ls"},"tool_use_id":"t1"}`
	rec := func(extra string) string {
		return `{"time":"2026-11-30T10:00:00Z","runtime":"claude-code","command":["/h/guard.sh","x"],"input":` + in + `,` + extra + `}`
	}
	agcRepaired := `{\"agc\":\"0.1\",\"gate\":{\"id\":\"ws\",\"kind\":\"runtime\"},\"verdict\":\"repaired\",\"findings\":[{\"rule\":\"main\",\"message\":\"m\",\"target\":\"Bash.command\"}]}`
	tests := []struct {
		name    string
		log     string
		opts    Options
		ids     []string
		skips   map[string]int
		problem bool
	}{
		{name: "plain allow is skipped", log: rec(`"exit_code":0,"stdout":"","stderr":""`),
			skips: map[string]int{SkipNoDecision: 1}},
		{name: "repair gives a finding with before and after",
			log: rec(`"exit_code":0,"stdout":"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"command\":\"ls\"},\"additionalContext\":\"` + strings.ReplaceAll(agcRepaired, `\`, `\\\`) + `\"}}","stderr":""`),
			ids: []string{"ws/main"}},
		{name: "exit 2 plain, unstructured on", opts: Options{Registry: testRegistry, IncludeUnstructured: true},
			log: rec(`"exit_code":2,"stdout":"","stderr":"no"`), ids: []string{"hook/guard"}},
		{name: "exit 2 plain, unstructured off",
			log: rec(`"exit_code":2,"stdout":"","stderr":"no"`), skips: map[string]int{SkipNoAGC: 1}},
		{name: "timed out", log: rec(`"exit_code":-1,"stdout":"","stderr":"","signal":"killed","timed_out":true`),
			ids: []string{"agc/hook-failed-open"}},
		{name: "not started", log: rec(`"exit_code":-1,"stdout":"","stderr":"","error":"exec: not found"`),
			ids: []string{"agc/hook-failed-open"}},
		{name: "base64 stderr", opts: Options{Registry: testRegistry, IncludeUnstructured: true},
			log: rec(`"exit_code":2,"stdout":"","stderr":"bm8=","stderr_encoding":"base64"`), ids: []string{"hook/guard"}},
		{name: "bad base64 is a problem", log: rec(`"exit_code":2,"stdout":"","stderr":"!!","stderr_encoding":"base64"`),
			skips: map[string]int{"unreadable record": 1}, problem: true},
		{name: "not a record", log: `{"hello":1}`, skips: map[string]int{"not a hook-log record": 1}, problem: true},
		{name: "cut short", log: "{\"time\":\"x\",\n\"command\":", skips: map[string]int{"unreadable record": 1}, problem: true},
		{name: "wrong types", log: `{"command":["a"],"exit_code":"0","stdout":""}`, skips: map[string]int{"not a hook-log record": 1}, problem: true},
		{name: "claude-code repair with allow",
			log: rec(`"exit_code":0,"stdout":"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"ls\"},\"additionalContext\":\"` + strings.ReplaceAll(agcRepaired, `\`, `\\\`) + `\"}}","stderr":""`),
			ids: []string{"agc/repair-with-allow", "ws/main"}},
		{name: "another runtime gets no Claude Code binding checks",
			log: strings.Replace(rec(`"exit_code":0,"stdout":"{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"ls\"},\"additionalContext\":\"`+strings.ReplaceAll(agcRepaired, `\`, `\\\`)+`\"}}","stderr":""`), `"claude-code"`, `"codex"`, 1),
			ids: []string{"ws/main"}},
		{name: "command as one string and stdin not JSON",
			log: `{"time":"t","command":"guard --x","input":"plain text","exit_code":1,"stdout":"","stderr":"boom"}`,
			ids: []string{"agc/hook-failed-open"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := readHookLog(t, "log.jsonl", []byte(tt.log+"\n"), tt.opts)
			if got := hookLogRuleIDs(set); !reflect.DeepEqual(got, tt.ids) {
				t.Errorf("rule ids = %v, want %v", got, tt.ids)
			}
			skips := map[string]int{}
			for k, v := range set.Skips {
				skips[k] = v
			}
			if tt.skips == nil {
				tt.skips = map[string]int{}
			}
			if !reflect.DeepEqual(skips, tt.skips) {
				t.Errorf("skips = %v, want %v", skips, tt.skips)
			}
			if (len(set.Problems) > 0) != tt.problem {
				t.Errorf("problems = %v, want problem=%v", set.Problems, tt.problem)
			}
			for _, p := range set.Problems {
				if !strings.HasPrefix(p.String(), "log.jsonl:1: ") {
					t.Errorf("problem %q does not name file and line", p.String())
				}
			}
		})
	}
}

func TestHookLogRepairAndCall(t *testing.T) {
	data, err := os.ReadFile("../testdata/claude/pre-repair/hook-log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	set := readHookLog(t, "hook-log.jsonl", data, Options{Registry: testRegistry})
	if len(set.Findings) != 1 {
		t.Fatalf("findings = %+v", set.Findings)
	}
	f := set.Findings[0]
	want := &findings.Repair{Before: "cd /srv/main-checkout && git status", After: "git status"}
	if !reflect.DeepEqual(f.Repair, want) {
		t.Errorf("repair = %+v, want %+v", f.Repair, want)
	}
	if f.Call.Event != "PreToolUse" || f.Call.Tool != "Bash" || f.Call.Command != want.Before || !strings.Contains(f.Call.Hook, "gate.py") {
		t.Errorf("call = %+v", f.Call)
	}
	if !strings.HasPrefix(f.EventKey, "claude-code/"+f.Call.SessionID+"/"+f.Call.ToolUseID+"/PreToolUse") {
		t.Errorf("event key = %q", f.EventKey)
	}
}

func TestSniffHookLog(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{`{"time":"t","runtime":"claude-code","command":["x"],"input":{},"exit_code":0,"stdout":"","stderr":""}`, true},
		{`{"time":"t","runtime":"claude-code","command":["x"],"input":{"tool_input":{"content":"very long`, true},
		{`{"time":"t","command":["x"],"input":{},"exit_code":0}`, false},
		{`{"type":"attachment","command":"x","input":{"a`, false},
		{`{"agc":"0.1"}`, false},
		{`not json`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := sniffHookLog(NewHead([]byte(tt.head))); got != tt.want {
			t.Errorf("sniffHookLog(%.60q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func TestHookRuleName(t *testing.T) {
	tests := []struct {
		hook, event, tool, want string
	}{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh`, "", "", "guard"},
		{`python3 /opt/Gates/No_Force.py --strict`, "", "", "no_force"},
		{`agc-sarif record --log x.jsonl -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py pre-crash`, "", "", "gate"},
		{`/usr/bin/agc-sarif record --log "$CLAUDE_PROJECT_DIR"/l -- node ./check.mjs`, "", "", "check"},
		{`FOO=1 bash -c 'x'`, "", "", "x"},
		{``, "PreToolUse", "Bash", "pretooluse-bash"},
		{`!!!`, "", "", "unknown"},
	}
	for _, tt := range tests {
		got := hookRuleName(findings.Call{Hook: tt.hook, Event: tt.event, Tool: tt.tool})
		if got != tt.want {
			t.Errorf("hookRuleName(%q) = %q, want %q", tt.hook, got, tt.want)
		}
	}
}

// BenchmarkHookLogReplays reads the replay hook logs, concatenated 100 times, as one log.
func BenchmarkHookLogReplays(b *testing.B) {
	logs, _ := filepath.Glob("../testdata/claude/*/hook-log.jsonl")
	var one []byte
	for _, p := range logs {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, d...)
	}
	data := bytes.Repeat(one, 100)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		set := findings.NewSet()
		if err := (hookLogReader{}).Read(context.Background(), Input{Name: "bench", R: bytes.NewReader(data)}, Options{Registry: testRegistry, IncludeUnstructured: true}, set); err != nil {
			b.Fatal(err)
		}
	}
}
