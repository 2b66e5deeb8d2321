package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"
	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
	"github.com/agc-sarif/agc-sarif/internal/visible"
	"github.com/agc-sarif/agc-sarif/review"
	"github.com/agc-sarif/agc-sarif/upload"
)

// reviewDoc is the page that explains the review, named in notices.
const reviewDoc = "docs/review.md"

// stepReview posts the pull-request review (input pr-review) and adds its line to the job
// summary. Nothing it meets changes the exit status.
func stepReview(ctx context.Context, s *actionState) error {
	if s.in.PRReview == review.Off {
		return nil
	}
	line := actionReview(ctx, s)
	fmt.Fprintf(s.env.Stderr, "agc-sarif: pull-request review: %s\n", line)
	if p := s.env.Getenv("GITHUB_STEP_SUMMARY"); s.in.Summary && p != "" {
		if err := ghenv.AppendFile(p, "\n### Pull-request review\n\n"+line+"\n"); err != nil {
			s.gha.Warningf("%s", "job summary: "+err.Error())
		}
	}
	return nil
}

// actionReview posts the review of the event's pull request and returns one line on what it did;
// when it cannot (not a pull request, a fork, no token, GitHub refused) it gives one notice.
func actionReview(ctx context.Context, s *actionState) string {
	notice := func(why string) string {
		line := "not posted: " + why + "; the findings are in the annotations and the job summary."
		s.gha.Noticef("%s", "pr-review: "+line+" See "+reviewDoc+".")
		return line
	}
	if why := withheld(s.res); why != "" {
		return notice(why + " (no comment posted or minimised)")
	}
	owner, repo := s.ghc.Repo()
	pr, ok := ghenv.PullRequestOf(s.ghc.Event)
	fromInputs := false
	if n := pullNumber(s.in.Ref); !ok && n > 0 {
		// A workflow_run job on the base repository's side names the fork's pull request with
		// the ref and sha inputs: its token may write.
		pr, ok, fromInputs = ghenv.PullRequest{Number: n, HeadSHA: s.in.SHA}, true, true
	}
	switch {
	case !ok:
		return notice("the run's event is not a pull request, and the ref input names none")
	case pr.Fork && s.ghc.EventName != "pull_request_target": // pull_request_target's token may write
		return notice("this pull request comes from a fork, whose token cannot write reviews (post it from a workflow_run job)")
	case s.in.Token == "":
		return notice("no token")
	case owner == "" || !ghenv.IsSHA(pr.HeadSHA):
		return notice("GITHUB_REPOSITORY or the pull request's head commit is not known")
	}
	d := s.diff.d
	if d == nil {
		var err error
		if fromInputs {
			d, err = pullDiff(ctx, s, owner, repo, pr.Number)
		} else {
			d, _, err = loadDiff(ctx, s.ghc, s.in, s.res.Root)
		}
		if err != nil || d == nil {
			return notice(fmt.Sprintf("the pull request's diff could not be read (%v)", err))
		}
	}
	c, err := review.NewClient(review.ClientOptions{APIURL: s.ghc.APIURL, GraphQLURL: s.env.Getenv("GITHUB_GRAPHQL_URL"),
		Token: s.in.Token, UserAgent: "agc-sarif/" + Version})
	if err != nil {
		return notice(err.Error())
	}
	items := review.FromFindings(s.res.Findings, s.fails)
	t := review.Target{Owner: owner, Repo: repo, Number: pr.Number, CommitID: pr.HeadSHA}
	res, err := review.Run(ctx, c, t, items, review.Options{Mode: s.in.PRReview, Diff: d,
		ReadFile: repoReader(s.res.Root), Redactor: collect.NewRedactor(true)})
	switch {
	case review.IsRefused(err):
		return notice("GitHub refused it (" + err.Error() + "; the job needs pull-requests: write)")
	case err != nil:
		s.gha.Warningf("%s", "pr-review: "+err.Error())
		return "failed: " + err.Error() + "."
	}
	return res.Plan.Line(res.ReviewID != 0)
}

// pullRef is a ref input that names a pull request.
var pullRef = lazyre.New(`^refs/pull/([0-9]{1,9})/(head|merge)$`)

