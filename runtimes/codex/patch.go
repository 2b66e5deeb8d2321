package codex

import (
	"strings"

	"github.com/agc-sarif/agc-sarif/gates"
)

// Codex's apply_patch tool takes one patch text as its input's "command" (research/runtimes.md
// §5.1): "*** Begin Patch", then per file "*** Add File: P", "*** Update File: P" (optionally
// "*** Move to: Q") or "*** Delete File: P", hunks whose added lines start with "+", and
// "*** End Patch". Read from Codex's documented input; the replay harness never offered the tool,
// so this reading is not verified with the runtime (README, runtime table).

// patchCall is what an apply_patch call was about: the first file it writes and the runs of
// lines it adds there, each run one text to be found in the file afterwards.
func patchCall(patch string) gates.ToolCall {
	var call gates.ToolCall
	var run []string
	flush := func() {
		if len(run) > 0 {
			call.NewTexts = append(call.NewTexts, strings.Join(run, "\n"))
			run = nil
		}
	}
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		if path, ok := patchFile(line); ok {
			if call.FilePath != "" {
				break // a second file: only the first is the call's
			}
			call.FilePath = path
			continue
		}
		if move, ok := strings.CutPrefix(line, "*** Move to: "); ok && call.FilePath != "" {
			call.FilePath = strings.TrimSpace(move) // the file the update writes
			continue
		}
		if added, ok := strings.CutPrefix(line, "+"); ok && call.FilePath != "" {
			run = append(run, added)
			continue
		}
		flush()
	}
	flush()
	return call
}

// patchFile reads the path of a patch's file header line.
func patchFile(line string) (string, bool) {
	for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: "} {
		if p, ok := strings.CutPrefix(line, h); ok {
			p = strings.TrimSpace(p)
			return p, p != ""
		}
	}
	return "", false
}
