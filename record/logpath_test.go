package record

import (
	"path/filepath"
	"testing"
)

// TestLogPath: the flag, then $AGC_HOOK_LOG, then the project folder the runtime names (Claude
// Code's variable first, then Gemini CLI's, then Qwen Code's), then the working folder.
func TestLogPath(t *testing.T) {
	dir := filepath.FromSlash("/work/proj")
	tests := []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"x.jsonl", map[string]string{"AGC_HOOK_LOG": "/a.jsonl"}, filepath.Join(dir, "x.jsonl")},
		{"", map[string]string{"AGC_HOOK_LOG": "/a.jsonl", "CLAUDE_PROJECT_DIR": "/c"}, "/a.jsonl"},
		{"", map[string]string{"CLAUDE_PROJECT_DIR": "/c", "GEMINI_PROJECT_DIR": "/g"}, filepath.Join("/c", DefaultLog)},
		{"", map[string]string{"GEMINI_PROJECT_DIR": "/g", "QWEN_PROJECT_DIR": "/q"}, filepath.Join("/g", DefaultLog)},
		{"", map[string]string{"QWEN_PROJECT_DIR": "/q"}, filepath.Join("/q", DefaultLog)},
		{"", map[string]string{"KILO_PROJECT_DIR": "/k"}, filepath.Join("/k", DefaultLog)},
		{"", map[string]string{"OPENCODE_PROJECT_DIR": "/o", "KILO_PROJECT_DIR": "/k"}, filepath.Join("/o", DefaultLog)},
		{"", map[string]string{"CLAUDE_PROJECT_DIR": "rel"}, filepath.Join(dir, "rel", DefaultLog)},
		{"", nil, filepath.Join(dir, DefaultLog)},
	}
	for _, tt := range tests {
		got := LogPath(tt.flag, func(k string) string { return tt.env[k] }, dir)
		if got != filepath.FromSlash(tt.want) && got != tt.want {
			t.Errorf("LogPath(%q, %v) = %q, want %q", tt.flag, tt.env, got, tt.want)
		}
	}
}
