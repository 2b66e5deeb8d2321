package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// probeRun runs `agc-sarif probe` in a fresh repository folder holding the named guard of
// testdata/probe, with -o probe.sarif, and returns the exit status, stdout, the SARIF and the
// folder; validate runs sarif-validate on the SARIF.
func probeRun(t *testing.T, guard string, validate bool, flags ...string) (int, string, map[string]any, string) {
	t.Helper()
	root := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "probe", guard))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, guard), src, 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	args := append([]string{"agc-sarif", "probe", "--root", root, "-o", "probe.sarif"}, flags...)
	args = append(args, "--", "sh", guard)
	code := Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Dir: root})
	if errb.Len() > 0 {
		t.Logf("stderr: %s", errb.String())
	}
	var log map[string]any
	data, err := os.ReadFile(filepath.Join(root, "probe.sarif"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if validate { // sarif-validate takes long (the SARIF Multitool): one case of each kind
		validateSARIF(t, filepath.Join(root, "probe.sarif"))
	}
	return code, out.String(), log, root
}

// validateSARIF runs ../shared/tools/sarif-validate on the file, when the tool is there.
func validateSARIF(t *testing.T, file string) {
	t.Helper()
	tool, err := filepath.Abs(filepath.Join("..", "..", "shared", "tools", "sarif-validate"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tool); err != nil {
		t.Logf("sarif-validate is absent (%v): SARIF not validated", err)
		return
	}
	if out, err := exec.Command(tool, file).CombinedOutput(); err != nil {
		t.Errorf("sarif-validate %s: %v\n%s", file, err, out)
	}
}

// sarifResults are the rule ids of the log's results and the files they stand on.
func sarifResults(t *testing.T, log map[string]any) (rules, files []string) {
	t.Helper()
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("want one run, got %d", len(runs))
	}
	results, _ := runs[0].(map[string]any)["results"].([]any)
	for _, r := range results {
		m := r.(map[string]any)
		rules = append(rules, m["ruleId"].(string))
		loc := m["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["artifactLocation"].(map[string]any)
		files = append(files, loc["uri"].(string))
	}
	slices.Sort(rules)
	return slices.Compact(rules), slices.Compact(files)
}

// TestProbeFindsEachFault: each guard made for one fault gets exactly that finding, on its own
// file, with the exit status it calls for. Budgets and timeouts are wide where time is not what
// the case tests: the machine may be slow.
func TestProbeFindsEachFault(t *testing.T) {
	wide := []string{"--runtime", "claude-code", "--runs", "1", "--budget", "1m", "--timeout", "30s"}
	tests := []struct {
		guard    string
		flags    []string
		rule     string // "" → no results
		code     int
		validate bool
	}{
		{"clean.sh", wide, "", ExitOK, false},
		{"crash-empty.sh", wide, "probe/crash", ExitFail, false},
		{"deny-garbage.sh", wide, "probe/fails-closed", ExitFail, false},
		{"allow-repair.sh", wide, "agc/repair-with-allow", ExitFail, true},
		{"progress.sh", wide, "probe/stdout-not-json", ExitFail, false},
		{"deny-bare.sh", append([]string{"--event", "testdata/probe/deny-bare-event.json"}, wide...), "probe/decision-without-agc", ExitOK, false},
		{"slow.sh", []string{"--runtime", "claude-code", "--runs", "2", "--budget", "500ms", "--timeout", "30s"}, "probe/slow", ExitOK, true},
	}
	for _, tt := range tests {
		t.Run(tt.guard, func(t *testing.T) {
			t.Parallel()
			flags := slices.Clone(tt.flags)
			for i, f := range flags {
				if strings.HasPrefix(f, "testdata/") {
					abs, _ := filepath.Abs(f)
					flags[i] = abs
				}
			}
			code, out, log, _ := probeRun(t, tt.guard, tt.validate, flags...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d\n%s", code, tt.code, out)
			}
			rules, files := sarifResults(t, log)
			var want []string
			if tt.rule != "" {
				want = []string{tt.rule}
			}
			if !slices.Equal(rules, want) {
				t.Errorf("rules %v, want %v\n%s", rules, want, out)
			}
			if tt.rule != "" && !slices.Equal(files, []string{tt.guard}) {
				t.Errorf("results on %v, want on %s", files, tt.guard)
			}
			if tt.rule != "" && !strings.Contains(out, tt.guard+": ") {
				t.Errorf("the text report names no finding on %s:\n%s", tt.guard, out)
			}
		})
	}
}

// TestProbeKillsHungGuard: a guard that sleeps for ever on a cut input (in a child of its own)
// is killed with its child at --timeout, and probe goes on with every other input: one hang, one
// killed row, every row of the table there, and the child gone.
func TestProbeKillsHungGuard(t *testing.T) {
	code, out, log, root := probeRun(t, "hang-cut.sh", false, "--runtime", "claude-code", "--runs", "1", "--budget", "1m", "--timeout", "5s")
	if code != ExitFail {
		t.Errorf("exit status %d, want %d", code, ExitFail)
	}
	if rules, _ := sarifResults(t, log); !slices.Equal(rules, []string{"probe/hang"}) {
		t.Errorf("rules %v, want [probe/hang]\n%s", rules, out)
	}
	if n := strings.Count(out, "probe/hang:"); n != 1 {
		t.Errorf("%d hang findings, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "at the timeout of 5s") {
		t.Errorf("the hang finding does not name the timeout (5s):\n%s", out)
	}
	killed, rows := 0, 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "claude-code ") {
			rows++
			if strings.Contains(l, " killed ") {
				killed++
			}
		}
	}
	if killed != 1 || rows != 14 {
		t.Errorf("%d rows, %d killed; want 14 rows (4 events, 10 hostile inputs), 1 killed:\n%s", rows, killed, out)
	}
	b, err := os.ReadFile(filepath.Join(root, "hang.pid"))
	if err != nil {
		t.Fatalf("the guard wrote no hang.pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the guard's child %d outlived the timeout: the process group was not killed", pid)
	}
}

// TestProbeRuntimeEnv: each runtime's guard sees the project folder in the variable that runtime
// sets and not in another runtime's (probe/events/<runtime>/runtime.json).
func TestProbeRuntimeEnv(t *testing.T) {
	tests := []struct{ runtime, own, other string }{
		{"claude-code", "CLAUDE_PROJECT_DIR", "CRUSH_PROJECT_DIR"},
		{"crush", "CRUSH_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.runtime, func(t *testing.T) {
			t.Parallel()
			code, out, _, root := probeRun(t, "env.sh", false, "--runtime", tt.runtime, "--runs", "1", "--budget", "1m", "--timeout", "30s")
			if code != ExitOK {
				t.Errorf("exit status %d, want %d\n%s", code, ExitOK, out)
			}
			b, err := os.ReadFile(filepath.Join(root, "env.log"))
			if err != nil {
				t.Fatalf("the guard wrote no env.log: %v", err)
			}
			lines := strings.Split(string(b), "\n")
			if !slices.Contains(lines, tt.own+"="+root) {
				t.Errorf("%s's guard was not given %s=%s:\n%s", tt.runtime, tt.own, root, b)
			}
			if slices.Contains(lines, tt.other+"="+root) {
				t.Errorf("%s's guard was given %s, another runtime's variable:\n%s", tt.runtime, tt.other, b)
			}
		})
	}
}

