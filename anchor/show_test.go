package anchor

import (
	"os"
	"path/filepath"
	"testing"
)

// TestShow: every path shown to people is repo-relative, or <outside>/name; a hook command's
// absolute words are shown the same way.
func TestShow(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "app.py"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{Root: root, ProjectDirs: []string{"/home/runner/work/r/r"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ p, cwd, want string }{
		{filepath.Join(root, "src", "app.py"), "", "src/app.py"},
		{"/home/runner/work/r/r/src/settings.py", "", "src/settings.py"},
		{"/tmp/agc-replay/x/src/app.py", "/tmp/agc-replay/x", "src/app.py"},
		{"src/app.py", "", "src/app.py"},
		{"/etc/passwd", "/tmp/agc-replay/x", "<outside>/passwd"},
		{"../../secret.txt", "", "<outside>/secret.txt"},
		{"", "", ""},
	} {
		if got := a.Show(c.p, c.cwd); got != c.want {
			t.Errorf("Show(%q, %q) = %q, want %q", c.p, c.cwd, got, c.want)
		}
	}
	for _, c := range []struct{ cmd, cwd, want string }{
		{"/tmp/agc-replay/x/hooks/gate.py pre-crash", "/tmp/agc-replay/x", "hooks/gate.py pre-crash"},
		{`"/tmp/agc-replay/x/hooks/gate.py" --log=/tmp/agc-replay/x/hook-log.jsonl`, "/tmp/agc-replay/x", `"hooks/gate.py" --log=hook-log.jsonl`},
		{`agc-record -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py`, "/tmp/x", `agc-record -- "$CLAUDE_PROJECT_DIR"/hooks/gate.py`},
		{"/usr/bin/python3 /tmp/agc-replay/x/hooks/g.py", "/tmp/agc-replay/x", "<outside>/python3 hooks/g.py"},
	} {
		if got := a.ShowCommand(c.cmd, c.cwd); got != c.want {
			t.Errorf("ShowCommand(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}
