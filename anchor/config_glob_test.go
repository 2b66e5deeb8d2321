package anchor

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestConfigGlob reads every .github/hooks/*.json file of the repository, by name, and nothing
// that leads out of it: a link to a file outside, a folder linked outside, a folder named *.json.
func TestConfigGlob(t *testing.T) {
	outside := t.TempDir()
	hook := `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "X"}]}}`
	if err := os.WriteFile(filepath.Join(outside, "evil.json"), []byte(hook), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, ".github", "hooks")
	for _, d := range []string{dir, filepath.Join(dir, "folder.json")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"b.json", "a.json", "..json", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(hook), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "evil.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink("a.json", filepath.Join(dir, "same.json")); err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range a.settings {
		got = append(got, s.rel)
	}
	want := []string{".github/hooks/..json", ".github/hooks/a.json", ".github/hooks/b.json"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("settings read %v, want %v", got, want)
	}

	// A hooks folder that is a link out of the repository is not read at all.
	root2 := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root2, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root2, ".github", "hooks")); err != nil {
		t.Fatal(err)
	}
	a2, err := New(Options{Root: root2})
	if err != nil {
		t.Fatal(err)
	}
	if len(a2.settings) != 0 {
		t.Errorf("read %d settings files through a link out of the repository", len(a2.settings))
	}
}
