package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"

	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/upload/fakegh"
)

const (
	actToken = "ghs_actiontesttoken42"
	actSHA   = "0123456789abcdef0123456789abcdef01234567"
	actHead  = "89abcdef0123456789abcdef0123456789abcdef"
)

// actionRun is one in-process run of `agc-sarif` as the container runs it.
type actionRun struct {
	code           int
	stdout, stderr string
	outputs        map[string]string
	summary, sarif string
	workspace      string
}

// workspace copies testdata/action/workspace into a temp workspace and adds .git/HEAD.
func workspace(t *testing.T, head string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "testdata", "action", "workspace")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dst, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, ".git", "HEAD"), []byte(head+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func runActionEnv(t *testing.T, ws string, vars map[string]string) actionRun {
	t.Helper()
	return runActionOpen(t, ws, vars, nil)
}

// runActionOpen is runActionEnv with the input files opened by open (nil: as collect opens them).
func runActionOpen(t *testing.T, ws string, vars map[string]string, open func(string) (*os.File, error)) actionRun {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: ws,
		Getenv: func(k string) string { return vars[k] }, open: open}
	args := []string{"agc-sarif", "action"}
	if vars["GITHUB_ACTIONS"] == "true" {
		args = DefaultArgs([]string{"agc-sarif"}, env.Getenv) // a bare run, as the container starts
	}
	code := Main(context.Background(), args, env)
	r := actionRun{code: code, stdout: out.String(), stderr: errb.String(), workspace: ws}
	if p := vars["GITHUB_OUTPUT"]; p != "" {
		b, _ := os.ReadFile(p)
		o, err := ghenv.ParseOutputs(string(b))
		if err != nil {
			t.Fatalf("GITHUB_OUTPUT does not parse: %v\n%s", err, b)
		}
		r.outputs = o
	}
	if p := vars["GITHUB_STEP_SUMMARY"]; p != "" {
		b, _ := os.ReadFile(p)
		r.summary = string(b)
	}
	sarif := or(vars["INPUT_SARIF-FILE"], defaultSARIFFile)
	if !filepath.IsAbs(sarif) {
		sarif = filepath.Join(ws, sarif)
	}
	b, _ := os.ReadFile(sarif)
	r.sarif = string(b)
	return r
}

// actionVars is the environment the runner gives the container for a pull request.
func actionVars(t *testing.T, ws string, srv *fakegh.Server, event string) map[string]string {
	dir := t.TempDir()
	return map[string]string{
		"GITHUB_ACTIONS":             "true",
		"GITHUB_WORKSPACE":           ws,
		"GITHUB_OUTPUT":              filepath.Join(dir, "output.txt"),
		"GITHUB_STEP_SUMMARY":        filepath.Join(dir, "summary.md"),
		"GITHUB_EVENT_PATH":          filepath.Join("..", "testdata", "action", event),
		"GITHUB_EVENT_NAME":          "pull_request",
		"GITHUB_REPOSITORY":          "octo/repo",
		"GITHUB_SHA":                 actSHA,
		"GITHUB_REF":                 "refs/pull/7/merge",
		"GITHUB_SERVER_URL":          "https://github.com",
		"GITHUB_API_URL":             srv.APIURL(),
		"GITHUB_JOB":                 "agc",
		"GITHUB_WORKFLOW_REF":        "octo/repo/.github/workflows/agc.yml@refs/pull/7/merge",
		"INPUT_PATHS":                ".agc",
		"INPUT_FORMAT":               "auto",
		"INPUT_FAIL-ON":              "judgment-block,contract",
		"INPUT_UPLOAD":               "auto",
		"INPUT_TOKEN":                actToken,
		"INPUT_SARIF-FILE":           "agc-results.sarif",
		"INPUT_WAIT-FOR-PROCESSING":  "true",
		"INPUT_MAX-ANNOTATIONS":      "10",
		"INPUT_SUMMARY":              "true",
		"INPUT_INCLUDE-UNSTRUCTURED": "true",
	}
}

