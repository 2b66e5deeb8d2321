package claude

import (
	"encoding/json"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

// toolNameSeeds are tool inputs that the one-pass read of ToolNames must read as ToolCall does,
// or hand to it: duplicates, escapes, null, other values, bad JSON, deep nesting, trailing text.
var toolNameSeeds = []string{
	`{"command":"go test ./..."}`,
	`{"file_path":"/w/a.go","content":"x"}`,
	`{"notebook_path":"n.ipynb","new_source":"y"}`,
	`{"command":"a","command":"b"}`,
	`{"comm\u0061nd":"esc"}`,
	`{"command":null}`,
	`{"command":1,"file_path":["x"]}`,
	`null`, `[]`, `"s"`, ``, `{}`, ` { } `,
	`{"command":"a"} x`,
	`{"command":"a",}`,
	`{"file_path":"\ud800"}`,
	`{"file_path":"caf\u00e9\n"}`,
	`{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"command":"deep"}`,
	"{\"file_path\":\"\xff\"}",
	`{"Command":"case","FILE_PATH":"case"}`,
}

// FuzzToolNames: ToolNames reads what ToolCall reads, for every tool and any input.
func FuzzToolNames(f *testing.F) {
	for _, s := range toolNameSeeds {
		f.Add([]byte(s))
	}
	b := Binding{}
	tools := append([]string{"", "Other"}, b.EditTools()...)
	tools = append(tools, "Bash", "PowerShell", "Read", "NotebookEdit")
	f.Fuzz(func(t *testing.T, input []byte) {
		for _, tool := range tools {
			tc := b.ToolCall(tool, json.RawMessage(input))
			c, p := b.ToolNames(tool, json.RawMessage(input))
			if c != tc.Command || p != tc.FilePath {
				t.Fatalf("tool %q, input %q: ToolNames %q, %q; ToolCall %q, %q", tool, input, c, p, tc.Command, tc.FilePath)
			}
		}
	})
}

// TestToolNamesFast: plain inputs are read in the one pass, not handed to encoding/json.
func TestToolNamesFast(t *testing.T) {
	for _, s := range []string{`{"command":"a","command":"b"}`, `{}`, `{"file_path":"x","x":[1,{"y":null}]}`} {
		if _, ok := gates.FastMembers([]byte(s), []string{"command"}); !ok {
			t.Errorf("%s: not read in one pass", s)
		}
	}
}
