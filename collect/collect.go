package collect

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// Config is what one collection needs; command and action fill it from flags or INPUT_*.
type Config struct {
	Paths               []string      // files, folders and globs, relative to Dir
	Judgments           []string      // files, folders and globs of reviewing agents' outputs (--judgment): read fail-closed
	Format              inputs.Format // "" or auto: detect per file
	Root                string        // repository root; "" → git top level, else GITHUB_WORKSPACE, else Dir
	Category            string        // runAutomationDetails.id; "" → workflow:job/ in Actions, else agc/
	Matrix              string        // the job's matrix as JSON (toJSON(matrix)), for the default category
	IncludeUnstructured bool          // report hook decisions that carry no AGC response
	Redact              bool          // redact secrets before any output
	FailOn              []Outcome     // outcomes that make the run fail
	Levels              Levels        // --level overrides of the output level per verdict
	MaxRecord           int           // largest record parsed whole (0 → inputs.DefaultMaxRecord)
	Jobs                int           // files, or chunks of one big file, read at once (0 → number of CPUs)
	ChunkSize           int64         // least bytes of a chunk of a file read in parallel (0 → inputs.DefaultChunkSize)
	MaxGroups           int           // distinct results kept while reading (0 → MaxGroups)
	Dir                 string        // working folder
	Getenv              func(string) string
	Stderr              io.Writer // progress and problems; nil → discarded
	Version             string    // tool version for the SARIF driver
	Now                 func() time.Time
	// Base is the revision the change is diffed against with git (--base); "" and no Diff: no
	// base (a push, a local run), and events keep today's anchors.
	Base string
	// Diff is the change's diff when the caller already has it (the action reads a pull
	// request's from the API); it wins over Base.
	Diff *difffilter.Diff
	// Consumer, when set, reads the same pass as the run: every tool call and every finding, the
	// hook decisions without an AGC response among them, redacted, as they are read (the friction
	// ladder).
	Consumer Consumer
	// Open opens an input file to read (nil: os.Open); a test counts the opens.
	Open func(name string) (*os.File, error)
	// SessionAnchor is where events that touched no file go when there is a base: beside their
	// session's edit ("edit", the default) or at the hook's settings line ("config").
	SessionAnchor anchor.SessionMode
	// IfNoFilesFound is what a glob or folder that matches no file means: warn (""), error or
	// ignore (NoFilesWarn, …).
	IfNoFilesFound string
	// Stdin is read for the argument "-".
	Stdin io.Reader

	maxWaiting int // events that may wait for the sessions' edits (0: maxWaiting); tests lower it
}

// Result is everything one collection produced.
type Result struct {
	Findings []findings.Finding // final: anchored, redacted, merged; heaviest first
	Set      *findings.Set      // counts, skips and problems of the reading
	SARIF    []byte             // the SARIF log
	LeftOut  []string           // what was dropped to stay inside GitHub's limits
	Root     string             // the repository root used
	// RootGuessed says no repository root was found: the working folder stands in for it.
	RootGuessed bool
	Category    string
	Files       readStats
	Missing     []string  // arguments that matched nothing or could not be read
	Failed      []Outcome // fail-on outcomes that were found
	Warnings    []string  // named folders in which nothing was read (a likely wrong path)
	// Unrecognised are the files named explicitly in which nothing was recognised (exit 2).
	Unrecognised []string
	// Notices are what is said but changes nothing: named files that are empty.
	Notices []string
	Notes   []string // how the inputs were read, when it was not once (a second pass past the waiting bound)
	Counts  Counts
	Diff    *difffilter.Diff // the change's diff used for anchoring; nil without a base
	// Calls are the tool calls that met a hook, each once however many records tell of it, in
	// time order (the call model: findings.CallLedger); CallsDropped those past its bound.
	Calls        []findings.SessionCall
	CallsDropped int
}

// Counts are totals over the final findings (counting merged repeats once each).
type Counts struct {
	Findings, Blocks, JudgmentBlocks, Repairs, Steers, Contract, ContractErrors int
}

// Unreadable reports whether some named input could not be read at all (exit status 2).
func (r *Result) Unreadable() bool {
	return len(r.Missing) > 0 || len(r.Files.Unreadable) > 0 || len(r.Unrecognised) > 0
}

// NothingRead reports whether no input file was read: every path named matched no file, or only
// files no reader recognised, or could not be read. An analysis of it says nothing of the change,
// so nothing is uploaded or posted from it.
func (r *Result) NothingRead() bool { return r.Files.Read == 0 && r.Files.Empty == 0 }

