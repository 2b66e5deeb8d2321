package anchor

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/findings"
)

// slash normalises a path as written by any runtime: Windows separators become forward
// slashes; nothing else changes.
func slash(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// isAbs reports whether p (already slashed) is absolute: "/…", or a Windows drive "C:/…".
func isAbs(p string) bool { return strings.HasPrefix(p, "/") || hasDrive(p) }

// hasDrive reports whether p starts with a Windows drive letter and a slash ("C:/").
func hasDrive(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/' &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// cleanAbs cleans an absolute slashed path, keeping a drive letter's form.
func cleanAbs(p string) string {
	if hasDrive(p) {
		return p[:2] + path.Clean(p[2:])
	}
	return path.Clean(p)
}

// under returns the part of p below root ("" and false when p is not below root). Drive paths
// compare without regard to case, as Windows does.
func under(p, root string) (string, bool) {
	if root == "" {
		return "", false
	}
	if root == "/" {
		return strings.TrimPrefix(p, "/"), p != "/"
	}
	pre := root + "/"
	if len(p) < len(pre) {
		return "", false
	}
	// Compare the prefix in place: lower-casing the whole path could change its length (invalid
	// UTF-8 becomes U+FFFD), and the rest is cut from p by the prefix's length.
	if hasDrive(root) && !strings.EqualFold(p[:len(pre)], pre) || !hasDrive(root) && p[:len(pre)] != pre {
		return "", false
	}
	return p[len(pre):], true
}

// maxPath is the longest path considered; longer ones are refused (no file system allows them).
const maxPath = 4096

// stripAgentWorktree maps a repo-relative path inside a Claude Code agent worktree
// (.claude/worktrees/<name>/rest) to rest.
func stripAgentWorktree(rel string) string {
	const wt = agent.WorktreeDir
	for strings.HasPrefix(rel, wt) {
		rest := rel[len(wt):]
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return rel
		}
		rel = rest[i+1:]
	}
	return rel
}

// agentWorktreeRest finds "/.claude/worktrees/<name>/" inside an absolute path and returns what
// follows it: an agent worktree of some checkout, wherever it lived.
func agentWorktreeRest(p string) (string, bool) {
	const wt = "/" + agent.WorktreeDir
	i := strings.LastIndex(p, wt)
	if i < 0 {
		return "", false
	}
	rest := p[i+len(wt):]
	j := strings.IndexByte(rest, '/')
	if j < 0 || j+1 == len(rest) {
		return "", false
	}
	return rest[j+1:], true
}

// relOK checks a cleaned repo-relative path: not empty, not the root, not leaving it, not
// inside .git, no NUL.
func relOK(rel string) bool {
	if rel == "" || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return false
	}
	if rel == ".git" || strings.HasPrefix(rel, ".git/") || strings.ContainsRune(rel, 0) {
		return false
	}
	return true
}

// Path maps any path an agent, a hook or a gate wrote to a path relative to the repository root,
// or reports false when it leaves the repository or maps to nothing. Relative paths are taken as
// repo-relative (as AGC locations are), or relative to cwd when only that names an existing
// file. Absolute paths are mapped through the root, git worktrees of the repository, agent
// worktrees (.claude/worktrees/<name>/…), the project folders the agent used and cwd. Windows
// separators are normalised, ".." is cleaned, and symbolic links are resolved on the part of the
// path that exists; a link that leads out of the repository refuses the path.
func (a *Anchorer) Path(p, cwd string) (string, bool) {
	p = slash(strings.TrimSpace(p))
	if p == "" || len(p) > maxPath || strings.ContainsRune(p, 0) {
		return "", false
	}
	p = strings.TrimPrefix(p, "file://")
	if !isAbs(p) {
		rel := path.Clean(p)
		if relOK(rel) && a.exists(stripAgentWorktree(rel)) {
			return a.resolve(stripAgentWorktree(rel))
		}
		if c := slash(cwd); isAbs(c) && len(c) <= maxPath {
			if r, ok := a.mapAbs(cleanAbs(c+"/"+p), cleanAbs(c)); ok && a.exists(r) {
				return a.resolve(r)
			}
		}
		if !relOK(rel) {
			return "", false
		}
		return a.resolve(stripAgentWorktree(rel))
	}
	c := slash(strings.TrimSpace(cwd))
	if !isAbs(c) || len(c) > maxPath {
		c = ""
	} else {
		c = cleanAbs(c)
	}
	rel, ok := a.mapAbs(cleanAbs(p), c)
	if !ok {
		return "", false
	}
	return a.resolve(rel)
}

