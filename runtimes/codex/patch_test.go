package codex

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

func TestCodexApplyPatchToolCall(t *testing.T) {
	patch := func(s string) json.RawMessage {
		b, err := json.Marshal(map[string]string{"command": s})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name  string
		tool  string
		input json.RawMessage
		want  gates.ToolCall
	}{
		{"update", "apply_patch", patch("*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n-    print('old')\n+    print('new')\n+    return 0\n*** End Patch\n"),
			gates.ToolCall{FilePath: "src/app.py", NewTexts: []string{"    print('new')\n    return 0"}}},
		{"add, two runs", "apply_patch", patch("*** Begin Patch\r\n*** Add File: notes.md\r\n+# Notes\r\n+one\r\n*** End Patch"),
			gates.ToolCall{FilePath: "notes.md", NewTexts: []string{"# Notes\none"}}},
		{"runs split by context", "apply_patch", patch("*** Begin Patch\n*** Update File: a.go\n@@\n+x := 1\n context\n+y := 2\n*** End Patch"),
			gates.ToolCall{FilePath: "a.go", NewTexts: []string{"x := 1", "y := 2"}}},
		{"move", "apply_patch", patch("*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n+moved\n*** End Patch"),
			gates.ToolCall{FilePath: "new.txt", NewTexts: []string{"moved"}}},
		{"delete", "apply_patch", patch("*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch"),
			gates.ToolCall{FilePath: "gone.txt"}},
		{"first file only", "apply_patch", patch("*** Begin Patch\n*** Update File: a.txt\n+a\n*** Update File: b.txt\n+b\n*** End Patch"),
			gates.ToolCall{FilePath: "a.txt", NewTexts: []string{"a"}}},
		{"no header", "apply_patch", patch("+stray\n"), gates.ToolCall{}},
		{"empty path", "apply_patch", patch("*** Begin Patch\n*** Add File:   \n+x\n"), gates.ToolCall{}},
		{"any tool reads a patch", "", patch("*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch"),
			gates.ToolCall{FilePath: "x.txt", NewTexts: []string{"x"}}},
		{"shell stays a command", "Bash", patch("*** Begin Patch"), gates.ToolCall{Command: "*** Begin Patch"}},
		{"not an object", "apply_patch", json.RawMessage(`"*** Add File: x"`), gates.ToolCall{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (Binding{}).ToolCall(tt.tool, tt.input); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ToolCall(%q) = %#v, want %#v", tt.tool, got, tt.want)
			}
		})
	}
}
