package command

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/runnercmd"
	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// marker is planted in every hostile input; no command the runner finds may carry it outside
// the data and values of our own annotations.
const marker = "PWNED7e1"

// hostileInputs writes inputs whose names, bad records and messages try every way into a
// workflow command: "##[" anywhere, "::" after Unicode white space, a newline in a file name,
// a stop-commands that would switch off later annotations, bidi controls.
func hostileInputs(t *testing.T, dir string) {
	t.Helper()
	bad := `{"agc":"0.1" x ##[stop-commands]` + marker + "\n" +
		`##[error]` + marker + ` forged` + "\n" +
		`see ##[add-mask]` + marker + "\n" +
		"\u2003::error::" + marker + " after an em space\n" +
		"\u200b::warning::" + marker + " after a zero-width space\n" +
		`{"agc":"0.1","gate":{"id":"code-review","kind":"judgment"},"verdict":"block","findings":[{"rule":"sql","message":"x ##[stop-commands]` + marker + ` then ##[error]` + marker + " \u202eevil\u202c \u2003::error::" + marker + `","location":{"path":"src/app.go","line":5}}]}` + "\n"
	for _, name := range []string{"\u2003::error::" + marker + ".jsonl", "x\n::error::" + marker + ".jsonl", "a ##[add-mask]" + marker + ".jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runTaped runs agc-sarif in-process with stdout and stderr on one runner tape.
func runTaped(t *testing.T, dir string, vars map[string]string, args ...string) (*runnercmd.Tape, int) {
	t.Helper()
	tape := runnercmd.NewTape()
	env := Env{Stdin: strings.NewReader(""), Stdout: tape.Writer("stdout"), Stderr: tape.Writer("stderr"), Dir: dir,
		Getenv: func(k string) string { return vars[k] }}
	code := Main(context.Background(), append([]string{"agc-sarif"}, args...), env)
	return tape, code
}

var ourProps = map[string]bool{"file": true, "line": true, "endLine": true, "col": true, "endColumn": true, "title": true}

// checkRunnerCommands replays the tape through the port of the runner and fails on any command
// that is not ours, any command swallowed by a stop, or a stop left open; then runs the shared
// runner-commands tool on the saved streams when it is there.
func checkRunnerCommands(t *testing.T, tape *runnercmd.Tape, wantErrors int) {
	t.Helper()
	r := tape.Replay()
	tokens := map[string]bool{}
	errors := 0
	for _, c := range r.Commands {
		name := strings.ToLower(c.Name)
		where := c.Stream + ":" + strings.TrimSpace(c.Text)
		switch {
		case !c.Processed:
			t.Errorf("a command was swallowed by a stop: %s", where)
		case c.Form != "v2":
			t.Errorf("legacy command found: %s", where)
		case name == "stop-commands":
			if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(c.Data) {
				t.Errorf("stop token %q is not ours", c.Data)
			}
			tokens[strings.ToLower(c.Data)] = true
		case tokens[name]:
			delete(tokens, name)
		case name == "error" || name == "warning" || name == "notice":
			if name == "error" {
				errors++
			}
			for k, v := range c.Props {
				if !ourProps[k] || strings.Contains(k, marker) {
					t.Errorf("foreign property %q in %s", k, where)
				}
				if strings.ContainsRune(v, '\u202e') {
					t.Errorf("U+202E in property %s of %s", k, where)
				}
			}
			if strings.ContainsRune(c.Data, '\u202e') {
				t.Errorf("U+202E in annotation %s", where)
			}
		case name == "add-mask" && c.Data == actToken:
		default:
			t.Errorf("foreign command %q: %s", c.Name, where)
		}
	}
	if r.Stopped() || len(tokens) > 0 {
		t.Errorf("a stop-commands stretch was left open")
	}
	if wantErrors >= 0 && errors < wantErrors {
		t.Errorf("%d error annotations processed, want at least %d", errors, wantErrors)
	}
	for _, s := range []string{"stdout", "stderr"} {
		if strings.ContainsRune(tape.Text(s), '\u202e') {
			t.Errorf("U+202E reached %s raw", s)
		}
	}
	tool := filepath.Join("..", "..", "shared", "tools", "runner-commands")
	if _, err := os.Stat(tool); err != nil {
		t.Logf("skipping %s: %v", tool, err)
		return
	}
	dir := t.TempDir()
	out, errf := filepath.Join(dir, "stdout"), filepath.Join(dir, "stderr")
	os.WriteFile(out, []byte(tape.Text("stdout")), 0o644)
	os.WriteFile(errf, []byte(tape.Text("stderr")), 0o644)
	b, err := exec.Command(tool, marker, "annotations:"+out, errf).CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Logf("skipping %s: %v", tool, err)
			return
		}
		t.Errorf("%s found agent commands:\n%s", tool, b)
	}
}

func hostileVars(extra map[string]string) map[string]string {
	v := map[string]string{"GITHUB_ACTIONS": "true"}
	for k, x := range extra {
		v[k] = x
	}
	return v
}

// TestRunnerCommandsCollect: collect with the SARIF on stdout and problems on stderr.
func TestRunnerCommandsCollect(t *testing.T) {
	dir := t.TempDir()
	hostileInputs(t, dir)
	tape, code := runTaped(t, dir, hostileVars(nil), "collect", "--root", dir, "-o", "-", ".")
	if code != ExitFail {
		t.Fatalf("exit %d\n%s", code, tape.Text("stderr"))
	}
	if !strings.Contains(tape.Text("stdout"), `##\u005b`) || !strings.Contains(tape.Text("stderr"), "::stop-commands::") {
		t.Errorf("stdout or stderr was not made inert:\n%s", tape.Text("stderr"))
	}
	var log struct{ Runs []any }
	if err := json.Unmarshal([]byte(tape.Text("stdout")), &log); err != nil || len(log.Runs) != 1 {
		t.Errorf("stdout is not the SARIF alone: %v\n%.300s", err, tape.Text("stdout"))
	}
	checkRunnerCommands(t, tape, -1)
}

// TestRunnerCommandsCheck: check's report on stdout quotes the same records.
func TestRunnerCommandsCheck(t *testing.T) {
	dir := t.TempDir()
	hostileInputs(t, dir)
	tape, _ := runTaped(t, dir, hostileVars(nil), "check", "--root", dir, ".")
	if !strings.Contains(tape.Text("stdout"), marker) {
		t.Fatalf("check reported nothing of the hostile records:\n%s", tape.Text("stdout"))
	}
	checkRunnerCommands(t, tape, -1)
}

// TestRunnerCommandsAction: the action annotates the hostile block as an error, and the runner
// obeys that annotation and nothing the agent wrote.
func TestRunnerCommandsAction(t *testing.T) {
	srv := fakegh.New("octo", "repo", actToken)
	defer srv.Close()
	ws := workspace(t, actSHA)
	hostileInputs(t, filepath.Join(ws, ".agc"))
	vars := actionVars(t, ws, srv, "event-pull-request.json")
	vars["INPUT_UPLOAD"] = "false"
	tape, code := runTaped(t, ws, vars)
	if code != ExitFail {
		t.Fatalf("exit %d\n%s", code, tape.Text("stderr"))
	}
	checkRunnerCommands(t, tape, 2)
	b, _ := os.ReadFile(vars["GITHUB_STEP_SUMMARY"])
	if strings.ContainsRune(string(b), '\u202e') {
		t.Error("U+202E reached the summary raw")
	}
}