// wfCommand matches our commands on stdout: annotations, add-mask, and the copy of a stderr
// stretch's resume (actionslog writes it before a command, in case the runner reads stdout first).
var wfCommand = regexp.MustCompile(`^(::(error|warning|notice|add-mask|debug)( [^:]*)?::|::[0-9a-f]{32}::$)`)

// checkInert checks what every run must hold: stdout is only workflow commands, one add-mask of
// the token and no other sight of it, no injected command, and an inert summary.
func checkInert(t *testing.T, r actionRun) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		if !wfCommand.MatchString(line) {
			t.Errorf("stdout line is not one of ours: %q", line)
		}
		if strings.Contains(line, actToken) && line != "::add-mask::"+actToken {
			t.Errorf("token printed: %q", line)
		}
	}
	if strings.Contains(r.stderr, actToken) || strings.Contains(r.summary, actToken) {
		t.Error("token in stderr or summary")
	}
	if n := strings.Count("\n"+r.stdout, "\n::add-mask::"); n != 1 {
		t.Errorf("add-mask commands: %d", n)
	}
	for _, bad := range []string{"\n::set-output", "\n::add-mask::x"} {
		if strings.Contains("\n"+r.stdout, bad) {
			t.Errorf("agent text started a workflow command %q", bad)
		}
	}
	for k := range r.outputs {
		switch k {
		case "sarif-file", "findings", "blocks", "repairs", "steers", "contract-findings", "sarif-id", "uploaded":
		default:
			t.Errorf("unexpected output %q", k)
		}
	}
	// <br> and <details><summary> are the summary's own; agent text makes no tag
	own := strings.NewReplacer("<br>", "", "<details><summary>", "", "</summary>", "", "</details>", "")
	if regexp.MustCompile(`<[A-Za-z/!]`).MatchString(own.Replace(r.summary)) || regexp.MustCompile(`@[A-Za-z0-9]`).MatchString(r.summary) {
		t.Errorf("raw HTML or pinging mention in the summary:\n%s", r.summary)
	}
}

