package collect

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func names(fs []file) []string {
	var out []string
	for _, f := range fs {
		n := f.Name
		if f.Named {
			n += " (named)"
		}
		out = append(out, n)
	}
	return out
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"logs/a.jsonl":          "{}",
		"logs/sub/b.jsonl":      "{}",
		"logs/.git/HEAD":        "x",
		"logs/node_modules/x.j": "x",
		"review.md":             "x",
		"weird[1].md":           "x",
	})
	if err := os.Symlink(dir, filepath.Join(dir, "logs", "loop")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		args        []string
		want        []string
		wantMissing []string
	}{
		{"folder walks and skips .git, node_modules and links", []string{"logs"},
			[]string{"logs/a.jsonl", "logs/sub/b.jsonl"}, nil},
		{"file is named", []string{"review.md"}, []string{"review.md (named)"}, nil},
		{"glob with ** is named", []string{"logs/**/*.jsonl"},
			[]string{"logs/a.jsonl (named)", "logs/sub/b.jsonl (named)"}, nil},
		{"file whose name looks like a glob", []string{"weird[1].md"}, []string{"weird[1].md (named)"}, nil},
		{"duplicates read once", []string{"review.md", "./review.md", "*.md"},
			[]string{"review.md (named)", "weird[1].md (named)"}, nil},
		{"missing file; an empty glob is apart", []string{"nope.jsonl", "*.sarif"}, nil,
			[]string{"nope.jsonl: no such file or directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := expand(dir, tt.args)
			if got := names(ex.Files); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("files = %q, want %q", got, tt.want)
			}
			if !reflect.DeepEqual(ex.Missing, tt.wantMissing) {
				t.Errorf("missing = %q, want %q", ex.Missing, tt.wantMissing)
			}
		})
	}
}

func TestFallbackFormat(t *testing.T) {
	tests := []struct {
		name, head string
		want       string
	}{
		{"review.md", "The change looks fine.", "judgment"},
		{"notes.txt", "", "judgment"},
		{"final", "Verdict: pass", "judgment"},
		{"data.json", `{"x":1}`, ""},
		{"review.md", `{"x":1}`, ""},
		{"blob.md", "a\x00b", ""},
		{"bad.md", "\xff\xfe", ""},
	}
	for _, tt := range tests {
		if got := string(fallbackFormat(tt.name, []byte(tt.head))); got != tt.want {
			t.Errorf("fallbackFormat(%q, %q) = %q, want %q", tt.name, tt.head, got, tt.want)
		}
	}
}

func TestUnrecognised(t *testing.T) {
	for head, want := range map[string]string{
		"":        "empty file",
		"a\x00":   "binary file",
		`{"x":1}`: "--format",
		"\xff":    "not UTF-8",
	} {
		if got := unrecognised([]byte(head)); !strings.Contains(got, want) {
			t.Errorf("unrecognised(%q) = %q, want it to say %q", head, got, want)
		}
	}
}

func TestCategory(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		cat  string
		env  map[string]string
		want string
	}{
		{"", nil, "agc/"},
		{"guards", nil, "guards/"},
		{"agent/guards/", nil, "agent/guards/"},
		{"", map[string]string{"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/ci.yml@refs/heads/main", "GITHUB_JOB": "gate"},
			"agc:.github/workflows/ci.yml:gate/"},
	}
	for _, tt := range tests {
		if got := category(Config{Category: tt.cat, Getenv: env(tt.env)}); got != tt.want {
			t.Errorf("category(%q, %v) = %q, want %q", tt.cat, tt.env, got, tt.want)
		}
	}
}

func TestParseFailOn(t *testing.T) {
	got, err := ParseFailOn(" block, contract ,")
	if err != nil || !reflect.DeepEqual(got, []Outcome{FailBlock, FailContract}) {
		t.Fatalf("ParseFailOn = %v, %v", got, err)
	}
	for _, bad := range []string{"blocks", "none,block"} {
		if _, err := ParseFailOn(bad); err == nil {
			t.Errorf("ParseFailOn(%q): want an error", bad)
		}
	}
}
