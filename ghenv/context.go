package ghenv

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// PullRequest is what a pull_request or pull_request_target event tells of its pull request.
type PullRequest struct {
	Number   int
	HeadSHA  string
	HeadRepo string // owner/name of the head repository ("" when it was deleted)
	BaseRepo string // owner/name of the base repository
	// Fork says the head lives in another repository than the base, so GITHUB_TOKEN is read-only.
	Fork bool
}

// PullRequestOf reads the pull request of an event payload; ok is false when it holds none.
func PullRequestOf(event map[string]any) (pr PullRequest, ok bool) {
	p, ok := event["pull_request"].(map[string]any)
	if !ok {
		return PullRequest{}, false
	}
	if n, ok := p["number"].(float64); ok && n > 0 && n < 1<<31 {
		pr.Number = int(n)
	} else if n, ok := event["number"].(float64); ok && n > 0 && n < 1<<31 {
		pr.Number = int(n)
	}
	head, _ := p["head"].(map[string]any)
	base, _ := p["base"].(map[string]any)
	pr.HeadSHA, _ = head["sha"].(string)
	headRepo, _ := head["repo"].(map[string]any)
	baseRepo, _ := base["repo"].(map[string]any)
	pr.HeadRepo, _ = headRepo["full_name"].(string)
	pr.BaseRepo, _ = baseRepo["full_name"].(string)
	switch {
	case headRepo == nil:
		pr.Fork = true // the head repository is gone: treat as foreign
	case pr.HeadRepo != "" && pr.BaseRepo != "":
		pr.Fork = !strings.EqualFold(pr.HeadRepo, pr.BaseRepo)
	default:
		pr.Fork, _ = headRepo["fork"].(bool)
	}
	return pr, true
}

var (
	hexSHA   = lazyre.New(`^[0-9a-fA-F]{40}$`)
	mergeRef = lazyre.New(`^refs/pull/([0-9]+)/merge$`)
	refName  = lazyre.New(`^refs/[A-Za-z0-9._/-]+$`)
	pullRef  = lazyre.New(`^refs/pull/[0-9]+/(merge|head)$`)
)

// IsSHA reports whether s is a full 40-hex commit id.
func IsSHA(s string) bool { return hexSHA.MatchString(s) }

// Target is the ref and commit an upload is filed under.
type Target struct {
	Ref string
	SHA string
	// Why explains a rewrite of the ref ("" when GITHUB_REF and GITHUB_SHA were used as they are).
	Why string
}

// UploadTarget chooses the ref and commit of an upload the way codeql-action does: GITHUB_REF and
// GITHUB_SHA, except that when the checked-out HEAD is another commit than GITHUB_SHA and is the
// pull request's head — GITHUB_REF is refs/pull/N/merge, or HEAD is the head commit the event
// names (pull_request_target) — it files under refs/pull/N/head at HEAD. pr may be nil.
func UploadTarget(ref, sha, head string, pr *PullRequest) Target {
	t := Target{Ref: ref, SHA: sha}
	if !IsSHA(head) || strings.EqualFold(head, sha) {
		return t
	}
	n := ""
	if m := mergeRef.FindStringSubmatch(ref); m != nil {
		n = m[1]
	} else if pr != nil && pr.Number > 0 && strings.EqualFold(head, pr.HeadSHA) {
		n = strconv.Itoa(pr.Number)
	}
	if n != "" {
		t = Target{Ref: "refs/pull/" + n + "/head", SHA: strings.ToLower(head),
			Why: fmt.Sprintf("HEAD %s is not %s, so the pull request's head was analysed", short(head), short(sha))}
	}
	return t
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// CheckRef reports whether ref is a full ref code scanning accepts: refs/heads/…, refs/tags/…,
// refs/pull/N/merge or refs/pull/N/head.
func CheckRef(ref string) error {
	switch {
	case strings.HasPrefix(ref, "refs/heads/") && len(ref) > len("refs/heads/"),
		strings.HasPrefix(ref, "refs/tags/") && len(ref) > len("refs/tags/"),
		pullRef.MatchString(ref):
		return nil
	}
	return fmt.Errorf("ref %q: want refs/heads/<branch>, refs/tags/<tag>, refs/pull/<n>/merge or refs/pull/<n>/head", ref)
}

// maxGitFile bounds what ReadHEAD reads of any one file under .git.
const maxGitFile = 1 << 20

// ReadHEAD returns the commit checked out in the repository at root by reading .git/HEAD (and the
// ref it names, loose or packed) without running git; "" and an error when it cannot tell.
func ReadHEAD(root string) (string, error) {
	gitDir := filepath.Join(root, ".git")
	info, err := os.Stat(gitDir)
	if err != nil {
		return "", fmt.Errorf("could not read HEAD: %w", err)
	}
	if !info.IsDir() {
		// a linked worktree or submodule: ".git" is a file "gitdir: <path>"
		b, err := readSmall(gitDir)
		if err != nil {
			return "", err
		}
		dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return "", fmt.Errorf("%s: not a gitdir file", gitDir)
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		gitDir = dir
	}
	b, err := readSmall(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", err
	}
	head := strings.TrimSpace(string(b))
	if IsSHA(head) {
		return strings.ToLower(head), nil
	}
	ref, ok := strings.CutPrefix(head, "ref: ")
	if !ok || !refName.MatchString(ref) || strings.Contains(ref, "..") {
		return "", fmt.Errorf("%s: HEAD %q is neither a commit nor a ref", gitDir, short(head))
	}
	if b, err := readSmall(filepath.Join(gitDir, filepath.FromSlash(path.Clean(ref)))); err == nil {
		if s := strings.TrimSpace(string(b)); IsSHA(s) {
			return strings.ToLower(s), nil
		}
	}
	f, err := os.Open(filepath.Join(gitDir, "packed-refs"))
	if err != nil {
		return "", fmt.Errorf("%s: ref %s not found", gitDir, ref)
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64<<20))
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		sha, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref && IsSHA(sha) {
			return strings.ToLower(sha), nil
		}
	}
	return "", fmt.Errorf("%s: ref %s not found", gitDir, ref)
}

func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("could not read %q: %w", p, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile))
	if err != nil {
		return nil, fmt.Errorf("could not read %q: %w", p, err)
	}
	return bytes.TrimRight(b, "\x00"), nil
}

// CheckoutURI is the file URI of a folder, as code scanning's checkout_uri wants it.
func CheckoutURI(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}

// BlobURL links to a line of a file at a commit: {server}/{repo}/blob/{sha}/{path}#L{line}. It
// returns "" when server, repo, sha or path is missing or the path leaves the repository.
func BlobURL(server, repo, sha, file string, line int) string {
	if server == "" || repo == "" || !IsSHA(sha) || file == "" {
		return ""
	}
	clean := path.Clean(filepath.ToSlash(file))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || clean == "." {
		return ""
	}
	u, err := url.Parse(strings.TrimRight(server, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	segs := strings.Split(clean, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return ""
	}
	link := u.String() + "/" + url.PathEscape(owner) + "/" + url.PathEscape(name) + "/blob/" + strings.ToLower(sha) + "/" + strings.Join(segs, "/")
	if line > 0 {
		link += "#L" + strconv.Itoa(line)
	}
	return link
}
