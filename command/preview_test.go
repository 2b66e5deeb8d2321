package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyInto copies the files of the folder src (not its sub-folders) into dst/name.
func copyInto(t *testing.T, src, dst, name string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dst, name), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPreviewIsActionSummary: collect --preview writes the job summary the action appends to
// GITHUB_STEP_SUMMARY, byte for byte, on the same inputs (Friction section included); the one
// line that may differ is what each says of the upload to code scanning, which a preview never
// tries.
func TestPreviewIsActionSummary(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"responses", ""},
		{"guard-mix", "../testdata/claude/guard-mix"},
		{"session-anchor", "../testdata/claude/session-anchor"},
		{"friction", "../testdata/friction"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := workspace(t, actSHA)
			paths := ".agc"
			if c.src != "" {
				if _, err := os.Stat(c.src); err != nil {
					t.Skip(err)
				}
				copyInto(t, c.src, ws, "run")
				paths = "run"
			}
			dir := t.TempDir()
			r := runActionEnv(t, ws, map[string]string{
				"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"), "GITHUB_WORKSPACE": ws,
				"INPUT_PATHS": paths, "INPUT_UPLOAD": "false", "INPUT_SUMMARY": "true", "INPUT_SARIF-FILE": previewSARIF,
				"INPUT_FAIL-ON": "judgment-block,contract", "INPUT_INCLUDE-UNSTRUCTURED": "true", "INPUT_FORMAT": "auto",
			})
			if r.summary == "" {
				t.Fatalf("the action wrote no summary (exit %d):\n%s", r.code, r.stderr)
			}
			var out, errb bytes.Buffer
			env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: ws,
				Getenv: func(k string) string { return map[string]string{"GITHUB_WORKSPACE": ws}[k] }}
			pv := filepath.Join(dir, "preview")
			code := Main(context.Background(), []string{"agc-sarif", "collect", "-o", filepath.Join(dir, "x.sarif"), "--preview", pv, paths}, env)
			if code != r.code {
				t.Errorf("collect --preview exited %d, the action %d:\n%s", code, r.code, errb.String())
			}
			b, err := os.ReadFile(filepath.Join(pv, previewSummary))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Replace(string(b), "Code scanning: "+previewUpload, "Code scanning: UPLOAD", 1)
			want := strings.Replace(r.summary, "Code scanning: not uploaded (upload: false).", "Code scanning: UPLOAD", 1)
			if got != want {
				t.Errorf("preview's summary differs from the action's:\n--- preview\n%s\n--- action\n%s", got, want)
			}
			if c.name == "friction" && !strings.Contains(want, "Friction") {
				t.Errorf("the action's summary has no Friction section:\n%s", want)
			}
		})
	}
}