// pullNumber is the pull request number a ref names, or 0.
func pullNumber(ref string) int {
	m := pullRef.FindStringSubmatch(ref)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// pullDiff reads a pull request's diff from the API.
func pullDiff(ctx context.Context, s *actionState, owner, repo string, number int) (*difffilter.Diff, error) {
	cl, err := upload.New(upload.Options{APIURL: s.ghc.APIURL, Token: s.in.Token, UserAgent: "agc-sarif/" + Version})
	if err != nil {
		return nil, err
	}
	text, err := cl.PullRequestDiff(ctx, owner, repo, number)
	if err != nil {
		return nil, err
	}
	return difffilter.Parse(strings.NewReader(text))
}

// repoReader reads repository files under root, never outside it.
func repoReader(root string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		r, err := os.OpenRoot(root)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return r.ReadFile(filepath.FromSlash(p))
	}
}

// reviewCommand is `agc-sarif review`: the action's pr-review for other CI systems and local use.
func reviewCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "review",
		Usage:     "post a pull-request review with suggested changes from a SARIF file or from inputs",
		ArgsUsage: "[PATH...]",
		Description: "Reads findings from --sarif FILE, or collects them from PATHs and --judgment as collect does,\n" +
			"and posts one review (event COMMENT) on the pull request: a suggested change for each finding\n" +
			"whose repair edits lines of the diff, and with --mode comments the other failing findings on\n" +
			"the diff's lines. Comments already there (found by their finding key) are not posted again;\n" +
			"its own comments whose finding is gone are minimised as outdated. Defaults come from\n" +
			"GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL, GITHUB_GRAPHQL_URL and GITHUB_TOKEN\n" +
			"(pull-requests: write). GitHub refusing (a fork's token, 403, 404) or no token is one line on\n" +
			"stderr and exit status 0. See " + reviewDoc + ".",
		Flags: append(collectFlags(),
			&cli.StringFlag{Name: "sarif", Usage: "read findings from this SARIF `FILE` (agc-sarif's) instead of collecting"},
			&cli.StringFlag{Name: "mode", Value: string(review.Suggestions), Usage: "suggestions (suggested changes only) or comments (also the other failing findings)"},
			&cli.StringFlag{Name: "repo", Usage: "`OWNER/NAME` (default: $GITHUB_REPOSITORY)"},
			&cli.IntFlag{Name: "pr", Usage: "pull request `NUMBER` (default: the event's)"},
			&cli.StringFlag{Name: "commit", Usage: "40-hex head `SHA` of the pull request (default: the event's)"},
			&cli.StringFlag{Name: "diff", Usage: "the pull request's unified diff as a `FILE` (default: read from the API)"},
			&cli.StringFlag{Name: "token", Usage: "token with pull-requests: write (default: $GITHUB_TOKEN; prefer the variable, flags show in ps)"},
			&cli.StringFlag{Name: "api-url", Usage: "API base `URL` (default: $GITHUB_API_URL, else https://api.github.com)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the review request as JSON on stdout instead of posting it (no comments are listed or minimised)"},
		),
		Action: func(c *cli.Context) error { return runReview(c, env) },
	}
}

// reviewArgs are the review command's target and settings, read and checked.
type reviewArgs struct {
	t          review.Target
	mode       review.Mode
	token, api string
	root       string
}

func readReviewArgs(c *cli.Context, env *Env) (reviewArgs, error) {
	get := func(flag, name string) string {
		if v := c.String(flag); v != "" {
			return v
		}
		return env.Getenv(name)
	}
	var a reviewArgs
	var err error
	if a.mode, err = review.ParseMode(c.String("mode")); err != nil || a.mode == review.Off {
		return a, usageErrorf("review: --mode %q: want suggestions or comments", c.String("mode"))
	}
	owner, repo, ok := strings.Cut(get("repo", "GITHUB_REPOSITORY"), "/")
	if !ok && !c.Bool("dry-run") {
		return a, usageErrorf("review: --repo or GITHUB_REPOSITORY must be owner/name")
	}
	a.t = review.Target{Owner: owner, Repo: repo, Number: c.Int("pr"), CommitID: c.String("commit")}
	if ghc, _ := githubactions.New(githubactions.WithGetenv(env.Getenv)).Context(); ghc != nil {
		if pr, ok := ghenv.PullRequestOf(ghc.Event); ok {
			if a.t.Number == 0 {
				a.t.Number = pr.Number
			}
			if a.t.CommitID == "" {
				a.t.CommitID = pr.HeadSHA
			}
		}
	}
	if a.t.Number <= 0 && !c.Bool("dry-run") {
		return a, usageErrorf("review: --pr: name the pull request (or run on a pull_request event)")
	}
	if !ghenv.IsSHA(a.t.CommitID) {
		return a, usageErrorf("review: --commit %q: want the pull request's 40-hex head commit", a.t.CommitID)
	}
	a.token, a.api = get("token", "GITHUB_TOKEN"), get("api-url", "GITHUB_API_URL")
	a.root = c.String("root")
	if a.root == "" {
		a.root = env.Dir
	} else if !filepath.IsAbs(a.root) {
		a.root = filepath.Join(env.Dir, a.root)
	}
	return a, nil
}