// cwdLevels is how many folders above the agent's working folder are tried as the project
// root when a path is known only through that folder.
const cwdLevels = 6

// mapAbs maps a cleaned absolute path to a repo-relative one through the known roots; cwd (clean,
// absolute, or "") is the agent's working folder when the path was written.
func (a *Anchorer) mapAbs(p, cwd string) (string, bool) {
	// Exact roots first: the checkout, then the git worktrees of this repository (longest first,
	// so a worktree inside the checkout wins over the checkout).
	for _, r := range a.exact {
		if rel, ok := under(p, r); ok {
			rel = stripAgentWorktree(rel)
			return rel, relOK(rel)
		}
	}
	// An agent worktree of the same project anywhere.
	if rest, ok := agentWorktreeRest(p); ok {
		rest = stripAgentWorktree(path.Clean(rest))
		return rest, relOK(rest)
	}
	// Other roots the agent used (the project folders, then its working folder and the folders
	// above it, on another machine): a mapping that names an existing file wins; else the
	// outermost project folder, else the working folder itself.
	var proj, work []string
	for _, r := range a.guess {
		if rel, ok := under(p, r); ok {
			if rel = stripAgentWorktree(rel); relOK(rel) {
				proj = append(proj, rel)
			}
		}
	}
	// The folders above the working folder count only for files that exist, and the file
	// system's root never counts.
	cwdRel := ""
	for r, i := cwd, 0; r != "" && i <= cwdLevels; i++ {
		up := cleanAbs(r + "/..")
		if up == r {
			break // r is "/" or a drive
		}
		if rel, ok := under(p, r); ok {
			if rel = stripAgentWorktree(rel); relOK(rel) {
				if i == 0 {
					cwdRel = rel
				}
				work = append(work, rel)
			}
		}
		r = up
	}
	for _, c := range append(append([]string{}, proj...), work...) {
		if a.exists(c) {
			return c, true
		}
	}
	if len(proj) > 0 {
		sort.SliceStable(proj, func(i, j int) bool { return len(proj[i]) > len(proj[j]) })
		return proj[0], true
	}
	return cwdRel, cwdRel != ""
}

// resolve resolves symbolic links on the part of Root/rel that exists and returns the path
// relative to the resolved root, or false when a link leads out of the repository.
func (a *Anchorer) resolve(rel string) (string, bool) {
	if !relOK(rel) {
		return "", false
	}
	a.mu.Lock()
	r, ok := a.resolved[rel]
	a.mu.Unlock()
	if ok {
		return r, r != ""
	}
	out, ok := a.resolveOnce(rel)
	a.mu.Lock()
	if len(a.resolved) >= 4096 {
		clear(a.resolved)
	}
	a.resolved[rel] = out
	a.mu.Unlock()
	return out, ok
}

// resolveOnce does the work of resolve: the path with the links of its deepest existing part
// resolved. A path that does not exist is resolved through its folders, which are looked up once
// each (realDir): a hook log names thousands of files, most of them gone, in a few folders, and
// walking each one's folders again with the system was a tenth of reading it.
func (a *Anchorer) resolveOnce(rel string) (string, bool) {
	full := filepath.Join(a.root, filepath.FromSlash(rel))
	existing, real := full, ""
	if _, err := os.Lstat(full); err == nil {
		r, err := filepath.EvalSymlinks(full)
		if err != nil {
			return "", false
		}
		real = r
	} else {
		for {
			parent := filepath.Dir(existing)
			if parent == existing || len(parent) < len(a.root) {
				return "", false
			}
			existing = parent
			d := a.realDir(existing)
			if !d.exists {
				continue
			}
			if !d.ok {
				return "", false
			}
			real = d.real
			break
		}
	}
	rest := strings.TrimPrefix(full[len(existing):], string(filepath.Separator))
	out, err := filepath.Rel(a.root, filepath.Join(real, rest))
	if err != nil {
		return "", false
	}
	out = filepath.ToSlash(out)
	if !relOK(out) {
		return "", false
	}
	return out, true
}

// realDir is what resolving found at an absolute folder: whether something is there, and
// whether its links resolve, to real.
type realDir struct {
	real       string
	exists, ok bool
}

// maxDirs bounds the folders resolveOnce remembers.
const maxDirs = 1 << 14

