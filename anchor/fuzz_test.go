package anchor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// FuzzPath checks that no path, however hostile, maps to a place outside the repository, and
// that Anchor always gives a location inside it.
func FuzzPath(f *testing.F) {
	f.Add("../../etc/passwd", "")
	f.Add("src/a.go", "/home/dev/proj")
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	root := filepath.Join(base, "repo")
	for rel, c := range map[string]string{".claude/settings.json": settingsJSON, "src/a.go": aGo} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink(base, filepath.Join(root, "up")); err != nil {
		f.Fatal(err)
	}
	a, err := New(Options{Root: root, ProjectDirs: []string{"/home/dev/proj"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p, cwd string) {
		if rel, ok := a.Path(p, cwd); ok {
			if !relOK(rel) {
				t.Fatalf("Path(%q, %q) = %q", p, cwd, rel)
			}
			full := filepath.Join(root, filepath.FromSlash(rel))
			if real, err := filepath.EvalSymlinks(full); err == nil && !strings.HasPrefix(real, root+string(filepath.Separator)) {
				t.Fatalf("Path(%q, %q) = %q leads to %s", p, cwd, rel, real)
			}
		}
		g := a.Anchor(findings.Finding{Kind: findings.RuntimeGate, Location: &findings.Location{Path: p, StartLine: 3},
			Call: &findings.Call{Cwd: cwd, FilePath: cwd, Hook: p}})
		if g.Location == nil || !relOK(g.Location.Path) || g.Location.StartLine < 1 {
			t.Fatalf("Anchor gave %+v", g.Location)
		}
	})
}
