package permissions

import (
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// pathMatch says whether a path rule's pattern matches an absolute path, with Claude Code's roots
// ("//p" absolute, "~/p" under home, "/p" relative to the settings source, else the launch folder)
// and gitignore matching, where "dir/**" is anchored in an allow rule and any depth in a deny or
// ask rule (bin@334811416 wt).
func pathMatch(r Rule, abs string, env Env) bool {
	root, pat := patternRoot(r, env)
	if strings.HasSuffix(pat, "/**") && pat != "/**" {
		base := strings.TrimSuffix(pat, "/**")
		if r.Behavior == Allow {
			pat = "/" + strings.TrimPrefix(base, "/")
		} else {
			pat = base
		}
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	if rel == "." {
		return false
	}
	return gitignore.ParsePattern(pat, nil).Match(strings.Split(filepath.ToSlash(rel), "/"), false) == gitignore.Exclude
}

// patternRoot is the folder a rule's pattern is relative to and the pattern below it.
func patternRoot(r Rule, env Env) (root, pat string) {
	c := r.Content
	switch {
	case strings.HasPrefix(c, "//"):
		return "/", c[1:]
	case strings.HasPrefix(c, "~/"):
		return env.Home, c[1:]
	case strings.HasPrefix(c, "/"):
		root = r.Root
		if root == "" {
			root = env.Project
		}
		return root, c
	case strings.HasPrefix(c, "./"):
		return env.Project, c[2:]
	}
	return env.Project, c
}

// resolve makes a call's path absolute against its folder.
func resolve(p, cwd string) string {
	if p == "" {
		return ""
	}
	if strings.HasPrefix(p, "~/") {
		return p // a home path is not resolved: no rule sees it as the project's
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

// inside says whether abs is in one of the folders.
func inside(abs string, dirs []string) bool {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		rel, err := filepath.Rel(d, abs)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return true
		}
	}
	return false
}
