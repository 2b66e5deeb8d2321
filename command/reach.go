package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// unreachable names each path of the action's paths input that lies outside the workspace and
// cannot be found, with why and what to do: a container action sees only the workspace (mounted
// at /github/workspace), not runner.temp (claude-code-action's execution file) nor the runner's
// home (~/.claude/projects). A path outside the workspace that does exist (the CLI run on the
// runner itself) is not named.
func unreachable(paths []string, workspace, runnerTemp string) []string {
	var out []string
	for _, p := range paths {
		full, outside := outsideWorkspace(p, workspace)
		if !outside || exists(full) {
			continue
		}
		out = append(out, fmt.Sprintf("%s is outside the workspace and not found: this action runs in a container, "+
			"which sees only the workspace (%s). Copy the file into it in an earlier step, e.g. "+
			"`%s` in a run: step, and read it from there (the default paths input, .agc, does).",
			p, workspace, copyStep(p, runnerTemp)))
	}
	return out
}

// outsideWorkspace resolves p against the workspace and reports whether it lies outside it.
// A path starting with ~ is the runner's home, which the container never sees.
func outsideWorkspace(p, workspace string) (string, bool) {
	if workspace == "" {
		return p, false
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		return p, true
	}
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(workspace, full)
	}
	rel, err := filepath.Rel(workspace, full)
	return full, err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// exists reports whether a path, or for a glob its fixed leading folder, is there.
func exists(p string) bool {
	if strings.HasPrefix(p, "~") {
		return false
	}
	if hasGlob(p) {
		base, _ := doublestar.SplitPattern(filepath.ToSlash(p))
		p = filepath.FromSlash(base)
	}
	_, err := os.Lstat(p)
	return err == nil
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[{") }

// copyStep is a shell command, for a run: step before this action, that copies p into .agc/
// in the workspace. It names the runner's own variables where p is under them, so it works on
// any runner; a glob is copied as its leading folder.
func copyStep(p, runnerTemp string) string {
	src, flag := p, ""
	if hasGlob(p) {
		base, _ := doublestar.SplitPattern(filepath.ToSlash(p))
		src, flag = filepath.FromSlash(base), "-r "
	}
	runnerTemp = strings.TrimSuffix(runnerTemp, "/")
	var quoted string
	switch {
	case src == "~" || strings.HasPrefix(src, "~/"):
		quoted = `"$HOME` + escape(strings.TrimPrefix(src, "~")) + `"`
	case runnerTemp != "" && strings.HasPrefix(src, runnerTemp+"/"):
		quoted = `"$RUNNER_TEMP` + escape(src[len(runnerTemp):]) + `"`
	default:
		quoted = `"` + escape(src) + `"`
	}
	return "mkdir -p .agc && cp " + flag + quoted + " .agc/"
}

// escape makes s literal inside a double-quoted shell word.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(s)
}
