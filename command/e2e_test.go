package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// hookLine is one hook-log record as `agc-sarif record` writes it.
func hookLine(t testing.TB, event, tool, id string, toolInput, toolResponse any, exit int, stdout, stderr string) string {
	t.Helper()
	in := map[string]any{"session_id": "s-e2e", "cwd": "/home/dev/project", "hook_event_name": event,
		"tool_name": tool, "tool_input": toolInput, "tool_use_id": id}
	if toolResponse != nil {
		in["tool_response"] = toolResponse
	}
	rec := map[string]any{"time": "2026-11-30T10:00:00Z", "runtime": "claude-code",
		"command": []string{"/home/dev/project/.claude/hooks/guard.sh"}, "input": in,
		"exit_code": exit, "stdout": stdout, "stderr": stderr, "duration_ms": 3.5}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// findingKeys runs collect in root and returns the result identities: rule id and our
// line-independent agcFindingKey/v1, sorted, plus each result's start line by key.
func findingKeys(t *testing.T, root string, args ...string) ([]string, map[string]int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: root, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), append([]string{"agc-sarif", "collect", "--root", root, "-o", "-", "--fail-on", "none"}, args...), env)
	if code != ExitOK {
		t.Fatalf("collect exit %d\n%s", code, errb.String())
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Locations           []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("SARIF: %v", err)
	}
	var keys []string
	lines := map[string]int{}
	for _, r := range log.Runs[0].Results {
		k := r.RuleID + " " + r.PartialFingerprints["agcFindingKey/v1"]
		if r.PartialFingerprints["agcFindingKey/v1"] == "" {
			t.Fatalf("result %s has no agcFindingKey/v1", r.RuleID)
		}
		keys = append(keys, k)
		lines[k] = r.Locations[0].PhysicalLocation.Region.StartLine
	}
	sort.Strings(keys)
	return keys, lines
}

// TestStableIdentities: the same inputs twice give the same result identities, and so does a
// checkout where lines were inserted above the alerts (the alerts move, their keys do not).
func TestStableIdentities(t *testing.T) {
	root := t.TempDir()
	src := "package app\n\nfunc Total(a, b int) int {\n\treturn a + b\n}\n"
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "app.go"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash|Edit","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]}]}}`+"\n"), 0o644)
	// An Edit the guard blocked (anchored where its new text stands), a Bash command it blocked
	// (anchored at the hook's settings line), and a reviewer's finding at a stated line.
	log := hookLine(t, "PreToolUse", "Edit", "toolu_1", map[string]any{"file_path": filepath.Join(root, "src", "app.go"),
		"old_string": "x", "new_string": "\treturn a + b"}, nil, 2, "", "AGC block: guard/no-edit/Edit.new_string — edits to app.go are refused.\n") +
		hookLine(t, "PreToolUse", "Bash", "toolu_2", map[string]any{"command": "rm -rf /"}, nil, 2, "", "AGC block: guard/no-rm/Bash.command — refused.\n")
	os.WriteFile(filepath.Join(root, "hook-log.jsonl"), []byte(log), 0o644)
	review := func(line int) string {
		return fmt.Sprintf(`{"agc":"0.1","gate":{"id":"review","kind":"judgment"},"verdict":"steer","findings":[{"rule":"naming","message":"Call it Sum.","location":{"path":"src/app.go","line":%d}}]}`+"\n", line)
	}
	os.WriteFile(filepath.Join(root, "review.jsonl"), []byte(review(3)), 0o644)

	first, firstLines := findingKeys(t, root, "hook-log.jsonl", "review.jsonl")
	second, _ := findingKeys(t, root, "hook-log.jsonl", "review.jsonl")
	if len(first) != 3 || strings.Join(first, "\n") != strings.Join(second, "\n") {
		t.Fatalf("two runs on the same inputs differ:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	// Lines inserted above: the edit's text and the reviewed function move down by 4.
	os.WriteFile(filepath.Join(root, "src", "app.go"), []byte("// Package app adds.\n// More words.\n// And more.\n\n"+src), 0o644)
	os.WriteFile(filepath.Join(root, "review.jsonl"), []byte(review(7)), 0o644)
	moved, movedLines := findingKeys(t, root, "hook-log.jsonl", "review.jsonl")
	if strings.Join(first, "\n") != strings.Join(moved, "\n") {
		t.Fatalf("inserting lines above changed the identities:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(moved, "\n"))
	}
	shifted := 0
	for k, l := range firstLines {
		if movedLines[k] == l+4 {
			shifted++
		}
	}
	if shifted != 2 {
		t.Errorf("want the edit and the review finding to move down 4 lines with their code: before %v, after %v", firstLines, movedLines)
	}
}

// TestRepeatedEventOneResult: 10,000 repetitions of one event are one result with count 10,000.
func TestRepeatedEventOneResult(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "README.md"), []byte("x\n"), 0o644)
	var log strings.Builder
	for i := 0; i < 10000; i++ {
		log.WriteString(hookLine(t, "PreToolUse", "Bash", fmt.Sprintf("toolu_%05d", i), map[string]any{"command": "npm test"}, nil, 0,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"AGC steer: guard/use-wrapper/Bash.command — run the suite through scripts/test.sh."}}`, ""))
	}
	os.WriteFile(filepath.Join(root, "hook-log.jsonl"), []byte(log.String()), 0o644)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: root, Getenv: func(string) string { return "" }}
	if code := Main(context.Background(), []string{"agc-sarif", "collect", "--root", root, "-o", "-", "hook-log.jsonl"}, env); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	var log2 struct {
		Runs []struct {
			Results []struct {
				RuleID     string         `json:"ruleId"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log2); err != nil {
		t.Fatal(err)
	}
	rs := log2.Runs[0].Results
	if len(rs) != 1 || rs[0].RuleID != "guard/use-wrapper" {
		t.Fatalf("%d results (first %+v), want one guard/use-wrapper", len(rs), rs[0])
	}
	if c, _ := rs[0].Properties["count"].(float64); c != 10000 {
		t.Errorf("count = %v, want 10000 (properties %v)", rs[0].Properties["count"], rs[0].Properties)
	}
	if !strings.Contains(errb.String(), "records read: 10000, gave findings: 10000") {
		t.Errorf("stderr does not account for the 10,000 records:\n%s", errb.String())
	}
}
