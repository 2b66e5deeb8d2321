package probe

import (
	"context"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agc-sarif/agc-sarif/runtimes"
)

// envName is what a project-folder variable may be called.
var envName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*_DIR$`)

// TestRuntimeFactsEveryFolder: every runtime folder of probe/events has a runtime.json, read
// without error, with a positive timeout, evidence, and project-folder variables: at least one,
// or none when the evidence says the runtime sets no project-folder variable; and every
// registered runtime has such a folder.
func TestRuntimeFactsEveryFolder(t *testing.T) {
	ents, err := fs.ReadDir(samples, "events")
	if err != nil {
		t.Fatal(err)
	}
	folders := map[string]bool{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		rt := e.Name()
		folders[rt] = true
		t.Run(rt, func(t *testing.T) {
			if _, err := fs.Stat(samples, "events/"+rt+"/runtime.json"); err != nil {
				t.Fatalf("no probe/events/%s/runtime.json: %v", rt, err)
			}
			f, err := RuntimeFacts(rt)
			if err != nil {
				t.Fatal(err)
			}
			if f.Timeout <= 0 {
				t.Errorf("timeout %s, want a positive one", f.Timeout)
			}
			if strings.TrimSpace(f.Evidence) == "" {
				t.Error("no evidence: say where the timeout and the variables come from")
			}
			if len(f.ProjectDirVars) == 0 && !strings.Contains(f.Evidence, "no project-folder variable") {
				t.Errorf("no project-folder variable, and the evidence does not say so (%q)", f.Evidence)
			}
			seen := map[string]bool{}
			for _, v := range f.ProjectDirVars {
				if !envName.MatchString(v) || seen[v] {
					t.Errorf("variable %q: not a …_DIR name, or named twice", v)
				}
				seen[v] = true
			}
		})
	}
	for _, b := range runtimes.Bindings() {
		if !folders[b.Runtime()] {
			t.Errorf("%s: no folder probe/events/%s/ with its runtime.json", b.Runtime(), b.Runtime())
		}
	}
}

// TestRuntimeFactsUnknown: a runtime probe has no folder of gets the default timeout.
func TestRuntimeFactsUnknown(t *testing.T) {
	f, err := RuntimeFacts("no-such-runtime")
	if err != nil || f.Timeout != DefaultTimeout {
		t.Errorf("RuntimeFacts(no-such-runtime) = %v, %v; want the default timeout %s", f, err, DefaultTimeout)
	}
}

// TestRunTimeoutAndEnv: a run gets its runtime's timeout unless Options.Timeout is set, and only
// its runtime's project-folder variables.
func TestRunTimeoutAndEnv(t *testing.T) {
	dir := t.TempDir()
	guard := []string{"sh", "-c", "cat >/dev/null; env"}
	rts := []string{}
	for _, b := range runtimes.Bindings() {
		rts = append(rts, b.Runtime())
	}
	for _, rt := range rts {
		f, err := RuntimeFacts(rt)
		if err != nil {
			t.Fatal(err)
		}
		for _, override := range []time.Duration{0, 7 * time.Second} {
			r, err := run(context.Background(), Options{Argv: guard, Dir: dir, Env: os.Environ(), Timeout: override}, Case{Runtime: rt})
			if err != nil {
				t.Fatal(err)
			}
			want := f.Timeout
			if override > 0 {
				want = override
			}
			if r.Timeout != want {
				t.Errorf("%s, --timeout %s: ran with timeout %s, want %s", rt, override, r.Timeout, want)
			}
			lines := strings.Split(string(r.Stdout), "\n")
			for _, other := range rts {
				o, _ := RuntimeFacts(other)
				for _, v := range o.ProjectDirVars {
					set := slices.Contains(lines, v+"="+dir)
					if own := slices.Contains(f.ProjectDirVars, v); set != own {
						t.Errorf("%s: %s=<project> set %v, want %v (the runtime sets it: %v)", rt, v, set, own, own)
					}
				}
			}
		}
	}
}
