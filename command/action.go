package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/annotate"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/friction"
	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/safewrite"
	"github.com/agc-sarif/agc-sarif/review"
	"github.com/agc-sarif/agc-sarif/runtimes"
	"github.com/agc-sarif/agc-sarif/summary"
	"github.com/agc-sarif/agc-sarif/upload"
)

// Defaults of the action's inputs; action.yml states the same values.
const (
	defaultActionPaths = ".agc"
	defaultSARIFFile   = "agc-results.sarif"
	// actionWaitLimit bounds how long the action waits for code scanning to process an upload.
	actionWaitLimit = 3 * time.Minute
)

// DefaultArgs makes a bare invocation inside GitHub Actions (GITHUB_ACTIONS=true, no arguments)
// run the action subcommand, so the container needs no args in action.yml. Main's caller applies
// it to os.Args.
func DefaultArgs(args []string, getenv func(string) string) []string {
	if len(args) == 1 && getenv != nil && getenv("GITHUB_ACTIONS") == "true" {
		return append(append([]string(nil), args...), "action")
	}
	return args
}

func actionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "action",
		Usage: "run as the GitHub Action: read INPUT_*, collect, annotate, write the job summary and outputs, upload",
		Description: "The container's entrypoint. Inputs come from INPUT_<NAME> variables (hyphens kept), the\n" +
			"run from GITHUB_*. Outside GitHub Actions it works too: outputs and the summary are skipped\n" +
			"when GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are unset.",
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageErrorf("action takes no arguments (its inputs are INPUT_* variables), got %q", c.Args().First())
			}
			return runAction(c.Context, env)
		},
	}
}

// actionInputs are the action's inputs, read and checked.
type actionInputs struct {
	Paths               []string
	Judgments           []string // reviewing agents' outputs, read fail-closed (input judgments)
	IfNoFilesFound      string   // what a glob or folder matching no file means: warn, error or ignore
	Format              inputs.Format
	Category            string
	FailOn              []collect.Outcome
	Levels              collect.Levels // input level: overrides of the output level per verdict
	Matrix              string         // input matrix: toJSON(matrix), for the default category
	Upload              string         // auto, true or false
	Token               string
	SARIFFile           string
	Wait                bool
	MaxAnnotations      int
	Summary             bool
	Root                string
	IncludeUnstructured bool
	DiffFilter          difffilter.Mode // which findings annotations and the summary show
	Base                string          // the diff's base; "" → the pull request's base commit
	SessionAnchor       anchor.SessionMode
	Ref, SHA            string      // upload target set by the workflow (a workflow_run job); "" → from the run
	PRReview            review.Mode // pull-request review: off, suggestions or comments
	PermissionsLint     string      // lint permission settings: changed, always or never
}

func readInputs(gha *githubactions.Action) (actionInputs, error) {
	in := actionInputs{
		Category: gha.GetInput("category"),
		Matrix:   gha.GetInput("matrix"),
		Token:    gha.GetInput("token"),
		Root:     gha.GetInput("root"),
	}
	var err error
	in.Paths = splitPaths(or(gha.GetInput("paths"), defaultActionPaths))
	in.Judgments = splitPaths(gha.GetInput("judgments"))
	if in.IfNoFilesFound, err = collect.ParseIfNoFilesFound(gha.GetInput("if-no-files-found")); err != nil {
		return in, fmt.Errorf("input %w", err)
	}
	if in.Format, err = runtimes.Inputs().Parse(or(gha.GetInput("format"), string(inputs.Auto))); err != nil {
		return in, fmt.Errorf("input format: %w", err)
	}
	if in.FailOn, err = collect.ParseFailOn(or(gha.GetInput("fail-on"), collect.DefaultFailOn)); err != nil {
		return in, fmt.Errorf("input fail-on: %w", err)
	}
	if in.Levels, err = collect.ParseLevels(strings.Split(gha.GetInput("level"), "\n")); err != nil {
		return in, fmt.Errorf("input level: %w", err)
	}
	switch in.Upload = strings.ToLower(or(gha.GetInput("upload"), "auto")); in.Upload {
	case "auto", "true", "false":
	default:
		return in, fmt.Errorf("input upload: %q is not auto, true or false", in.Upload)
	}
	in.SARIFFile = or(gha.GetInput("sarif-file"), defaultSARIFFile)
	if in.Wait, err = boolInput(gha, "wait-for-processing", true); err != nil {
		return in, err
	}
	if in.Summary, err = boolInput(gha, "summary", true); err != nil {
		return in, err
	}
	if in.IncludeUnstructured, err = boolInput(gha, "include-unstructured", true); err != nil {
		return in, err
	}
	if in.DiffFilter, err = difffilter.ParseMode(or(gha.GetInput("diff-filter"), string(difffilter.Added))); err != nil {
		return in, fmt.Errorf("input diff-filter: %w", err)
	}
	in.Base = gha.GetInput("base")
	if in.SessionAnchor, err = anchor.ParseSessionMode(gha.GetInput("session-anchor")); err != nil {
		return in, fmt.Errorf("input session-anchor: %w", err)
	}
	if in.Ref, in.SHA, err = refInputs(gha); err != nil {
		return in, err
	}
	if in.PermissionsLint, err = parsePermsLint(gha.GetInput("permissions-lint")); err != nil {
		return in, err
	}
	if in.PRReview, err = review.ParseMode(gha.GetInput("pr-review")); err != nil {
		return in, fmt.Errorf("input pr-review: %w", err)
	}
	in.MaxAnnotations = annotate.DefaultMax
	if v := gha.GetInput("max-annotations"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1000 {
			return in, fmt.Errorf("input max-annotations: %q is not a number from 0 to 1000", v)
		}
		in.MaxAnnotations = n
		if n == 0 {
			in.MaxAnnotations = -1 // none
		}
	}
	return in, nil
}

