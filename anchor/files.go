package anchor

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// maxContent is the largest file whose text is kept for finding an edit's lines; larger files
// are only counted.
const maxContent = 32 << 20

// file is what the cache knows of one repository file.
type file struct {
	exists  bool
	regular bool
	lines   int    // number of lines (a last line without newline counts)
	text    string // content, when the file is not larger than maxContent
	hasText bool
	loaded  bool // lines and text were read
	counted bool // lines were counted
}

// stat returns what is known of a repo-relative path without reading it.
func (a *Anchorer) stat(rel string) *file {
	a.mu.Lock()
	defer a.mu.Unlock()
	if f, ok := a.files[rel]; ok {
		return f
	}
	f := &file{}
	a.files[rel] = f
	if fi, err := os.Stat(filepath.Join(a.root, filepath.FromSlash(rel))); err == nil {
		f.exists, f.regular = true, fi.Mode().IsRegular()
	}
	return f
}

// read returns what is known of a repo-relative path that Path has resolved (so no link leads
// out of the repository), with its line count and, when not too large, its text; read once.
func (a *Anchorer) read(rel string) *file {
	f := a.stat(rel)
	a.mu.Lock()
	defer a.mu.Unlock()
	if !f.regular || f.loaded {
		return f
	}
	f.loaded = true
	fh, err := os.Open(filepath.Join(a.root, filepath.FromSlash(rel)))
	if err != nil {
		return f
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxContent+1))
	if err == nil && len(b) <= maxContent {
		f.text, f.hasText = string(b), true
		f.lines = countLines(f.text)
		return f
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return f
	}
	f.lines, f.counted = countReader(fh, a.countBuffer()), true
	return f
}

// lineCount returns the number of lines of a repo-relative path that Path has resolved, counted
// once by streaming the file: a location only needs its file's length to be clamped, and an input
// file of a gigabyte in the repository must not be held to count it.
func (a *Anchorer) lineCount(rel string) int {
	f := a.stat(rel)
	a.mu.Lock()
	defer a.mu.Unlock()
	if !f.regular || f.counted || f.loaded {
		return f.lines
	}
	f.counted = true
	fh, err := os.Open(filepath.Join(a.root, filepath.FromSlash(rel)))
	if err != nil {
		return 0
	}
	defer fh.Close()
	f.lines = countReader(fh, a.countBuffer())
	return f.lines
}

// countBuffer is the buffer files are counted through, made once; a.mu must be held.
func (a *Anchorer) countBuffer() []byte {
	if a.countBuf == nil {
		a.countBuf = make([]byte, 64<<10)
	}
	return a.countBuf
}

// countReader counts the lines of r (a last line without newline counts), read through buf.
func countReader(r io.Reader, buf []byte) int {
	n, last, seen := 0, byte('\n'), false
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if k > 0 {
			last, seen = buf[k-1], true
		}
		if err != nil {
			break
		}
	}
	if seen && last != '\n' {
		n++
	}
	return n
}

// exists reports whether rel names something in the checkout.
func (a *Anchorer) exists(rel string) bool { return a.stat(rel).exists }

// isFile reports whether rel names a regular file of the commit: in the checkout and, when the
// root is a git repository, tracked there or added by the change's diff. A result placed on an
// untracked file (a reviewer's output written in the workspace) would point at a file code
// scanning and the summary's links do not have.
func (a *Anchorer) isFile(rel string) bool { return a.stat(rel).regular && a.inCommit(rel) }

// untracked reports whether rel is a regular file of the checkout that the commit does not hold.
func (a *Anchorer) untracked(rel string) bool { return a.stat(rel).regular && !a.inCommit(rel) }

// inCommit reports whether rel is tracked in the repository at the root (git ls-files) or added
// by the change's diff; true when the root is not a git repository, where nothing tells.
func (a *Anchorer) inCommit(rel string) bool {
	t := a.trackedFiles()
	if t == nil {
		return true
	}
	if _, ok := t[rel]; ok {
		return true
	}
	return a.diff != nil && a.diff.Has(rel)
}

// gitTracked lists the files git tracks at root, or nil when root is not in a git repository
// (or git is not there). Paths are relative to root with forward slashes, as places are.
func gitTracked(root string) map[string]struct{} {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z").Output() // paths relative to root, which may be a subfolder
	if err != nil {
		return nil
	}
	set := map[string]struct{}{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			set[p] = struct{}{}
		}
	}
	return set
}

// countLines counts lines; a last line without a newline counts, an empty text has none.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if len(s) > 0 && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// lineText returns line n (1-based) of text without its newline.
func lineText(text string, n int) string {
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r")
}

// utf16Len is the length of s in UTF-16 code units, SARIF's default column unit.
func utf16Len(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// lineOf is the 1-based line of byte offset i in text.
func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// findText finds where text s stands in file content: the first and last line of its first
// occurrence; when s itself is not there, the line of its first non-blank line of at least 8
// characters. ok is false when neither is found.
func findText(content, s string) (start, end int, ok bool) {
	if strings.TrimSpace(s) == "" {
		return 0, 0, false
	}
	for _, cand := range []string{s, strings.ReplaceAll(s, "\n", "\r\n")} {
		if i := strings.Index(content, cand); i >= 0 {
			start = lineOf(content, i)
			body := strings.TrimRight(cand, "\r\n")
			return start, start + strings.Count(body, "\n"), true
		}
	}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if len(l) < 8 {
			continue
		}
		if i := strings.Index(content, l); i >= 0 {
			start = lineOf(content, i)
			return start, start, true
		}
		break
	}
	return 0, 0, false
}
