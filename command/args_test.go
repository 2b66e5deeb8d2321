package command

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

// TestInterspersed: flags after the arguments move ahead of them with their values (by the
// command's own flag definitions), the arguments follow a "--" of their own, everything after
// the user's "--" stays an argument, and record's hook command is left alone.
func TestInterspersed(t *testing.T) {
	cmds := commands(&Env{})
	for _, tc := range []struct {
		in, want string
		err      string
	}{
		{"collect .agc -o x.sarif", "collect -o x.sarif -- .agc", ""},
		{"collect -o x.sarif .agc", "collect -o x.sarif -- .agc", ""},
		{"collect .agc --output=x.sarif --redact=false b", "collect --output=x.sarif --redact=false -- .agc b", ""},
		{"collect .agc --include-unstructured b", "collect --include-unstructured -- .agc b", ""},
		{"collect .agc --judgment -j.md b", "collect --judgment -j.md -- .agc b", ""},
		{"collect - --format hook-log", "collect --format hook-log -- -", ""},
		{"collect .agc -- --x -o", "collect -- .agc --x -o", ""},
		{"collect -- --x", "collect -- --x", ""},
		{"collect .agc --bogus v", "collect --bogus -- .agc v", ""},
		{"collect .agc -o", "", "flag -o needs a value"},
		{"review --pr 1 --commit c .agc --dry-run", "review --pr 1 --commit c --dry-run -- .agc", ""},
		{"--help collect a -o x", "--help collect -o x -- a", ""},
		{"record -- sh -c x --log y", "record -- sh -c x --log y", ""},
		{"record sh --log y", "record sh --log y", ""},
		{"schema", "schema", ""},
		{"nosuch a -o x", "nosuch a -o x", ""},
	} {
		got, err := interspersed(cmds, append([]string{"agc-sarif"}, strings.Fields(tc.in)...))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if want := append([]string{"agc-sarif"}, strings.Fields(tc.want)...); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q (%v)\nwant %q", tc.in, got, err, want)
		}
	}
}