// Run collects the inputs named in cfg and builds the SARIF log. It returns an error only for a
// configuration that cannot work (no root, bad category); unreadable inputs are in the Result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.NumCPU()
	}
	start := cfg.Now()
	root, found, err := findRoot(ctx, cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{Root: root, RootGuessed: !found, Category: category(cfg)}
	if !found {
		res.Notices = append(res.Notices, noRootNotice)
	}
	stdin, cleanup, err := spoolStdin(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	ex := expandFor(cfg, stdin)
	empty := dropEmpty(&ex)
	res.Notices = append(res.Notices, empty...)
	var noFileWarns []string
	res.Missing, noFileWarns = noFiles(cfg.IfNoFilesFound, ex)
	res.Missing = append(ex.Missing, res.Missing...)
	if res.Diff, err = changeDiff(ctx, cfg, root); err != nil {
		return nil, err
	}
	// One read into one sink (sink.go), which anchors and redacts every finding as it is read
	// and hands the pass to cfg.Consumer too.
	snk, err := newSink(cfg, res, ex.Files)
	if err != nil {
		return nil, err
	}
	opts := inputs.Options{Registry: runtimes.Inputs(), IncludeUnstructured: cfg.IncludeUnstructured || cfg.Consumer != nil, MaxRecord: cfg.MaxRecord, Calls: cfg.Consumer != nil}
	par := parallel{jobs: cfg.Jobs, chunkSize: cfg.ChunkSize, open: cfg.Open}
	res.Set, res.Files, res.Notes = snk.read(ctx, opts, func(ctx context.Context, opts inputs.Options) (*findings.Set, readStats) {
		return readAll(ctx, ex.Files, cfg.Format, opts, par, aggregating(bound(cfg)), snk.merged)
	})
	res.Files.Empty = len(empty)
	res.Warnings = append(noFileWarns, folderWarnings(ex, res.Files.read)...)
	res.Unrecognised = unrecognisedNamed(ex, res.Files.said(), res.Set)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := finish(ctx, cfg, res, start, snk); err != nil {
		return nil, err
	}
	res.Calls, res.CallsDropped = snk.ledger.calls()
	res.Counts = count(res.Findings)
	res.Failed = failedAll(cfg, res)
	return res, nil
}

// changeDiff is the diff of the change: the caller's, else git's against cfg.Base, else nil.
func changeDiff(ctx context.Context, cfg Config, root string) (*difffilter.Diff, error) {
	if cfg.Diff != nil || cfg.Base == "" {
		return cfg.Diff, nil
	}
	d, err := difffilter.Load(ctx, root, cfg.Base)
	if err != nil {
		return nil, fmt.Errorf("--base %s: %w", cfg.Base, err)
	}
	return d, nil
}

// FindRoot is the repository root as collect picks it (findRoot), for commands that read no
// inputs but place results: cfg.Root, cfg.Dir and cfg.Getenv are what it reads.
func FindRoot(ctx context.Context, cfg Config) (string, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	root, _, err := findRoot(ctx, cfg)
	return root, err
}

// noRootNotice is said once when no repository root was found.
const noRootNotice = "no repository root: the working folder is not in a git repository and neither --root nor GITHUB_WORKSPACE is set, so the working folder is taken as the root; paths are shown relative to it, and results are placed only on files in it"

// findRoot picks the repository root: --root, else the git top level of Dir, else
// GITHUB_WORKSPACE, else Dir (found false: no root was found, Dir stands in). Symlinks are
// resolved so that paths compare.
func findRoot(ctx context.Context, cfg Config) (string, bool, error) {
	found := true
	root := cfg.Root
	if root != "" && !filepath.IsAbs(root) {
		root = filepath.Join(cfg.Dir, root)
	}
	if root == "" {
		cmd := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel")
		cmd.Dir = cfg.Dir
		if out, err := cmd.Output(); err == nil {
			root = strings.TrimSpace(string(out))
		}
	}
	if root == "" {
		root = cfg.Getenv("GITHUB_WORKSPACE")
	}
	if root == "" {
		root, found = cfg.Dir, false
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", false, fmt.Errorf("repository root %s: %w", root, err)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	} else {
		return "", false, fmt.Errorf("repository root %s: %w", root, unwrapPathError(err))
	}
	return abs, found, nil
}

// category is the runAutomationDetails.id: --category (the action's category input), else
// "agc:<workflow file>:<job>/" inside GitHub Actions followed by the job's matrix values
// (cfg.Matrix, as codeql-action's computeAutomationID does), else "agc/". An id without "/" gets
// one appended, since GitHub reads the category as everything before the last "/".
func category(cfg Config) string {
	c := cfg.Category
	if c == "" {
		wf := cfg.Getenv("GITHUB_WORKFLOW_REF") // owner/repo/.github/workflows/x.yml@refs/heads/main
		job := cfg.Getenv("GITHUB_JOB")
		if i := strings.Index(wf, "/.github/"); i >= 0 && job != "" {
			wf = wf[i+1:]
			if j := strings.LastIndex(wf, "@"); j >= 0 {
				wf = wf[:j]
			}
			c = "agc:" + wf + ":" + job + "/" + matrixSuffix(cfg.Matrix)
		} else {
			// No workflow path (a local run, act, an old GHES): the matrix still tells legs
			// apart, so that one leg's upload does not replace another's.
			c = "agc/" + matrixSuffix(cfg.Matrix)
		}
	}
	if !strings.Contains(c, "/") {
		c += "/"
	}
	return c
}

func count(fs []findings.Finding) Counts {
	var c Counts
	for _, f := range fs {
		c.Findings++
		switch {
		case f.Kind == findings.Contract:
			c.Contract++
			if f.Severity == findings.Error {
				c.ContractErrors++
			}
		case f.Verdict == gates.Block:
			c.Blocks++
			if f.Kind == findings.JudgmentGate {
				c.JudgmentBlocks++
			}
		case f.Verdict == gates.Repaired:
			c.Repairs++
		case f.Verdict == gates.Steer:
			c.Steers++
		}
	}
	return c
}
