// Package difffilter says which findings a pull request shows: it reads the diff of the change
// (git diff BASE...HEAD) and keeps a finding's line range by reviewdog's filter modes, so the
// annotations and the job summary show what a reviewer of the diff sees.
package difffilter

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Mode is a filter mode, spelled as reviewdog's -filter-mode.
type Mode string

// The filter modes.
const (
	Added       Mode = "added"        // a line of the range was added or changed by the diff
	DiffContext Mode = "diff_context" // a line of the range is inside a hunk (changed lines ±3)
	File        Mode = "file"         // the file was changed by the diff
	NoFilter    Mode = "nofilter"     // everything
)

// ParseMode checks a filter mode name; "" and "default" mean Added, as in reviewdog.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case "", "default":
		return Added, nil
	case Added, DiffContext, File, NoFilter:
		return m, nil
	}
	return "", fmt.Errorf("unknown filter mode %q (want added, diff_context, file or nofilter)", s)
}

// Diff is the new side of a diff: per changed file, its added lines and its hunks.
type Diff struct {
	files map[string]*fileDiff
}

// fileDiff holds one file's added lines (sorted) and hunk ranges on the new side.
type fileDiff struct {
	added []int
	hunks [][2]int // [first, last] new-side line of each hunk with new-side lines
}

// Files lists the changed files (new-side paths, repo-relative), sorted.
func (d *Diff) Files() []string {
	out := make([]string, 0, len(d.files))
	for p := range d.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Has reports whether the diff changes path (new-side, repo-relative): a file the change adds is
// in the commit even where no git index lists it.
func (d *Diff) Has(path string) bool {
	if d == nil {
		return false
	}
	_, ok := d.files[path]
	return ok
}

// Keep reports whether a finding on lines start..end of path (repo-relative; end 0 means start)
// is shown in mode m, with reviewdog's semantics: added keeps it when any line of the range is
// an added line; diff_context when any line of the range lies in a hunk; file when the file is
// in the diff; nofilter always. A nil Diff keeps everything only in nofilter mode.
func (d *Diff) Keep(p string, start, end int, m Mode) bool {
	if m == NoFilter {
		return true
	}
	if d == nil {
		return false
	}
	f, ok := d.files[normalize(p)]
	if !ok {
		return false
	}
	if end < start {
		end = start
	}
	switch m {
	case File:
		return true
	case DiffContext:
		i := sort.Search(len(f.hunks), func(i int) bool { return f.hunks[i][1] >= start })
		return i < len(f.hunks) && f.hunks[i][0] <= end
	case Added, "":
		i := sort.SearchInts(f.added, start)
		return i < len(f.added) && f.added[i] <= end
	}
	return false
}

// FirstAdded returns the first line from start to end of path (repo-relative; end 0 means start)
// that the diff added, and whether there is one.
func (d *Diff) FirstAdded(p string, start, end int) (int, bool) {
	if d == nil {
		return 0, false
	}
	f, ok := d.files[normalize(p)]
	if !ok {
		return 0, false
	}
	if end < start {
		end = start
	}
	i := sort.SearchInts(f.added, start)
	if i < len(f.added) && f.added[i] <= end {
		return f.added[i], true
	}
	return 0, false
}

// InHunk reports whether every line from start to end of path (repo-relative; end 0 means start)
// lies on the new side of one hunk: the lines one pull-request review comment may span.
func (d *Diff) InHunk(p string, start, end int) bool {
	if d == nil || start < 1 {
		return false
	}
	f, ok := d.files[normalize(p)]
	if !ok {
		return false
	}
	if end < start {
		end = start
	}
	i := sort.Search(len(f.hunks), func(i int) bool { return f.hunks[i][1] >= start })
	return i < len(f.hunks) && f.hunks[i][0] <= start && end <= f.hunks[i][1]
}

// normalize makes a path comparable with the diff's: forward slashes, cleaned, no leading "./".
func normalize(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	p = path.Clean(p)
	return strings.TrimPrefix(p, "./")
}

// Load reads the change's diff in root: between the merge base of base and HEAD and HEAD
// (`git diff base...HEAD`), or, when they have no merge base, between base and the work tree. It
// runs git when git is on the PATH, and otherwise reads the repository in-process (go-git), as in
// the action's image, which has no git; there, without a merge base, the diff is base against the
// HEAD commit. See docs/sarif.md ("The change's diff").
func Load(ctx context.Context, root, base string) (*Diff, error) {
	if base == "" || strings.HasPrefix(base, "-") || strings.ContainsAny(base, "\x00\n") {
		return nil, fmt.Errorf("diff base %q is not a revision", base)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return loadInProcess(ctx, root, base)
	}
	rng := base + "...HEAD"
	if err := exec.CommandContext(ctx, "git", "-C", root, "merge-base", base, "HEAD").Run(); err != nil {
		rng = base
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "-c", "core.quotepath=true", "diff",
		"--unified=3", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames",
		"--src-prefix=a/", "--dst-prefix=b/", rng, "--")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, fmt.Errorf("git diff %s in %s: %w: %s", rng, root, err, msg)
		}
		return nil, fmt.Errorf("git diff %s in %s: %w", rng, root, err)
	}
	d, err := Parse(bytes.NewReader(out))
	if err != nil {
		return nil, fmt.Errorf("git diff %s in %s: %w", rng, root, err)
	}
	return d, nil
}

