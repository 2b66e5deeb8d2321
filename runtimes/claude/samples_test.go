package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/inputs"
)

func TestSamples(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "samples")
	tests := []struct {
		file         string
		unstructured bool
		format       inputs.Format
		rules        []string // distinct rule ids, sorted
		records      int
		used         int
		skips        map[string]int
	}{
		{file: "yul_README_session-transcript-entries.jsonl", unstructured: true, format: Transcript,
			rules: []string{"agc/hook-failed-open", "hook/yul"}, records: 2, used: 2},
		{file: "yul_README_session-transcript-entries.jsonl", unstructured: false, format: Transcript,
			rules: []string{"agc/hook-failed-open"}, records: 2, used: 1,
			skips: map[string]int{inputs.SkipNoAGC: 1}},
		{file: "yul_bump-00a7cc31_stream-json_hook-events.jsonl", unstructured: true, format: StreamJSON,
			rules: []string{"agc/hook-failed-open"}, records: 2, used: 1,
			skips: map[string]int{skipHookStarted: 1}},
		{file: "claude-code-action_sample-turns.fixture.json", unstructured: true, format: StreamJSON,
			records: 9, used: 0,
			skips: map[string]int{inputs.SkipNotHook: 5, inputs.SkipToolCall: 3, inputs.SkipNoAGCBlock: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			set, f := readClaude(t, filepath.Join(dir, tc.file), inputs.Options{Registry: testRegistry, IncludeUnstructured: tc.unstructured})
			if f != tc.format {
				t.Fatalf("detected %q, want %q", f, tc.format)
			}
			if got := ruleIDs(set); strings.Join(got, " ") != strings.Join(tc.rules, " ") {
				t.Errorf("rules %v, want %v", got, tc.rules)
			}
			if set.Records != tc.records || set.Used != tc.used {
				t.Errorf("records %d used %d, want %d and %d (skips %v)", set.Records, set.Used, tc.records, tc.used, set.Skips)
			}
			for reason, n := range tc.skips {
				if set.Skips[reason] != n {
					t.Errorf("skips[%q] = %d, want %d (all: %v)", reason, set.Skips[reason], n, set.Skips)
				}
			}
			if len(set.Problems) > 0 {
				t.Errorf("problems: %v", set.Problems)
			}
		})
	}
}

// TestSampleDetails checks what the yul records become beyond their rule ids.
func TestSampleDetails(t *testing.T) {
	set, _ := readClaude(t, filepath.Join("..", "..", "testdata", "samples", "yul_README_session-transcript-entries.jsonl"), inputs.Options{Registry: testRegistry, IncludeUnstructured: true})
	if len(set.Findings) != 2 {
		t.Fatalf("got %d findings, want 2", len(set.Findings))
	}
	crash, block := set.Findings[0], set.Findings[1]
	if crash.RuleID != "agc/hook-failed-open" { // groups waiting for their call's result come later
		crash, block = block, crash
	}
	if crash.Source.Line != 1 || crash.Call.Tool != "Write" || crash.Call.ToolUseID != "toolu_01NSX9EDCBG15megDu54GHRp" ||
		crash.Call.SessionID != "8e78af27-6afe-4d9c-a562-baaf77b94169" || crash.Call.Hook != "/home/aman/go/bin/yul" {
		t.Errorf("crash finding: %+v call %+v", crash, *crash.Call)
	}
	if !strings.Contains(crash.Message, "exit status 1") || strings.Contains(crash.Message, "Failed with non-blocking") {
		t.Errorf("crash message %q", crash.Message)
	}
	if block.Source.Line != 2 || block.Verdict != "block" || block.Call.Hook != "/home/aman/Desktop/chains/ai-bump/yul" ||
		!strings.Contains(block.Message, "org.apache.pdfbox:pdfbox") || block.Time != "2026-07-27T15:00:23.991Z" {
		t.Errorf("block finding: %+v call %+v", block, *block.Call)
	}
}

// TestNotClaude checks that other JSON lines are not taken for Claude Code records.
func TestNotClaude(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "samples", "damhau_claude_code_tips_permission-review.sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if sniffTranscript(inputs.NewHead(data)) || sniffStreamJSON(inputs.NewHead(data)) {
		t.Errorf("a PermissionRequest hook's own log was detected as a Claude Code transcript or stream-json")
	}
}