// TestFlagsAfterPaths runs every subcommand with a flag after its arguments: the flag is read as
// a flag (never as a file name), or, for commands that take no arguments, the run is refused as
// bad usage before doing anything.
func TestFlagsAfterPaths(t *testing.T) {
	clean := hookLine(t, "PreToolUse", "Bash", "t1", map[string]any{"command": "ls"}, nil, 0, "", "")
	setup := func(t *testing.T) string {
		ws := workspace(t, actSHA)
		if err := os.WriteFile(filepath.Join(ws, ".agc", "clean.jsonl"), []byte(clean), 0o644); err != nil {
			t.Fatal(err)
		}
		return ws
	}
	noFlagAsPath := func(t *testing.T, r cliRun) {
		t.Helper()
		if strings.Contains(r.stderr, "--") && strings.Contains(r.stderr, "no such file") {
			t.Errorf("a flag was read as a path:\n%s", r.stderr)
		}
	}
	t.Run("collect", func(t *testing.T) {
		ws := setup(t)
		r := runCLI(t, ws, nil, "collect", ".agc", "-o", "x.sarif", "--fail-on", "none")
		noFlagAsPath(t, r)
		if r.code != ExitOK {
			t.Errorf("exit %d:\n%s", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(ws, "x.sarif")); err != nil {
			t.Errorf("x.sarif not written: %v", err)
		}
		if _, err := os.Stat(filepath.Join(ws, "agc.sarif")); err == nil {
			t.Error("agc.sarif written")
		}
	})
	t.Run("collect dangling flag", func(t *testing.T) {
		ws := setup(t)
		r := runCLI(t, ws, nil, "collect", ".agc", "-o")
		if r.code != ExitUsage || !strings.Contains(r.stderr, "flag -o needs a value") {
			t.Errorf("exit %d:\n%s", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(ws, "agc.sarif")); err == nil {
			t.Error("agc.sarif written")
		}
	})
	t.Run("collect after --", func(t *testing.T) {
		ws := setup(t)
		if err := os.WriteFile(filepath.Join(ws, "-o"), []byte(clean), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, ws, nil, "collect", "--fail-on", "none", "-o", "x.sarif", "--", "-o")
		if r.code != ExitOK || !strings.Contains(r.stderr, "files read: 1") {
			t.Errorf("the file named -o after -- was not read: exit %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("check", func(t *testing.T) {
		r := runCLI(t, setup(t), nil, "check", ".agc/clean.jsonl", "--jobs", "0")
		noFlagAsPath(t, r)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--jobs 0: want at least 1") {
			t.Errorf("--jobs after the path not read: exit %d\n%s", r.code, r.stderr)
		}
	})
	t.Run("friction", func(t *testing.T) {
		ws := setup(t)
		r := runCLI(t, ws, nil, "friction", ".agc", "-o", "f.md", "--report", "md")
		noFlagAsPath(t, r)
		if _, err := os.Stat(filepath.Join(ws, "f.md")); err != nil || r.stdout != "" {
			t.Errorf("f.md not written (%v), stdout %q, exit %d:\n%s", err, r.stdout, r.code, r.stderr)
		}
	})
	t.Run("upload", func(t *testing.T) {
		ws := setup(t)
		if r := runCLI(t, ws, nil, "collect", ".agc", "--fail-on", "none"); r.code != ExitOK {
			t.Fatalf("collect: %d\n%s", r.code, r.stderr)
		}
		srv := fakegh.New("octo", "repo", actToken)
		defer srv.Close()
		r := runCLI(t, ws, map[string]string{"GITHUB_TOKEN": actToken}, "upload", "agc.sarif", "--repo", "octo/repo",
			"--ref", "refs/heads/main", "--sha", actSHA, "--api-url", srv.APIURL(), "--wait", "0")
		noFlagAsPath(t, r)
		if r.code != ExitOK || len(srv.Received()) != 1 {
			t.Errorf("exit %d, %d uploads, want 0 and 1:\n%s", r.code, len(srv.Received()), r.stderr)
		}
	})
	t.Run("review --dry-run last", func(t *testing.T) {
		ws := reviewWorkspace(t)
		mkdirs(t, filepath.Join(ws, ".agc"))
		if err := os.WriteFile(filepath.Join(ws, ".agc", "clean.jsonl"), []byte(clean), 0o644); err != nil {
			t.Fatal(err)
		}
		diff, err := os.ReadFile(filepath.Join(reviewReplay, "pr.diff"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, "pr.diff"), diff, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, last := range [][]string{{"--dry-run"}, {"--dry-run", "--diff", "pr.diff"}} {
			srv := reviewFake(t)
			args := append([]string{"review", "--pr", "7", "--commit", actHead, "--judgment", "reviews/execution.json", ".agc"}, last...)
			r := runCLI(t, ws, map[string]string{"GITHUB_TOKEN": actToken, "GITHUB_API_URL": srv.APIURL(), "GITHUB_REPOSITORY": "octo/repo"}, args...)
			noFlagAsPath(t, r)
			// without --diff, the dry run reads the diff (a GET) and nothing else; with it, nothing
			if reqs := srv.Requests(); len(writes(reqs)) > 0 || (len(last) > 1 && len(reqs) > 0) {
				t.Errorf("%v: requests sent by a dry run: %v", last, reqs)
			}
			if !strings.Contains(r.stdout, `"commit_id": "`+actHead+`"`) || !strings.Contains(r.stderr, "dry run, nothing sent") {
				t.Errorf("%v: no dry run: exit %d\nstdout:\n%s\nstderr:\n%s", last, r.code, r.stdout, r.stderr)
			}
		}
	})
	t.Run("record", func(t *testing.T) {
		// the hook command's own flags stay its own: nothing after the command is reordered
		dir := t.TempDir()
		r := runRecord(t, dir, nil, nil, "--log", "h.jsonl", "--", "sh", "-c", `printf '%s' "$*"`, "sh", "--log", "x")
		if r.code != ExitOK || string(r.stdout) != "--log x" {
			t.Errorf("exit %d, stdout %q, want the hook's own --log x\n%s", r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
			t.Error("the hook's --log x was read as record's")
		}
	})
	t.Run("permissions", func(t *testing.T) {
		ws := setup(t)
		calls := `{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + ws + `"}` + "\n"
		if err := os.WriteFile(filepath.Join(ws, "calls.jsonl"), []byte(calls), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, ws, nil, "permissions", "calls.jsonl", "--report", "json")
		noFlagAsPath(t, r)
		if r.code != ExitOK || !strings.Contains(r.stdout, `"decision": "allow"`) {
			t.Errorf("--report after the input not read: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("probe", func(t *testing.T) {
		// the guard's own flags stay its own: probe's flags come before its "--"
		dir := t.TempDir()
		guard := filepath.Join(dir, "guard.sh")
		if err := os.WriteFile(guard, []byte("#!/bin/sh\ncat >/dev/null\n[ \"$1\" = --runs ] && exit 0\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		r := runCLI(t, dir, nil, "probe", "--runtime", "claude-code", "--runs", "1", "--", guard, "--runs")
		if r.code != ExitOK {
			t.Errorf("the guard's --runs was not the guard's: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
	})
	// every subcommand has its case above or in this loop
	tested := map[string]bool{"collect": true, "check": true, "friction": true, "upload": true, "review": true, "record": true, "permissions": true, "probe": true}
	for _, cmd := range []string{"action", "version", "schema"} {
		tested[cmd] = true
	}
	for _, c := range commands(&Env{}) {
		if !tested[c.Name] {
			t.Errorf("subcommand %s has no flag-after-paths case", c.Name)
		}
	}
	for _, cmd := range []string{"action", "version", "schema"} {
		t.Run(cmd, func(t *testing.T) {
			r := runCLI(t, t.TempDir(), nil, cmd, "extra", "--help")
			if r.code != ExitUsage && !strings.Contains(r.stdout, "agc-sarif "+cmd) {
				t.Errorf("%s extra --help: exit %d, neither refused nor helped:\nstdout:\n%s\nstderr:\n%s", cmd, r.code, r.stdout, r.stderr)
			}
			r = runCLI(t, t.TempDir(), nil, cmd, "extra")
			if r.code != ExitUsage || !strings.Contains(r.stderr, "takes no arguments") {
				t.Errorf("%s extra: exit %d, want a usage error:\n%s", cmd, r.code, r.stderr)
			}
		})
	}
}
