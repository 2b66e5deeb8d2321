package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cliRun is one in-process run of agc-sarif with args in dir.
type cliRun struct {
	code           int
	stdout, stderr string
}

// runCLI runs `agc-sarif args...` in dir with the environment vars (nil: empty).
func runCLI(t *testing.T, dir string, vars map[string]string, args ...string) cliRun {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: dir,
		Getenv: func(k string) string { return vars[k] }}
	code := Main(context.Background(), append([]string{"agc-sarif"}, args...), env)
	return cliRun{code: code, stdout: out.String(), stderr: errb.String()}
}

// TestOutputsNeverThroughLinks: every output file the CLI writes (collect's agc.sarif and -o,
// --preview's summary.md, friction -o, the action's agc-results.sarif and sarif-file), planted
// as a symlink, a hard link or behind a symlinked folder leading out of the workspace, is
// refused (exit 2, the reason on stderr) and the file outside is untouched.
func TestOutputsNeverThroughLinks(t *testing.T) {
	outputs := []struct {
		name string
		rel  string // the output's path in the workspace
		run  func(t *testing.T, ws, rel string) cliRun
	}{
		{"collect default", "agc.sarif", func(t *testing.T, ws, _ string) cliRun {
			return runCLI(t, ws, nil, "collect", "--fail-on", "none", ".agc")
		}},
		{"collect -o", "out/x.sarif", func(t *testing.T, ws, rel string) cliRun {
			return runCLI(t, ws, nil, "collect", "--fail-on", "none", "-o", rel, ".agc")
		}},
		{"collect --preview", "pv/summary.md", func(t *testing.T, ws, rel string) cliRun {
			return runCLI(t, ws, nil, "collect", "--fail-on", "none", "-o", "-", "--preview", filepath.Dir(rel), ".agc")
		}},
		{"friction -o", "friction.md", func(t *testing.T, ws, rel string) cliRun {
			return runCLI(t, ws, nil, "friction", "-o", rel, ".agc")
		}},
		{"action sarif", defaultSARIFFile, func(t *testing.T, ws, _ string) cliRun {
			r := runActionEnv(t, ws, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws,
				"INPUT_PATHS": ".agc", "INPUT_UPLOAD": "false", "INPUT_FAIL-ON": "none"})
			return cliRun{code: r.code, stdout: r.stdout, stderr: r.stderr}
		}},
		{"action sarif-file", "results/agc.sarif", func(t *testing.T, ws, rel string) cliRun {
			r := runActionEnv(t, ws, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws,
				"INPUT_PATHS": ".agc", "INPUT_UPLOAD": "false", "INPUT_FAIL-ON": "none", "INPUT_SARIF-FILE": rel})
			return cliRun{code: r.code, stdout: r.stdout, stderr: r.stderr}
		}},
	}
	plants := []struct {
		name string
		// plant puts a link at ws/rel leading to victim (in folder outside).
		plant func(t *testing.T, ws, rel, outside, victim string)
		want  string
	}{
		{"symlink", func(t *testing.T, ws, rel, _, victim string) {
			mkdirs(t, filepath.Dir(filepath.Join(ws, rel)))
			if err := os.Symlink(victim, filepath.Join(ws, rel)); err != nil {
				t.Fatal(err)
			}
		}, "is a symlink: refused"},
		{"hard link", func(t *testing.T, ws, rel, _, victim string) {
			mkdirs(t, filepath.Dir(filepath.Join(ws, rel)))
			if err := os.Link(victim, filepath.Join(ws, rel)); err != nil {
				t.Fatal(err)
			}
		}, "has 2 hard links: refused"},
		{"symlinked folder", func(t *testing.T, ws, rel, outside, victim string) {
			// the output's folder (or, at the top, a folder named in a path to it) leads outside
			dir := filepath.Dir(rel)
			if dir == "." {
				t.Skip("the output is at the workspace's top: no folder of its own")
			}
			if err := os.Rename(victim, filepath.Join(outside, filepath.Base(rel))); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(ws, dir)); err != nil {
				t.Fatal(err)
			}
		}, "symlink leading outside the workspace: refused"},
	}
	for _, o := range outputs {
		for _, p := range plants {
			t.Run(o.name+"/"+p.name, func(t *testing.T) {
				ws := workspace(t, actSHA)
				outside := t.TempDir()
				victim := filepath.Join(outside, "victim")
				if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
					t.Fatal(err)
				}
				p.plant(t, ws, o.rel, outside, victim)
				r := o.run(t, ws, o.rel)
				if r.code != ExitUsage || !strings.Contains(r.stderr, p.want) {
					t.Errorf("exit %d, want %d and %q on stderr:\n%s", r.code, ExitUsage, p.want, r.stderr)
				}
				entries, _ := os.ReadDir(outside)
				if len(entries) != 1 {
					t.Errorf("the folder outside holds %d files, want 1", len(entries))
				}
				for _, e := range entries {
					fi, _ := e.Info()
					b, _ := os.ReadFile(filepath.Join(outside, e.Name()))
					if string(b) != "precious" || fi.Mode().Perm() != 0o600 {
						t.Errorf("%s outside was changed: %q, mode %v", e.Name(), b, fi.Mode().Perm())
					}
				}
			})
		}
	}
}

func mkdirs(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
