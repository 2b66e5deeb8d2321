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

// hashChunk is how many bytes of a file read reads at once: a file that fits is read once,
// a larger one twice in chunks of it (lines counted, then hashed), never whole into memory.
const hashChunk = 128 << 10

// read hashes the lines of the file p under root, read through *buf (which it may replace by a
// buffer of hashChunk bytes).
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
	if cap(*buf) < hashChunk {
		*buf = make([]byte, hashChunk)
	}
	b := (*buf)[:hashChunk]
	// First the lines are counted (so that what is kept per line is sized once) and the text
	// checked for plain ASCII; a file of one chunk is then still in b, a longer one is read again.
	lines, size, plain, err := scanText(f, b)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	fi.hashes = lineHashes{values: make([]uint64, 0, lines), nth: make([]uint32, 0, lines), counts: make(map[uint64]uint32, lines)}
	fi.lineLens = make([]int, 0, lines)
	if err := fi.hashText(f, b, size, plain); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	fi.hashes.counts = nil // needed while hashing only
	if fi.hashes.len() != len(fi.lineLens) {
		return fmt.Errorf("%s: %d line hashes for %d lines", p, fi.hashes.len(), len(fi.lineLens))
	}
	fi.ok = true
	return nil
}

// scanText reads r to its end through b and returns its lines (newlines plus one, all of them in
// plain ASCII, most of them otherwise), its size and whether it is plain ASCII (plainASCII).
func scanText(r io.Reader, b []byte) (lines, size int, plain bool, err error) {
	lines, plain = 1, true
	for {
		n, err := io.ReadFull(r, b)
		lines += bytes.Count(b[:n], []byte{'\n'})
		plain = plain && plainASCII(b[:n])
		size += n
		if size > maxHashBytes {
			return 0, 0, false, fmt.Errorf("more than %d bytes", maxHashBytes)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return lines, size, plain, nil
		}
		if err != nil {
			return 0, 0, false, err
		}
	}
}

// hashText hashes the lines of f, of size bytes, into fi: from b when it holds the whole file,
// else read again from its start through b.
func (fi *fileInfo) hashText(f *os.File, b []byte, size int, plain bool) error {
	h := newLineHasher(fi.hashes.add)
	lineLen := func(n int) { fi.lineLens = append(fi.lineLens, n) }
	// The second read takes the size the first one counted: a file that grows meanwhile (a log
	// still written) is neither read past maxHashBytes nor hashed past what was counted.
	var r io.Reader = io.LimitReader(f, int64(size))
	if size < len(b) {
		r = bytes.NewReader(b[:size])
	} else if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if !plain {
		if err := hashUTF8(r, h, lineLen); err != nil {
			return err
		}
		h.finish()
		return nil
	}
	if size < len(b) {
		lineLen(h.ascii(b[:size], 0, lineLen))
		h.finish()
		return nil
	}
	n := 0
	for {
		k, err := io.ReadFull(r, b)
		n = h.ascii(b[:k], n, lineLen)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	lineLen(n)
	h.finish()
	return nil
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
