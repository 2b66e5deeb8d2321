package command

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run agc-sarif in-process as the command "agc-sarif".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agc-sarif": func() { os.Exit(Main(context.Background(), os.Args, OSEnv())) },
	})
}

// TestScripts runs the end-to-end cases in testdata/script/*.txtar: command line, files,
// expected stdout, stderr and exit status on one page each.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// REPO lets a script copy shared testdata (examples, samples, replays) into $WORK.
			env.Setenv("REPO", repo)
			env.Setenv("GITHUB_ACTIONS", "")
			return nil
		},
		RequireExplicitExec: false,
	})
}
