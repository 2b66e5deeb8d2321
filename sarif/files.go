package sarif

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxHashBytes is the largest file hashed for fingerprints; bigger files get none.
const maxHashBytes = 64 << 20

// fileInfo is what the builder knows of one repository file.
type fileInfo struct {
	ok       bool       // the file exists under Root, is regular and was read
	hashes   lineHashes // primaryLocationLineHash of each line
	lineLens []int      // length of each line in UTF-16 code units, newline excluded
}

// lines is the number of lines of the file (a final newline starts an empty last line).
func (fi *fileInfo) lines() int { return len(fi.lineLens) }

// lineHash is the primaryLocationLineHash of the 1-based line; false when the file was not read
// or has no such line.
func (fi *fileInfo) lineHash(line int) (string, bool) {
	if !fi.ok || line < 1 || line > fi.hashes.len() {
		return "", false
	}
	return fi.hashes.text(line - 1), true
}

// repoFiles reads files under the repository root, once each, never outside it.
type repoFiles struct {
	root  *os.Root // nil when there is no root to read
	cache map[string]*fileInfo
	buf   []byte // the last file read: its bytes are not kept (only its hashes), the buffer is
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
	if err := fi.read(rf.root, p, &rf.buf); err != nil {
		*fi = fileInfo{} // no fingerprint and no fix for a file that cannot be read
	}
	return fi
}

// read hashes the lines of the file p under root, read into *buf (which it may replace by a
// larger buffer).
func (fi *fileInfo) read(root *os.Root, p string, buf *[]byte) error {
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
	// Sized by Stat, so that the file is read into one buffer of its size (plus one byte, to see
	// a file that grew meanwhile), not into one grown and copied as it is read.
	data, err := readSized(io.LimitReader(f, maxHashBytes+1), st.Size()+1, (*buf)[:0])
	*buf = data
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if len(data) > maxHashBytes {
		return fmt.Errorf("%s: more than %d bytes", p, maxHashBytes)
	}
	lines := bytes.Count(data, []byte{'\n'}) + 1 // all of them in plain ASCII, most of them otherwise
	fi.hashes = lineHashes{values: make([]uint64, 0, lines), nth: make([]uint32, 0, lines), counts: make(map[uint64]uint32, lines)}
	fi.lineLens = make([]int, 0, lines)
	h := newLineHasher(fi.hashes.add)
	lineLen := func(n int) { fi.lineLens = append(fi.lineLens, n) }
	if plainASCII(data) {
		lineLen(h.ascii(data, 0, lineLen))
	} else if err := decodeUTF16(bytes.NewReader(data), h.unit, lineLen); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	h.finish()
	fi.hashes.counts = nil // needed while hashing only
	if fi.hashes.len() != len(fi.lineLens) {
		return fmt.Errorf("%s: %d line hashes for %d lines", p, fi.hashes.len(), len(fi.lineLens))
	}
	fi.ok = true
	return nil
}

// readSized reads r to its end into data (empty), made to hold size bytes first, grown only if r
// holds more.
func readSized(r io.Reader, size int64, data []byte) ([]byte, error) {
	if int64(cap(data)) < size {
		data = make([]byte, 0, max(size, 512))
	}
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// plainASCII says whether data is ASCII without carriage returns: then every byte is one UTF-16
// code unit and lines end only at LF, and lineHasher.ascii gives what decodeUTF16 gives, faster.
func plainASCII(data []byte) bool {
	const high, ones, cr = 0x8080808080808080, 0x0101010101010101, 0x0d0d0d0d0d0d0d0d
	for len(data) >= 8 { // eight bytes at a time: a high bit set, or a byte equal to CR
		w := binary.LittleEndian.Uint64(data)
		x := w ^ cr
		if w&high != 0 || (x-ones)&^x&high != 0 {
			return false
		}
		data = data[8:]
	}
	for _, c := range data {
		if c >= 0x80 || c == '\r' {
			return false
		}
	}
	return true
}
