package record

import "path/filepath"

// DefaultLog is the hook log's place inside the project folder.
const DefaultLog = ".agc/hook-log.jsonl"

// LogPath is the hook log to append to: flag, else $AGC_HOOK_LOG, else
// $CLAUDE_PROJECT_DIR/.agc/hook-log.jsonl, else ./.agc/hook-log.jsonl; relative paths are taken
// against dir.
func LogPath(flag string, getenv func(string) string, dir string) string {
	p := flag
	if p == "" && getenv != nil {
		p = getenv("AGC_HOOK_LOG")
		if p == "" {
			if d := getenv("CLAUDE_PROJECT_DIR"); d != "" {
				p = filepath.Join(d, DefaultLog)
			}
		}
	}
	if p == "" {
		p = DefaultLog
	}
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	return p
}