// TestProbeUsage: bad command lines exit 2 before anything runs.
func TestProbeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"probe"},
		{"probe", "--runtime", "nosuch", "--", "true"},
		{"probe", "--runs", "0", "--", "true"},
		{"probe", "--timeout", "0s", "--", "true"}, // given, it must be positive; left out, each runtime's own
		{"probe", "--event", "nosuch.json", "--", "true"},
		{"probe", "--replay", "nosuch.jsonl", "--", "true"},
		{"probe", "-o", "no/such/folder/out.sarif", "--", "true"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"agc-sarif"}, args...), Env{Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }, Dir: t.TempDir()})
		if code != ExitUsage {
			t.Errorf("%v: exit status %d, want %d\n%s%s", args, code, ExitUsage, out.String(), errb.String())
		}
	}
}

// TestProbeSampleGuard: the sample guard of examples/guards passes probe clean (every runtime;
// Claude Code's and Codex's only with -short), and on its own events it climbs each rung of the
// ladder: block, steer (context), rewrite (repaired), for both runtimes it answers.
func TestProbeSampleGuard(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"agc-sarif", "probe", "--root", repo, "--runs", "1", "--budget", "1m", "--timeout", "30s",
		"--event", "examples/guards/ladder-events.jsonl"}
	if testing.Short() {
		args = append(args, "--runtime", "claude-code", "--runtime", "codex")
	}
	args = append(args, "--", "python3", "examples/guards/ladder.py")
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: repo})
	if code != ExitOK || !strings.Contains(out.String(), "no findings") {
		t.Fatalf("exit status %d, want 0 with no findings:\n%s%s", code, out.String(), errb.String())
	}
	want := map[string]string{":1)": "block", ":2)": "context", ":3)": "repaired", ":4)": "block", ":5)": "block", ":6)": "context", ":7)": "repaired"}
	for _, l := range strings.Split(out.String(), "\n") {
		for k, d := range want {
			if strings.Contains(l, "ladder-events.jsonl"+k) {
				if !strings.Contains(l, " "+d+" ") {
					t.Errorf("event %s: want decision %s: %s", k, d, l)
				}
				delete(want, k)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("events not in the table: %v\n%s", want, out.String())
	}
}

// alive reports whether process pid runs: a zombie (killed, not yet reaped by an init that
// reaps slowly) does not.
func alive(pid int) bool {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			return b[i+2] != 'Z'
		}
	}
	return syscall.Kill(pid, 0) == nil
}

// TestProbeOnHookLine: a guard whose file is outside the repository is placed on the line of
// the runtime's hook config that runs it.
func TestProbeOnHookLine(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "probe", "progress.sh"))
	if err != nil {
		t.Fatal(err)
	}
	guard := filepath.Join(outside, "progress.sh")
	if err := os.WriteFile(guard, src, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [\n" +
		"        {\"type\": \"command\", \"command\": \"sh " + guard + "\"}\n      ]}\n    ]\n  }\n}\n"
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"agc-sarif", "probe", "--root", root, "--runtime", "claude-code", "--runs", "1",
		"--budget", "1m", "--timeout", "30s", "-o", "probe.sarif", "--", "sh", guard},
		Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: root})
	if code != ExitFail {
		t.Fatalf("exit status %d, want %d\n%s%s", code, ExitFail, out.String(), errb.String())
	}
	data, err := os.ReadFile(filepath.Join(root, "probe.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("no results:\n%s", data)
	}
	for _, r := range log.Runs[0].Results {
		if p := r.Locations[0].PhysicalLocation; p.ArtifactLocation.URI != ".claude/settings.json" || p.Region.StartLine != 5 {
			t.Errorf("result on %s:%d, want .claude/settings.json:5 (the hook's line)", p.ArtifactLocation.URI, p.Region.StartLine)
		}
	}
}