func runReview(c *cli.Context, env *Env) error {
	a, err := readReviewArgs(c, env)
	if err != nil {
		return err
	}
	items, status, why, err := reviewItems(c, env)
	if err != nil {
		return err
	}
	if why != "" { // before the diff is fetched: nothing is asked of GitHub either
		fmt.Fprintf(env.Stderr, "agc-sarif: review not posted, no comment minimised: %s\n", why)
		return status
	}
	d, err := reviewDiff(c, env, a)
	if err != nil {
		return exit(ExitUsage, err)
	}
	opts := review.Options{Mode: a.mode, Diff: d, ReadFile: repoReader(a.root), Redactor: collect.NewRedactor(c.Bool("redact"))}
	if c.Bool("dry-run") {
		p := review.Make(items, nil, opts)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(p.Request(a.t.CommitID)); err != nil {
			return exit(ExitUsage, err)
		}
		// Hidden characters (a path's bidi override) show as escapes, as on stderr.
		if _, err := env.Stdout.Write(visible.JSON(buf.Bytes())); err != nil {
			return exit(ExitUsage, err)
		}
		line := strings.Replace(p.Line(len(p.Comments) > 0), "posted", "would post", 1)
		fmt.Fprintf(env.Stderr, "agc-sarif: review (dry run, nothing sent): %s\n", line)
		return status
	}
	cl, err := review.NewClient(review.ClientOptions{APIURL: a.api, GraphQLURL: env.Getenv("GITHUB_GRAPHQL_URL"), Token: a.token,
		UserAgent: "agc-sarif/" + Version})
	if err == nil {
		var res review.Result
		res, err = review.Run(c.Context, cl, a.t, items, opts)
		if err == nil {
			fmt.Fprintf(env.Stderr, "agc-sarif: review: %s\n", res.Plan.Line(res.ReviewID != 0))
			return status
		}
	}
	if review.IsRefused(err) {
		fmt.Fprintf(env.Stderr, "agc-sarif: review not posted: %v (the token needs pull-requests: write; a fork's cannot: see %s)\n", err, reviewDoc)
		return status
	}
	return exit(ExitUsage, err)
}

// reviewItems reads the findings: from --sarif, or by collecting the inputs (whose exit status,
// by --fail-on's default, is returned to be the command's, with why no review may come of them:
// see withheld).
func reviewItems(c *cli.Context, env *Env) ([]review.Item, error, string, error) {
	if p := c.String("sarif"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(env.Dir, p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, "", exit(ExitUsage, fmt.Errorf("could not read %s: %w", c.String("sarif"), err))
		}
		items, err := review.FromSARIF(data)
		if err != nil {
			return nil, nil, "", exit(ExitUsage, fmt.Errorf("%s: %w", c.String("sarif"), err))
		}
		return items, nil, "", nil
	}
	cfg, err := configFrom(c, env)
	if err != nil {
		return nil, nil, "", err
	}
	cfg.FailOn, _ = collect.ParseFailOn(collect.DefaultFailOn)
	res, err := collect.Run(c.Context, cfg)
	if err != nil {
		return nil, nil, "", exit(ExitUsage, err)
	}
	printProblems(env, res)
	fails := func(f *findings.Finding) bool { return collect.Fails(cfg.FailOn, f) }
	return review.FromFindings(res.Findings, fails), statusOf(env, res, cfg.FailOn), withheld(res), nil
}

// reviewDiff reads the pull request's diff from --diff or from the API.
func reviewDiff(c *cli.Context, env *Env, a reviewArgs) (*difffilter.Diff, error) {
	if p := c.String("diff"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(env.Dir, p)
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("could not read %s: %w", c.String("diff"), err)
		}
		defer f.Close()
		d, err := difffilter.Parse(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.String("diff"), err)
		}
		return d, nil
	}
	if a.token == "" {
		return nil, errors.New("review: no --diff and no token to read the pull request's diff from the API")
	}
	cl, err := upload.New(upload.Options{APIURL: a.api, Token: a.token, UserAgent: "agc-sarif/" + Version})
	if err != nil {
		return nil, err
	}
	text, err := cl.PullRequestDiff(c.Context, a.t.Owner, a.t.Repo, a.t.Number)
	if err != nil {
		return nil, err
	}
	return difffilter.Parse(strings.NewReader(text))
}