// dropMissingDefault leaves out the default paths (.agc) when judgments are named and the
// workspace has no .agc: a reviewer job that reads only judgments need not have a hook log.
func dropMissingDefault(ws string, paths, judgments []string) []string {
	if len(judgments) == 0 || len(paths) != 1 || paths[0] != defaultActionPaths {
		return paths
	}
	if _, err := os.Stat(filepath.Join(ws, defaultActionPaths)); err != nil {
		return nil
	}
	return paths
}

// refInputs reads the ref and sha inputs, which name the upload's target as upload-sarif's do
// (for a workflow_run job uploading a fork pull request's results): both or neither.
func refInputs(gha *githubactions.Action) (string, string, error) {
	ref, sha := strings.TrimSpace(gha.GetInput("ref")), strings.TrimSpace(gha.GetInput("sha"))
	switch {
	case ref == "" && sha == "":
		return "", "", nil
	case ref == "" || sha == "":
		return "", "", fmt.Errorf("inputs ref and sha: give both or neither (ref %q, sha %q)", ref, sha)
	}
	if err := ghenv.CheckRef(ref); err != nil {
		return "", "", fmt.Errorf("input ref: %w", err)
	}
	if !ghenv.IsSHA(sha) {
		return "", "", fmt.Errorf("input sha: %q is not a full 40-hex commit id", sha)
	}
	return ref, sha, nil
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func boolInput(gha *githubactions.Action, name string, def bool) (bool, error) {
	v := gha.GetInput(name)
	if v == "" {
		return def, nil
	}
	switch strings.ToLower(v) {
	case "true", "yes", "1", "on":
		return true, nil
	case "false", "no", "0", "off":
		return false, nil
	}
	return def, fmt.Errorf("input %s: %q is not true or false", name, v)
}

// splitPaths splits the paths input on newlines and on commas outside glob braces ({a,b}).
func splitPaths(s string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if p := strings.TrimSpace(cur.String()); p != "" {
			out = append(out, p)
		}
		cur.Reset()
	}
	for _, r := range s {
		switch {
		case r == '{':
			depth++
		case r == '}' && depth > 0:
			depth--
		case r == '\n' || r == '\r' || (r == ',' && depth == 0):
			flush()
			depth = 0
			continue
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}

// actionState is what the action's steps share: the run's setting and the results so far.
type actionState struct {
	env       *Env
	gha       *githubactions.Action
	ghc       *githubactions.GitHubContext
	in        actionInputs
	start     time.Time
	workspace string
	diff      loadedDiff // the change's diff, read once before collecting
	res       *collect.Result
	tap       *friction.Tap                // the friction ladder's share of collect's read, for the summary
	onChange  func(*findings.Finding) bool // the diff filter; nil when no diff applies
	filter    string                       // one line on what the diff filter hid
	up        uploadResult
	perms     string // the job summary's section on the permission settings lint
}

// actionStep is one step of the action; an error ends the run with it.
type actionStep struct {
	name string
	run  func(context.Context, *actionState) error
}

// actionSteps are the action's steps, in order.
func actionSteps() []actionStep {
	return []actionStep{
		{"diff", stepDiff},
		{"collect", stepCollect},
		{"filter", stepFilter},
		{"annotate", stepAnnotate},
		{"permissions", stepPermissions},
		{"upload", stepUpload},
		{"summary", stepSummary},
		{"review", stepReview},
		{"outputs", stepOutputs},
	}
}

// runAction is the action: read the inputs and the run's context, then run the steps; the exit
// status follows fail-on and is decided only after all of them.
func runAction(ctx context.Context, env *Env) error {
	s := &actionState{env: env, start: time.Now()}
	s.gha = githubactions.New(githubactions.WithGetenv(env.Getenv), githubactions.WithWriter(safeWriter{env.actionsLog().Commands()}))
	in, err := readInputs(s.gha)
	if err != nil {
		s.gha.Errorf("%s", err.Error())
		return exit(ExitUsage, err)
	}
	s.in = in
	if in.Token != "" && env.Getenv("GITHUB_ACTIONS") == "true" {
		s.gha.AddMask(in.Token) // the runner masks github.token already; a PAT may not be
	}
	s.ghc, err = s.gha.Context()
	if err != nil {
		s.gha.Warningf("%s", "reading the GitHub context: "+err.Error())
	}
	if s.ghc == nil {
		s.ghc = &githubactions.GitHubContext{}
	}
	s.workspace = or(s.ghc.Workspace, env.Dir)
	if s.ghc.Workspace != "" && env.Getenv("GITHUB_ACTIONS") == "true" {
		for _, m := range unreachable(in.Paths, s.workspace, env.Getenv("RUNNER_TEMP")) {
			s.gha.Errorf("%s", m)
		}
	}
	for _, step := range actionSteps() {
		if err := step.run(ctx, s); err != nil {
			return err
		}
	}
	if s.up.fatal != nil {
		return exit(ExitUsage, s.up.fatal)
	}
	return statusOf(s.env, s.res, s.in.FailOn)
}

// stepCollect reads the inputs, writes the SARIF file and reports problems on stderr.
func stepCollect(ctx context.Context, s *actionState) error {
	in, env := s.in, s.env
	in.Paths = dropMissingDefault(s.workspace, in.Paths, in.Judgments)
	if s.in.Summary && env.Getenv("GITHUB_STEP_SUMMARY") != "" {
		s.tap = friction.NewTap() // the summary's Friction section reads the same pass
	}
	res, err := collect.Run(ctx, collect.Config{
		Paths: in.Paths, Judgments: in.Judgments, Format: in.Format, Root: in.Root, Category: in.Category,
		IncludeUnstructured: in.IncludeUnstructured, Redact: true, FailOn: in.FailOn, Levels: in.Levels, Matrix: in.Matrix,
		Dir: s.workspace, Getenv: env.Getenv, Stderr: env.Stderr, Version: Version,
		Diff: s.diff.d, SessionAnchor: in.SessionAnchor, IfNoFilesFound: in.IfNoFilesFound, Consumer: consumer(s.tap), Open: env.open,
	})
	if err != nil {
		s.gha.Errorf("%s", err.Error())
		return exit(ExitUsage, err)
	}
	s.res = res
	sarifPath := in.SARIFFile
	if !filepath.IsAbs(sarifPath) {
		sarifPath = filepath.Join(s.workspace, sarifPath)
	}
	if err := writeSARIF(s.workspace, sarifPath, res.SARIF); err != nil {
		s.gha.Errorf("%s", err.Error())
		return exit(ExitUsage, err)
	}
	printProblems(env, res)
	printTable(env.Stderr, res)
	for _, m := range unreadInputs(res) {
		s.gha.Errorf("%s", "could not read "+m)
	}
	for _, w := range res.Warnings {
		s.gha.Warningf("%s", w)
	}
	for _, n := range res.Notices {
		s.gha.Noticef("%s", n)
	}
	return nil
}

// consumer is tap as collect's Consumer: nil when there is none.
func consumer(tap *friction.Tap) collect.Consumer {
	if tap == nil {
		return nil
	}
	return tap
}

// unreadInputs are the inputs that could not be read: those missing, then files that could not
// be read, in a new slice.
func unreadInputs(res *collect.Result) []string {
	return append(append(append([]string(nil), res.Missing...), res.Files.Unreadable...), res.Unrecognised...)
}

// stepDiff reads the change's diff once, for anchoring events (session-anchor) and filtering.
func stepDiff(ctx context.Context, s *actionState) error {
	s.diff = changeDiff(ctx, s.gha, s.ghc, s.in, s.workspace)
	return nil
}

// stepFilter finds which findings the change touches (diff-filter).
func stepFilter(ctx context.Context, s *actionState) error {
	s.onChange, s.filter = changeFilter(ctx, s.gha, s.ghc, s.in, s.res, s.diff)
	return nil
}

// fails is the test of which findings decide exit status 1.
func (s *actionState) fails(f *findings.Finding) bool { return collect.Fails(s.in.FailOn, f) }

// stepAnnotate writes the annotations: every failing finding, then the rest the diff keeps.
func stepAnnotate(_ context.Context, s *actionState) error {
	annotate.Write(s.env.actionsLog().Commands(), s.res.Findings, annotate.Options{
		Max: s.in.MaxAnnotations, SARIFFile: s.in.SARIFFile, Fails: s.fails, Shown: s.onChange, Partial: len(s.res.LeftOut) > 0})
	return nil
}

// stepUpload uploads the SARIF to code scanning when the inputs and the run allow it.
func stepUpload(ctx context.Context, s *actionState) error {
	s.up = uploadFromAction(ctx, s.env, s.gha, s.ghc, s.in, s.res, s.start)
	return nil
}

// stepSummary appends the job summary.
func stepSummary(_ context.Context, s *actionState) error {
	p := s.env.Getenv("GITHUB_STEP_SUMMARY")
	if !s.in.Summary || p == "" {
		return nil
	}
	md := jobSummary(s.env, s.tap, s.res, summary.Input{
		ServerURL: s.ghc.ServerURL, Repo: s.ghc.Repository, SHA: s.up.sha,
		SARIFFile: s.in.SARIFFile, Upload: s.up.line, Fails: s.fails, OnChange: s.onChange, Filter: s.filter,
	}, s.perms)
	if err := ghenv.AppendFile(p, md); err != nil {
		s.gha.Warningf("%s", "job summary: "+err.Error())
	}
	return nil
}

// stepOutputs sets the step's outputs.
func stepOutputs(_ context.Context, s *actionState) error {
	p := s.env.Getenv("GITHUB_OUTPUT")
	if p == "" {
		return nil
	}
	c := s.res.Counts
	outs := []ghenv.Output{
		{Name: "sarif-file", Value: s.in.SARIFFile},
		{Name: "findings", Value: strconv.Itoa(c.Findings)},
		{Name: "blocks", Value: strconv.Itoa(c.Blocks)},
		{Name: "repairs", Value: strconv.Itoa(c.Repairs)},
		{Name: "steers", Value: strconv.Itoa(c.Steers)},
		{Name: "contract-findings", Value: strconv.Itoa(c.Contract)},
		{Name: "sarif-id", Value: s.up.id},
		{Name: "uploaded", Value: strconv.FormatBool(s.up.id != "")},
	}
	if err := ghenv.WriteOutputs(p, outs, nil); err != nil {
		s.gha.Errorf("%s", "outputs: "+err.Error())
		return exit(ExitUsage, err)
	}
	return nil
}

// writeSARIF writes the SARIF log, readable by later steps (the container runs as root, later
// steps as the runner user), never through a link planted in the workspace (safewrite).
func writeSARIF(workspace, path string, data []byte) error {
	return safewrite.WriteFile(workspace, path, data)
}

func outcomeNames(list []collect.Outcome) []string {
	var out []string
	for _, o := range list {
		out = append(out, string(o))
	}
	return out
}

// uploadResult is what the action's upload step did.
type uploadResult struct {
	id    string // SARIF id when uploaded
	sha   string // commit the results belong to (for links)
	line  string // one line for the summary
	fatal error  // an upload that upload: true required and that failed
}

// uploadFromAction uploads when the inputs and the run allow it. With upload: auto every failure
// is a warning; with upload: true it fails the step (exit 2) after all outputs are written.
func uploadFromAction(ctx context.Context, env *Env, gha *githubactions.Action, ghc *githubactions.GitHubContext,
	in actionInputs, res *collect.Result, start time.Time) uploadResult {
	head, _ := ghenv.ReadHEAD(res.Root)
	var prp *ghenv.PullRequest
	pr, isPR := ghenv.PullRequestOf(ghc.Event)
	if isPR {
		prp = &pr
	}
	target := ghenv.UploadTarget(ghc.Ref, ghc.SHA, head, prp)
	if in.Ref != "" {
		target = ghenv.Target{Ref: in.Ref, SHA: in.SHA, Why: "the ref and sha inputs"}
	}
	r := uploadResult{sha: target.SHA}
	if r.sha == "" {
		r.sha = head
	}
	skip := func(why string) uploadResult {
		r.line = "not uploaded: " + why + "."
		if in.Upload == "true" {
			r.fatal = fmt.Errorf("upload: true, but %s", why)
			gha.Errorf("%s", r.fatal.Error())
		} else {
			gha.Noticef("%s", "SARIF not uploaded to code scanning: "+why+"; findings are in the annotations, the job summary and "+in.SARIFFile+".")
		}
		return r
	}
	switch {
	case in.Upload == "false":
		r.line = "not uploaded (upload: false)."
		return r
	case withheld(res) != "":
		// Said whatever upload is: an analysis that misses inputs would close their alerts.
		why := withheld(res) + ": an analysis without the inputs would close their alerts"
		fmt.Fprintf(env.Stderr, "agc-sarif: nothing uploaded to code scanning: %s\n", why)
		return skip(why)
	case in.Token == "":
		return skip("no token")
	case ghc.Repository == "" || ghc.SHA == "" || ghc.Ref == "":
		return skip("GITHUB_REPOSITORY, GITHUB_SHA or GITHUB_REF is not set (not running in GitHub Actions?)")
	case isPR && pr.Fork && in.Upload == "auto":
		return skip("this pull request comes from a fork, whose token cannot write security events")
	case len(res.SARIF) == 0:
		return skip("no SARIF was produced")
	}
	owner, repo := ghc.Repo()
	if target.Why != "" {
		fmt.Fprintf(env.Stderr, "agc-sarif: uploading to %s at %s: %s\n", target.Ref, target.SHA, target.Why)
	}
	wait := time.Duration(0)
	if in.Wait {
		wait = actionWaitLimit
	}
	rc, st, err := uploadAndWait(ctx, env, upload.Options{APIURL: ghc.APIURL, Token: in.Token}, upload.Request{
		Owner: owner, Repo: repo, Ref: target.Ref, SHA: target.SHA, SARIF: res.SARIF,
		CheckoutURI: ghenv.CheckoutURI(res.Root), StartedAt: start, ToolName: "agc-sarif",
	}, wait)
	if rc != nil {
		r.id = rc.ID
	}
	switch {
	case err == nil && st != nil:
		r.line = fmt.Sprintf("uploaded to %s, SARIF id %s, processing %s.", target.Ref, rc.ID, st.ProcessingStatus)
	case err == nil:
		r.line = fmt.Sprintf("uploaded to %s, SARIF id %s (not waiting for processing).", target.Ref, rc.ID)
	case upload.IsKind(err, upload.Timeout):
		r.line = fmt.Sprintf("uploaded to %s, SARIF id %s, still processing.", target.Ref, rc.ID)
		gha.Warningf("%s", err.Error())
	default:
		r.line = "upload failed: " + err.Error()
		if in.Upload == "true" {
			r.fatal = err
			gha.Errorf("%s", "code scanning upload failed: "+err.Error())
		} else {
			gha.Warningf("%s", "code scanning upload failed, continuing (upload: auto): "+err.Error())
		}
	}
	return r
}

// withheld is why nothing on GitHub may change from res (no upload, no review, nothing
// minimised), or "" when it may. An analysis missing an input that could not be read would close
// that input's alerts; one from no input at all (a paths typo, a glob or folder matching nothing)
// would close every alert of its category. Inputs that were read and hold no findings are an
// analysis like any other: its fixed alerts close.
func withheld(res *collect.Result) string {
	switch {
	case res.Unreadable():
		return "an input named could not be read"
	case res.NothingRead():
		return "no input file was read (check the paths: a folder or glob matching no file reads nothing)"
	}
	return ""
}

// uploadAndWait uploads a SARIF log and, when wait > 0, waits up to wait for processing. The
// receipt is returned whenever GitHub accepted the upload, even when waiting failed.
func uploadAndWait(ctx context.Context, env *Env, opts upload.Options, req upload.Request, wait time.Duration) (*upload.Receipt, *upload.Status, error) {
	opts.Logf = func(format string, args ...any) { fmt.Fprintf(env.Stderr, "agc-sarif: "+format+"\n", args...) }
	c, err := upload.New(opts)
	if err != nil {
		return nil, nil, err
	}
	rc, err := c.Upload(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(env.Stderr, "agc-sarif: uploaded SARIF to %s at %s: id %s\n", req.Ref, req.SHA, rc.ID)
	if wait <= 0 {
		return rc, nil, nil
	}
	st, err := c.Wait(ctx, req.Owner, req.Repo, rc.ID, wait)
	return rc, st, err
}

// safeWriter drops write errors, so that go-githubactions (which panics when its writer fails)
// cannot crash the action when stdout is closed.
type safeWriter struct {
	w interface{ Write([]byte) (int, error) }
}

func (s safeWriter) Write(p []byte) (int, error) {
	s.w.Write(p) //nolint:errcheck // workflow commands are best effort
	return len(p), nil
}
