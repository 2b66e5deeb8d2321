package sarif

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// maxHashBytes is the largest file hashed for fingerprints; bigger files get none.
const maxHashBytes = 64 << 20

// fileInfo is what the builder knows of one repository file.
type fileInfo struct {
	ok       bool     // the file exists under Root, is regular and was read
	hashes   []string // primaryLocationLineHash of each line
	lineLens []int    // length of each line in UTF-16 code units, newline excluded
}

// lines is the number of lines of the file (a final newline starts an empty last line).
func (fi *fileInfo) lines() int { return len(fi.lineLens) }

// lineHash is the primaryLocationLineHash of the 1-based line; false when the file was not read
// or has no such line.
func (fi *fileInfo) lineHash(line int) (string, bool) {
	if !fi.ok || line < 1 || line > len(fi.hashes) {
		return "", false
	}
	return fi.hashes[line-1], true
}

// repoFiles reads files under the repository root, once each, never outside it.
type repoFiles struct {
	root  *os.Root // nil when there is no root to read
	cache map[string]*fileInfo
}

func openRepoFiles(dir string) (*repoFiles, error) {
	rf := &repoFiles{cache: map[string]*fileInfo{}}
	if dir == "" {
		return rf, nil
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return rf, fmt.Errorf("repository root %s: %w", dir, err)
	}
	rf.root = r
	return rf, nil
}

func (rf *repoFiles) close() {
	if rf.root != nil {
		_ = rf.root.Close()
	}
}

// get returns what is known of the repository-relative path p; a missing, special, oversized
// or unreadable file (or one that a symbolic link takes out of the root) gives a fileInfo with ok
// false.
func (rf *repoFiles) get(p string) *fileInfo {
	if fi, ok := rf.cache[p]; ok {
		return fi
	}
	fi := &fileInfo{}
	rf.cache[p] = fi
	if rf.root == nil {
		return fi
	}
	if err := fi.read(rf.root, p); err != nil {
		*fi = fileInfo{} // no fingerprint and no fix for a file that cannot be read
	}
	return fi
}

func (fi *fileInfo) read(root *os.Root, p string) error {
	st, err := root.Stat(p)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Size() > maxHashBytes {
		return fmt.Errorf("%s: not a regular file of at most %d bytes", p, maxHashBytes)
	}
	f, err := root.Open(p)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	data, err := io.ReadAll(io.LimitReader(f, maxHashBytes+1))
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if len(data) > maxHashBytes {
		return fmt.Errorf("%s: more than %d bytes", p, maxHashBytes)
	}
	fi.hashes, fi.lineLens = nil, nil
	h := newLineHasher(func(_ int, hash string) { fi.hashes = append(fi.hashes, hash) })
	if plainASCII(data) {
		hashASCII(data, h, func(n int) { fi.lineLens = append(fi.lineLens, n) })
	} else if err := decodeUTF16(bytes.NewReader(data), h.unit, func(n int) { fi.lineLens = append(fi.lineLens, n) }); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	h.finish()
	if len(fi.hashes) != len(fi.lineLens) {
		return fmt.Errorf("%s: %d line hashes for %d lines", p, len(fi.hashes), len(fi.lineLens))
	}
	fi.ok = true
	return nil
}

// plainASCII says whether data is ASCII without carriage returns: then every byte is one UTF-16
// code unit and lines end only at LF, and hashASCII gives what decodeUTF16 gives, faster.
func plainASCII(data []byte) bool {
	for _, c := range data {
		if c >= 0x80 || c == '\r' {
			return false
		}
	}
	return true
}

// hashASCII feeds every byte of plain ASCII data to h and the length of every line to lineLen
// (the last line included), as decodeUTF16 does.
func hashASCII(data []byte, h *lineHasher, lineLen func(int)) {
	n := 0
	for _, c := range data {
		h.unit(uint16(c))
		if c == '\n' {
			lineLen(n)
			n = 0
		} else {
			n++
		}
	}
	lineLen(n)
}