func TestActionPullRequest(t *testing.T) {
	tests := []struct {
		name       string
		event      string
		head       string
		vars       map[string]string
		uploads    []fakegh.Reply
		statuses   []fakegh.Reply
		wantCode   int
		wantUpload bool
		wantRef    string
		wantReqs   bool
		wantStdout string
	}{
		{name: "uploaded", event: "event-pull-request.json", head: actSHA, wantCode: ExitFail, wantUpload: true, wantRef: "refs/pull/7/merge", wantReqs: true},
		{name: "head checked out", event: "event-pull-request.json", head: actHead, wantCode: ExitFail, wantUpload: true, wantRef: "refs/pull/7/head", wantReqs: true},
		{name: "fork auto", event: "event-fork-pull-request.json", head: actSHA, wantCode: ExitFail, wantStdout: "comes from a fork"},
		{name: "no code scanning auto", event: "event-pull-request.json", head: actSHA, uploads: []fakegh.Reply{fakegh.Forbidden()},
			wantCode: ExitFail, wantReqs: true, wantRef: "refs/pull/7/merge", wantStdout: "security-events: write"},
		{name: "no code scanning, upload true", event: "event-pull-request.json", head: actSHA, vars: map[string]string{"INPUT_UPLOAD": "true"},
			uploads: []fakegh.Reply{fakegh.Forbidden()}, wantCode: ExitUsage, wantReqs: true, wantRef: "refs/pull/7/merge", wantStdout: "::error"},
		{name: "upload false", event: "event-pull-request.json", head: actSHA, vars: map[string]string{"INPUT_UPLOAD": "false"}, wantCode: ExitFail},
		{name: "fail-on none", event: "event-pull-request.json", head: actSHA, vars: map[string]string{"INPUT_FAIL-ON": "none", "INPUT_UPLOAD": "false"}, wantCode: ExitOK},
		{name: "processing failed, auto", event: "event-pull-request.json", head: actSHA, wantCode: ExitFail, wantReqs: true, wantUpload: true, wantRef: "refs/pull/7/merge",
			statuses: []fakegh.Reply{fakegh.Processing("failed", "an invalid URI was provided as a SARIF location")}, wantStdout: "::warning::code scanning upload failed"},
		{name: "processing failed, upload true", event: "event-pull-request.json", head: actSHA, wantCode: ExitUsage, wantReqs: true, wantUpload: true, wantRef: "refs/pull/7/merge",
			vars:     map[string]string{"INPUT_UPLOAD": "true"},
			statuses: []fakegh.Reply{fakegh.Processing("failed", "an invalid URI was provided as a SARIF location")}, wantStdout: "invalid URI"},
		{name: "no wait", event: "event-pull-request.json", head: actSHA, wantCode: ExitFail, wantReqs: true, wantUpload: true, wantRef: "refs/pull/7/merge",
			vars: map[string]string{"INPUT_WAIT-FOR-PROCESSING": "false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", actToken)
			defer srv.Close()
			if tt.uploads != nil {
				srv.Uploads = tt.uploads
			}
			srv.Statuses = []fakegh.Reply{fakegh.Processing("complete")}
			if tt.statuses != nil {
				srv.Statuses = tt.statuses
			}
			ws := workspace(t, tt.head)
			vars := actionVars(t, ws, srv, tt.event)
			for k, v := range tt.vars {
				vars[k] = v
			}
			r := runActionEnv(t, ws, vars)
			if r.code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.wantCode, r.stdout, r.stderr)
			}
			checkInert(t, r)
			if r.outputs["sarif-file"] != "agc-results.sarif" || r.outputs["findings"] == "" || r.outputs["findings"] == "0" || r.outputs["blocks"] != "2" {
				t.Errorf("outputs %v", r.outputs)
			}
			if !strings.Contains(r.summary, "## AGC gates") {
				t.Errorf("summary:\n%s", r.summary)
			}
			if tt.wantStdout != "" && !tt.wantReqs && !strings.Contains(r.stdout, tt.wantStdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantStdout, r.stdout)
			}
			if r.sarif == "" {
				t.Fatal("the action wrote no SARIF")
			}
			var log map[string]any
			if err := json.Unmarshal([]byte(r.sarif), &log); err != nil {
				t.Fatalf("SARIF file does not parse: %v", err)
			}
			if got := r.outputs["uploaded"]; got != map[bool]string{true: "true", false: "false"}[tt.wantUpload] {
				t.Errorf("uploaded = %q, want %v\nstdout:\n%s\nstderr:\n%s", got, tt.wantUpload, r.stdout, r.stderr)
			}
			if tt.wantUpload && r.outputs["sarif-id"] == "" {
				t.Error("no sarif-id output")
			}
			scanning := codeScanningRequests(srv.Requests())
			if (len(scanning) > 0) != tt.wantReqs {
				t.Errorf("code scanning requests %v", scanning)
			}
			if tt.vars["INPUT_WAIT-FOR-PROCESSING"] == "false" && len(scanning) != 1 {
				t.Errorf("polled without wait-for-processing: %v", scanning)
			}
			if v := srv.Violations(); len(v) > 0 {
				t.Errorf("API violations:\n%s", strings.Join(v, "\n"))
			}
			for _, u := range srv.Received() {
				if u.Ref != tt.wantRef {
					t.Errorf("uploaded to %s, want %s", u.Ref, tt.wantRef)
				}
				if tt.wantRef == "refs/pull/7/head" && u.CommitSHA != actHead {
					t.Errorf("commit %s, want the head %s", u.CommitSHA, actHead)
				}
			}
			if tt.wantStdout != "" && !strings.Contains(r.stdout, tt.wantStdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.wantStdout, r.stdout)
			}
		})
	}
}

// Outside GitHub Actions (no GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, event, repository) the action
// still collects and writes the SARIF, and does not panic or print the token.
func TestActionOutsideActions(t *testing.T) {
	ws := workspace(t, actSHA)
	r := runActionEnv(t, ws, map[string]string{"INPUT_PATHS": ".agc", "INPUT_TOKEN": actToken, "INPUT_UPLOAD": "auto"})
	if r.code != ExitFail {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, actToken) {
		t.Error("token printed outside Actions")
	}
	if _, err := os.Stat(filepath.Join(ws, "agc-results.sarif")); err != nil {
		t.Error(err)
	}
}