// realDir looks dir up once: os.Lstat, then filepath.EvalSymlinks when it is there.
func (a *Anchorer) realDir(dir string) realDir {
	a.mu.Lock()
	d, ok := a.dirs[dir]
	a.mu.Unlock()
	if ok {
		return d
	}
	if _, err := os.Lstat(dir); err == nil {
		d.exists = true
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			d.real, d.ok = r, true
		}
	}
	a.mu.Lock()
	if len(a.dirs) >= maxDirs {
		clear(a.dirs)
	}
	a.dirs[dir] = d
	a.mu.Unlock()
	return d
}

// worktreeRoots lists the work trees of the repository at root by reading git's own files (no
// git process): the main work tree and every linked one under <common git dir>/worktrees/*/gitdir.
func worktreeRoots(root string) []string {
	dotgit := filepath.Join(root, ".git")
	common := dotgit
	if b, err := os.ReadFile(dotgit); err == nil {
		// root is itself a linked work tree: ".git" is a file "gitdir: <dir>".
		dir := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		common = dir
		if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
			cd := strings.TrimSpace(string(c))
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(dir, cd)
			}
			common = filepath.Clean(cd)
		}
	}
	var out []string
	if filepath.Base(common) == ".git" {
		out = append(out, filepath.Dir(common))
	}
	entries, err := os.ReadDir(filepath.Join(common, "worktrees"))
	if err != nil {
		return out
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(common, "worktrees", e.Name(), "gitdir"))
		if err != nil {
			continue
		}
		g := strings.TrimSpace(string(b))
		if !filepath.IsAbs(g) {
			g = filepath.Join(common, "worktrees", e.Name(), g)
		}
		out = append(out, filepath.Dir(filepath.Clean(g)))
	}
	return out
}

// Outside is how a path outside the repository is shown: "<outside>/" and its base name.
const Outside = "<outside>"

// Show is the one way a path is shown to people, in every message, the summary, annotations,
// review comments, friction and stderr: relative to the repository (src/app.py), as Path maps
// it (through cwd, the project folders, worktrees), or "<outside>/name" when it leaves the
// repository or maps to nothing; "" stays "".
func (a *Anchorer) Show(p, cwd string) string {
	if strings.TrimSpace(p) == "" {
		return p
	}
	if rel, ok := a.Path(p, cwd); ok {
		return rel
	}
	return OutsideName(p)
}

// OutsideName is "<outside>/name" for a path outside the repository: its base name only.
func OutsideName(p string) string {
	b := path.Base(slash(strings.TrimRight(strings.TrimSpace(p), `/\`)))
	if b == "." || b == "/" || b == "" || b == ".." {
		return Outside
	}
	return Outside + "/" + b
}

// ShowCommand shows a command line with every absolute path word in it as Show shows it: a
// hook command the records spell with the machine's folders ("/home/runner/work/r/r/hooks/g.py
// --strict" becomes "hooks/g.py --strict"). Words are split on white space; quotes around a
// word are kept around what replaces it.
func (a *Anchorer) ShowCommand(cmd, cwd string) string {
	if !strings.ContainsAny(cmd, `/\`) {
		return cmd
	}
	words := strings.Fields(cmd)
	for i, w := range words {
		lead := w[:len(w)-len(strings.TrimLeft(w, `"'=`))]
		core := strings.TrimLeft(w, `"'=`)
		if k := strings.IndexByte(core, '='); k > 0 && strings.HasPrefix(core[k+1:], "/") { // --log=/tmp/x
			lead, core = lead+core[:k+1], core[k+1:]
		}
		trail := core[len(strings.TrimRight(core, `"';`)):]
		core = strings.TrimRight(core, `"';`)
		if isAbs(slash(core)) || strings.HasPrefix(core, "~/") {
			words[i] = lead + a.Show(core, cwd) + trail
		}
	}
	return strings.Join(words, " ")
}

// HookCommand is how the hook of a call is named to people: its command as the repository's hook
// settings configure it, when one of them is the hook that ran (the same match as placing on the
// hook's line: for a record that names no hook, the one command configured for the event and
// tool), else the command as the record spells it with its paths shown (ShowCommand).
func (a *Anchorer) HookCommand(c findings.Call) string {
	hook, event := c.Hook, c.Event
	s, line, ok := findHook(a.settings, hook, event)
	if !ok && strings.TrimSpace(hook) == "" {
		s, line, ok = onlyHook(a.settings, c.Runtime, event, c.Tool)
	}
	if ok {
		for _, c := range s.commands {
			if c.line == line {
				return c.command
			}
		}
	}
	return a.ShowCommand(hook, c.Cwd)
}
