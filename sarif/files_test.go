package sarif

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRepoFileChunks checks that a file read in chunks (hashChunk at a time, lines counted
// first) gets the line hashes and lengths that hashing all of it at once through decodeUTF16
// gives, at sizes around the chunk, in plain ASCII and with a CR or non-ASCII text only past the
// first chunk.
func TestRepoFileChunks(t *testing.T) {
	dir := t.TempDir()
	line := "\tfunc f(x int) int { return x  + 1 }\n"
	body := func(n int) string { return strings.Repeat(line, n/len(line)+1)[:n] }
	cases := map[string]string{
		"empty":       "",
		"below":       body(hashChunk - 1),
		"exact":       body(hashChunk),
		"above":       body(hashChunk + 1),
		"three":       body(3*hashChunk + 17),
		"late-cr":     body(2*hashChunk) + "a\r\nb\r\n" + body(100),
		"late-utf8":   body(hashChunk+5) + "é ü\n€\n" + body(1000),
		"late-binary": body(hashChunk*2-1) + "\xff\xfe\n" + body(10),
	}
	for name, text := range cases {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rf, err := openRepoFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.close()
	for name, text := range cases {
		fi := rf.get(name)
		if !fi.ok {
			t.Errorf("%s: not read", name)
			continue
		}
		wantHashes, wantLens := hashBoth(t, text, 0)
		got := make([]string, fi.hashes.len())
		for i := range got {
			got[i] = fi.hashes.text(i)
		}
		if !slices.Equal(got, wantHashes) || !slices.Equal(fi.lineLens, wantLens) {
			t.Errorf("%s (%d bytes): %d hashes, %d lengths; want %d, %d (or they differ)",
				name, len(text), len(got), len(fi.lineLens), len(wantHashes), len(wantLens))
		}
		if cap(rf.buf) > hashChunk {
			t.Errorf("%s: read buffer of %d bytes kept", name, cap(rf.buf))
		}
	}
}

// TestRepoFileGrowsWhileHashed: a file that grows between the line count and the second read (a
// log the agent still writes) is hashed as it was counted, its first size bytes: the second read
// is bounded as the first was, and what was appended is neither read nor kept.
func TestRepoFileGrowsWhileHashed(t *testing.T) {
	for _, tail := range []string{"more\n", "caf\u00e9\r\n"} {
		p := filepath.Join(t.TempDir(), "grows.log")
		text := strings.Repeat("line of a log\n", hashChunk/14+10)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, hashChunk)
		lines, size, plain, err := scanText(f, b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(strings.Repeat(tail, 1000)); err != nil { // appended at the end
			t.Fatal(err)
		}
		var fi fileInfo
		if err := fi.hashText(f, b, size, plain); err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		want, err := LineHashes(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if fi.lines() != lines || fi.hashes.len() != len(want) {
			t.Fatalf("tail %q: %d lines and %d hashes, want %d of each", tail, fi.lines(), fi.hashes.len(), lines)
		}
		for i := range want {
			if got := fi.hashes.text(i); got != want[i] {
				t.Fatalf("tail %q: line %d hash %s, want %s", tail, i+1, got, want[i])
			}
		}
	}
}