// Parse reads a unified diff as git writes it (a/ and b/ prefixes) and records, per new-side
// file, its added lines and hunks. Deleted files are left out; files changed without hunks
// (binary, mode or rename only) are kept with no lines.
func Parse(r io.Reader) (*Diff, error) {
	d := &Diff{files: map[string]*fileDiff{}}
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		cur      *fileDiff
		gitPath  string // new path from the "diff --git" line or rename/copy lines
		newLine  int    // next new-side line number inside a hunk
		oldLeft  int    // old-side lines left in the hunk
		newLeft  int    // new-side lines left in the hunk
		lineNo   int
		inHeader bool
	)
	startFile := func(p string) {
		if p == "" {
			cur = nil
			return
		}
		p = normalize(p)
		if f, ok := d.files[p]; ok {
			cur = f
			return
		}
		cur = &fileDiff{}
		d.files[p] = cur
	}
	for {
		raw, err := br.ReadBytes('\n')
		if len(raw) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("line %d: %w", lineNo+1, err)
		}
		lineNo++
		line := strings.TrimSuffix(strings.TrimSuffix(string(raw), "\n"), "\r")
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(line, "+"):
				if cur != nil {
					cur.added = append(cur.added, newLine)
				}
				newLine++
				newLeft--
				continue
			case strings.HasPrefix(line, "-"):
				oldLeft--
				continue
			case strings.HasPrefix(line, " "), line == "":
				newLine++
				newLeft--
				oldLeft--
				continue
			case strings.HasPrefix(line, `\`):
				continue
			}
			oldLeft, newLeft = 0, 0 // a hunk cut short: read on as headers
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			inHeader = true
			gitPath = gitHeaderPath(strings.TrimPrefix(line, "diff --git "))
			startFile(gitPath)
		case inHeader && (strings.HasPrefix(line, "rename to ") || strings.HasPrefix(line, "copy to ")):
			_, p, _ := strings.Cut(line, " to ")
			delete(d.files, normalize(gitPath))
			gitPath = unquote(p)
			startFile(gitPath)
		case inHeader && strings.HasPrefix(line, "deleted file mode"):
			delete(d.files, normalize(gitPath))
			cur = nil
		case strings.HasPrefix(line, "--- "):
			// the old side: nothing to record
		case strings.HasPrefix(line, "+++ "):
			p := headerName(strings.TrimPrefix(line, "+++ "))
			if gitPath != "" {
				delete(d.files, normalize(gitPath))
			}
			if p == "/dev/null" {
				cur = nil
				continue
			}
			startFile(strings.TrimPrefix(p, "b/"))
		case strings.HasPrefix(line, "@@ "):
			inHeader = false
			o, n, ns, ok := parseHunk(line)
			if !ok {
				return nil, fmt.Errorf("line %d: malformed hunk header %q", lineNo, line)
			}
			oldLeft, newLeft, newLine = o, n, ns
			if cur != nil && n > 0 {
				cur.hunks = append(cur.hunks, [2]int{ns, ns + n - 1})
			}
		}
	}
	for _, f := range d.files {
		sort.Ints(f.added)
		sort.Slice(f.hunks, func(i, j int) bool { return f.hunks[i][0] < f.hunks[j][0] })
	}
	return d, nil
}

// parseHunk reads "@@ -a[,b] +c[,d] @@…" into old length b, new length d and new start c.
func parseHunk(line string) (oldLen, newLen, newStart int, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, false
	}
	_, oldLen, ok1 := rangeOf(fields[1][1:])
	newStart, newLen, ok2 := rangeOf(fields[2][1:])
	return oldLen, newLen, newStart, ok1 && ok2
}

// rangeOf reads "start[,len]" (len defaults to 1).
func rangeOf(s string) (start, n int, ok bool) {
	a, b, has := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	n = 1
	if has {
		if n, err = strconv.Atoi(b); err != nil || n < 0 {
			return 0, 0, false
		}
	}
	return start, n, true
}

// gitHeaderPath finds the new path in the rest of a "diff --git a/X b/Y" line, or "" when it
// cannot tell (the +++ line or rename lines then name it).
func gitHeaderPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		// a/ quoted: find the end of the first quoted string.
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == '"' {
				return strings.TrimPrefix(unquote(strings.TrimSpace(s[i+1:])), "b/")
			}
		}
		return ""
	}
	if strings.HasSuffix(s, `"`) {
		if i := strings.Index(s, ` "b/`); i >= 0 {
			return strings.TrimPrefix(unquote(s[i+1:]), "b/")
		}
		return ""
	}
	// Unquoted "a/P b/P": the same path twice when the file was not renamed.
	if n := len(s); n%2 == 1 {
		a, b := s[:n/2], s[n/2+1:]
		if strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
			return b[2:]
		}
	}
	return ""
}

// headerName reads the file name of a ---/+++ line: a C-quoted name, or the text up to a tab
// (git ends names that hold spaces with a tab; other tools put a time after it).
func headerName(s string) string {
	if strings.HasPrefix(s, `"`) {
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == '"' {
				return unquote(s[:i+1])
			}
		}
	}
	name, _, _ := strings.Cut(s, "\t")
	return name
}

// unquote reads a path git wrote in C quotes ("t\303\251st.go"); other paths pass through.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