func TestActionBadInputs(t *testing.T) {
	for name, vars := range map[string]map[string]string{
		"upload":          {"INPUT_UPLOAD": "sometimes"},
		"format":          {"INPUT_FORMAT": "xml"},
		"fail-on":         {"INPUT_FAIL-ON": "everything"},
		"max-annotations": {"INPUT_MAX-ANNOTATIONS": "-3"},
		"summary":         {"INPUT_SUMMARY": "maybe"},
	} {
		t.Run(name, func(t *testing.T) {
			r := runActionEnv(t, workspace(t, actSHA), vars)
			if r.code != ExitUsage || !strings.Contains(r.stdout, "::error::input "+name) {
				t.Errorf("exit %d stdout %q", r.code, r.stdout)
			}
		})
	}
}

func TestDefaultArgs(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	tests := []struct {
		args []string
		gha  string
		want string
	}{
		{[]string{"agc-sarif"}, "true", "agc-sarif action"},
		{[]string{"agc-sarif"}, "", "agc-sarif"},
		{[]string{"agc-sarif", "collect", "x"}, "true", "agc-sarif collect x"},
	}
	for _, tt := range tests {
		if got := strings.Join(DefaultArgs(tt.args, env(tt.gha)), " "); got != tt.want {
			t.Errorf("DefaultArgs(%v, %q) = %q, want %q", tt.args, tt.gha, got, tt.want)
		}
	}
}

func TestSplitPaths(t *testing.T) {
	tests := map[string][]string{
		".agc":                           {".agc"},
		"a, b\nc\r\n\n d ":               {"a", "b", "c", "d"},
		"logs/**/*.{jsonl,json}, out.md": {"logs/**/*.{jsonl,json}", "out.md"},
		"":                               nil,
	}
	for in, want := range tests {
		if got := splitPaths(in); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("splitPaths(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUploadCommand(t *testing.T) {
	const sarif = `{"version":"2.1.0","$schema":"https://json.schemastore.org/sarif-2.1.0.json","runs":[{"tool":{"driver":{"name":"agc-sarif","rules":[]}},"results":[]}]}`
	tests := []struct {
		name     string
		args     []string
		uploads  []fakegh.Reply
		wantCode int
		wantReqs int
		wantErr  string
	}{
		{"ok", []string{"--wait", "0"}, nil, ExitOK, 1, ""},
		{"ok, waiting", nil, nil, ExitOK, 2, ""},
		{"flags", []string{"--repo", "octo/repo", "--ref", "refs/heads/main", "--sha", actHead, "--wait", "0"}, nil, ExitOK, 1, ""},
		{"403", nil, []fakegh.Reply{fakegh.Forbidden()}, ExitUsage, 1, "security-events: write"},
		{"ref without sha", []string{"--ref", "refs/heads/main"}, nil, ExitUsage, 0, "together"},
		{"bad sha", []string{"--ref", "refs/heads/main", "--sha", "HEAD"}, nil, ExitUsage, 0, "40-hex"},
		{"branch name", []string{"--ref", "main", "--sha", actHead}, nil, ExitUsage, 0, "refs/heads"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakegh.New("octo", "repo", actToken)
			defer srv.Close()
			if tt.uploads != nil {
				srv.Uploads = tt.uploads
			}
			dir := workspace(t, actHead)
			if err := os.WriteFile(filepath.Join(dir, "x.sarif"), []byte(sarif), 0o644); err != nil {
				t.Fatal(err)
			}
			vars := map[string]string{"GITHUB_TOKEN": actToken, "GITHUB_API_URL": srv.APIURL(), "GITHUB_REPOSITORY": "octo/repo",
				"GITHUB_REF": "refs/pull/7/merge", "GITHUB_SHA": actSHA, "GITHUB_WORKSPACE": dir,
				"GITHUB_EVENT_PATH": filepath.Join("..", "testdata", "action", "event-pull-request.json")}
			var out, errb bytes.Buffer
			env := Env{Stdout: &out, Stderr: &errb, Dir: dir, Getenv: func(k string) string { return vars[k] }}
			args := append(append([]string{"agc-sarif", "upload"}, tt.args...), "x.sarif")
			code := Main(context.Background(), args, env)
			if code != tt.wantCode || !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errb.String(), tt.wantCode, tt.wantErr)
			}
			if n := len(srv.Requests()); n != tt.wantReqs {
				t.Errorf("requests %v", srv.Requests())
			}
			if v := srv.Violations(); len(v) > 0 {
				t.Errorf("API violations:\n%s", strings.Join(v, "\n"))
			}
			for _, u := range srv.Received() {
				if len(tt.args) < 2 && (u.Ref != "refs/pull/7/head" || u.CommitSHA != actHead) {
					t.Errorf("from the environment with the PR head checked out: uploaded %s at %s", u.Ref, u.CommitSHA)
				}
			}
			if strings.Contains(out.String()+errb.String(), actToken) {
				t.Error("token printed")
			}
			if code == ExitOK && strings.TrimSpace(out.String()) == "" {
				t.Error("no SARIF id printed")
			}
		})
	}
}

