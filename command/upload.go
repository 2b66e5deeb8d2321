package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"
	"github.com/urfave/cli/v2"

	"github.com/agc-sarif/agc-sarif/ghenv"
	"github.com/agc-sarif/agc-sarif/upload"
)

// uploadCommand is `agc-sarif upload [flags] FILE`.
func uploadCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "upload",
		Usage:     "upload SARIF to GitHub code scanning and wait for processing",
		ArgsUsage: "FILE",
		Description: "POSTs FILE (gzipped, base64) to /repos/{owner}/{repo}/code-scanning/sarifs and polls until\n" +
			"GitHub has processed it. Defaults come from GITHUB_REPOSITORY, GITHUB_REF, GITHUB_SHA,\n" +
			"GITHUB_API_URL and GITHUB_TOKEN. The token needs security-events: write.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "repo", Usage: "`OWNER/NAME` (default: $GITHUB_REPOSITORY)"},
			&cli.StringFlag{Name: "ref", Usage: "full `REF`: refs/heads/…, refs/tags/…, refs/pull/N/merge or refs/pull/N/head (default: $GITHUB_REF)"},
			&cli.StringFlag{Name: "sha", Usage: "40-hex commit `SHA` the ref points at (default: $GITHUB_SHA)"},
			&cli.StringFlag{Name: "token", Usage: "token with security-events: write (default: $GITHUB_TOKEN; prefer the variable, flags show in ps)"},
			&cli.StringFlag{Name: "api-url", Usage: "API base `URL` (default: $GITHUB_API_URL, else https://api.github.com; GHES: https://HOST/api/v3)"},
			&cli.StringFlag{Name: "checkout", Usage: "checkout folder the SARIF paths are relative to (default: $GITHUB_WORKSPACE, else .)"},
			&cli.DurationFlag{Name: "wait", Value: 3 * time.Minute, Usage: "how long to wait for processing; 0 returns after the upload is accepted"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("upload: name one SARIF file")
			}
			get := func(flag, envName string) string {
				if v := c.String(flag); v != "" {
					return v
				}
				return env.Getenv(envName)
			}
			owner, repo, ok := strings.Cut(get("repo", "GITHUB_REPOSITORY"), "/")
			if !ok {
				return usageErrorf("upload: --repo or GITHUB_REPOSITORY must be owner/name")
			}
			ref, sha := get("ref", "GITHUB_REF"), get("sha", "GITHUB_SHA")
			if (c.String("ref") == "") != (c.String("sha") == "") {
				return usageErrorf("upload: give --ref and --sha together, or neither")
			}
			checkout := get("checkout", "GITHUB_WORKSPACE")
			if checkout == "" {
				checkout = env.Dir
			}
			if abs, err := filepath.Abs(checkout); err == nil {
				checkout = abs
			}
			if c.String("ref") == "" {
				// from the environment: file a checked-out pull request head under refs/pull/N/head
				head, _ := ghenv.ReadHEAD(checkout)
				var pr *ghenv.PullRequest
				if ghc, _ := githubactions.New(githubactions.WithGetenv(env.Getenv)).Context(); ghc != nil {
					if p, ok := ghenv.PullRequestOf(ghc.Event); ok {
						pr = &p
					}
				}
				t := ghenv.UploadTarget(ref, sha, head, pr)
				if t.Why != "" {
					fmt.Fprintf(env.Stderr, "agc-sarif: uploading to %s at %s: %s\n", t.Ref, t.SHA, t.Why)
				}
				ref, sha = t.Ref, t.SHA
			}
			if err := ghenv.CheckRef(ref); err != nil {
				return usageErrorf("upload: %v", err)
			}
			if !ghenv.IsSHA(sha) {
				return usageErrorf("upload: commit %q: want the full 40-hex commit id", sha)
			}
			path := c.Args().First()
			if !filepath.IsAbs(path) {
				path = filepath.Join(env.Dir, path)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return exit(ExitUsage, fmt.Errorf("could not read %s: %w", c.Args().First(), err))
			}
			tool, err := sarifTool(data)
			if err != nil {
				return exit(ExitUsage, fmt.Errorf("%s: %w", c.Args().First(), err))
			}
			rc, st, err := uploadAndWait(c.Context, env, upload.Options{APIURL: get("api-url", "GITHUB_API_URL"), Token: get("token", "GITHUB_TOKEN")},
				upload.Request{Owner: owner, Repo: repo, Ref: ref, SHA: sha, SARIF: data, CheckoutURI: ghenv.CheckoutURI(checkout),
					StartedAt: time.Now(), ToolName: tool}, c.Duration("wait"))
			if err != nil {
				if rc != nil {
					fmt.Fprintf(env.Stdout, "%s\n", rc.ID)
				}
				return exit(ExitUsage, err)
			}
			fmt.Fprintf(env.Stdout, "%s\n", rc.ID)
			if st != nil {
				fmt.Fprintf(env.Stderr, "agc-sarif: processing %s\n", st.ProcessingStatus)
			}
			return nil
		},
	}
}

// sarifTool checks that data is a SARIF 2.1.0 log and returns its first tool's name.
func sarifTool(data []byte) (string, error) {
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return "", fmt.Errorf("not SARIF JSON: %w", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) == 0 {
		return "", fmt.Errorf("not a SARIF 2.1.0 log with runs (version %q, %d runs)", log.Version, len(log.Runs))
	}
	if n := log.Runs[0].Tool.Driver.Name; n != "" {
		return n, nil
	}
	return "agc-sarif", nil
}
