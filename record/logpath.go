package record

import (
	"path/filepath"

	"github.com/agc-sarif/agc-sarif/agent"
)

// DefaultLog is the hook log's place inside the project folder.
const DefaultLog = ".agc/hook-log.jsonl"

// LogPath is the hook log to append to: flag, else $AGC_HOOK_LOG, else .agc/hook-log.jsonl in
// the project folder the runtime names (agent.ProjectDirVars), else ./.agc/hook-log.jsonl;
// relative paths are taken against dir.
func LogPath(flag string, getenv func(string) string, dir string) string {
	p := flag
	if p == "" && getenv != nil {
		p = getenv("AGC_HOOK_LOG")
		for _, k := range agent.ProjectDirVars() {
			if p != "" {
				break
			}
			if d := getenv(k); d != "" {
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