// actionYAML reads the input and output names of ../action.yml, with the inputs' defaults.
func actionYAML(t *testing.T) (inputs map[string]string, outputs []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	inputs = map[string]string{}
	section, current := "", ""
	key := regexp.MustCompile(`^  ([a-z][a-z-]*):\s*$`)
	def := regexp.MustCompile(`^    default:\s*(.*)$`)
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case !strings.HasPrefix(line, " ") && strings.HasSuffix(line, ":"):
			section = strings.TrimSuffix(line, ":")
		case key.MatchString(line):
			current = key.FindStringSubmatch(line)[1]
			if section == "inputs" {
				inputs[current] = ""
			} else if section == "outputs" {
				outputs = append(outputs, current)
			}
		case section == "inputs" && def.MatchString(line):
			inputs[current] = strings.Trim(def.FindStringSubmatch(line)[1], `'"`)
		}
	}
	return inputs, outputs
}

// action.yml and the code must agree on the inputs, their defaults and the outputs.
func TestActionYAMLMatchesCode(t *testing.T) {
	yml, outs := actionYAML(t)
	if len(yml) == 0 {
		t.Fatal("action.yml has no inputs")
	}
	read := map[string]bool{}
	withDefaults := map[string]string{}
	for name, d := range yml {
		withDefaults["INPUT_"+strings.ToUpper(name)] = d
	}
	record := func(vars map[string]string) func(string) string {
		return func(k string) string { read[k] = true; return vars[k] }
	}
	empty, err := readInputs(githubactionsNew(record(nil)))
	if err != nil {
		t.Fatal(err)
	}
	for name := range yml {
		if !read["INPUT_"+strings.ToUpper(name)] {
			t.Errorf("input %s is in action.yml but never read", name)
		}
	}
	for k := range read {
		name := strings.ToLower(strings.TrimPrefix(k, "INPUT_"))
		if _, ok := yml[name]; !ok {
			t.Errorf("input %s is read but not in action.yml", name)
		}
	}
	delete(withDefaults, "INPUT_TOKEN")  // ${{ github.token }}
	delete(withDefaults, "INPUT_MATRIX") // ${{ toJSON(matrix) }}
	defaults, err := readInputs(githubactionsNew(record(withDefaults)))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(empty) != fmt.Sprint(defaults) {
		t.Errorf("code defaults differ from action.yml:\ncode: %+v\nyml:  %+v", empty, defaults)
	}
	want := []string{"sarif-file", "findings", "blocks", "repairs", "steers", "contract-findings", "sarif-id", "uploaded"}
	if strings.Join(outs, ",") != strings.Join(want, ",") {
		t.Errorf("action.yml outputs %v, the action writes %v", outs, want)
	}
}

// codeScanningRequests keeps the requests to the code scanning API (the diff filter also reads the
// pull request's diff).
func codeScanningRequests(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if strings.Contains(r, "/code-scanning/") {
			out = append(out, r)
		}
	}
	return out
}

func githubactionsNew(getenv func(string) string) *githubactions.Action {
	return githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(&bytes.Buffer{}))
}
