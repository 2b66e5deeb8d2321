package inputs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/internal/corpus"
)

// splitAll runs splitChunks over data, read through windows of several sizes (down to one byte),
// and returns the chunks in order; every window size must cut alike.
func splitAll(t testing.TB, data []byte, size int64) []chunk {
	t.Helper()
	var first []chunk
	for i, window := range []int{0, 1, 5, 64} {
		cs := splitWindows(t, data, size, window)
		checkLong(t, data, cs)
		for i := range cs {
			cs[i].long = nil // which lines are noted as long depends on the window
		}
		if i == 0 {
			first = cs
		} else if !reflect.DeepEqual(cs, first) {
			t.Fatalf("windows of %d bytes cut %v, default windows %v", window, cs, first)
		}
	}
	return first
}

// checkLong checks the long lines noted in each chunk: lines of it, in order.
func checkLong(t testing.TB, data []byte, cs []chunk) {
	t.Helper()
	for i, c := range cs {
		at := c.start
		for _, l := range c.long {
			if l.start < at || l.end > c.end || l.start >= l.end || data[l.end-1] != '\n' ||
				(l.start > 0 && data[l.start-1] != '\n') || bytes.IndexByte(data[l.start:l.end-1], '\n') >= 0 {
				t.Fatalf("chunk %d [%d,%d): %v is not a line of it after %d", i, c.start, c.end, l, at)
			}
			at = l.end
		}
	}
}

// splitWindows runs splitChunks over data through windows of window bytes.
func splitWindows(t testing.TB, data []byte, size int64, window int) []chunk {
	t.Helper()
	out := make(chan chunk)
	errc := make(chan error, 1)
	go func() {
		errc <- splitChunks(context.Background(), bytes.NewReader(data), int64(len(data)), size, window, out)
		close(out)
	}()
	var cs []chunk
	for c := range out {
		cs = append(cs, c)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	return cs
}

// checkChunks checks what every cut must be: the chunks cover data in order, each but the first
// starts a JSON value after a newline, each but the last is at least size bytes, and passed
// counts the newlines before it.
func checkChunks(t testing.TB, data []byte, size int64, cs []chunk) {
	t.Helper()
	if len(data) == 0 {
		if len(cs) != 0 {
			t.Fatalf("empty file: %d chunks", len(cs))
		}
		return
	}
	at, lines := int64(0), 0
	for i, c := range cs {
		if c.start != at || c.end <= c.start {
			t.Fatalf("chunk %d is [%d,%d), want it to start at %d and hold something", i, c.start, c.end, at)
		}
		if i > 0 && (data[c.start-1] != '\n' || !startsValue(data[c.start])) {
			t.Errorf("chunk %d starts at %d after %q with %q", i, c.start, data[c.start-1], data[c.start])
		}
		if i < len(cs)-1 && c.end-c.start < size {
			t.Errorf("chunk %d holds %d bytes, less than %d", i, c.end-c.start, size)
		}
		if c.passed != lines {
			t.Errorf("chunk %d: passed %d, want %d", i, c.passed, lines)
		}
		lines += bytes.Count(data[c.start:c.end], []byte{'\n'})
		at = c.end
	}
	if at != int64(len(data)) {
		t.Fatalf("chunks end at %d of %d", at, len(data))
	}
}

func TestSplitChunks(t *testing.T) {
	long := `{"a":"` + strings.Repeat("x", 100) + `"}`
	tests := []struct {
		name   string
		data   string
		size   int64
		starts []int64 // where the chunks start
	}{
		{"empty", "", 4, nil},
		{"smaller than a chunk", "{}\n{}\n", 64, []int64{0}},
		{"lines", "{}\n{}\n{}\n{}\n", 3, []int64{0, 6}},
		{"every line", "{}\n{}\n{}\n{}\n", 1, []int64{0, 3, 6, 9}},
		{"crlf", "{}\r\n{}\r\n{}\r\n", 2, []int64{0, 4, 8}},
		{"last line without newline", "{}\n{}\n{}", 3, []int64{0, 6}},
		{"empty lines stay with the line before", "{}\n\n\n{}\n\n{}\n", 3, []int64{0, 5, 9}},
		{"blank and spaced lines are not cut before", "{}\n \n  {}\n{}\n", 2, []int64{0, 10}},
		{"one line bigger than all chunks", long + "\n", 8, []int64{0}},
		{"a long line makes its chunk longer", "{}\n" + long + "\n{}\n{}\n", 8, []int64{0, int64(3 + len(long) + 1)}},
		{"pretty-printed value is not cut", "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n[\n 1\n]\n", 4, []int64{0, 33}},
		{"no newline at all", long, 8, []int64{0}},
		{"newline is the last byte", "{}\n{}\n", 6, []int64{0}},
		{"text lines are not cut before", "a\nb\nc\n{}\nd\n", 1, []int64{0, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			cs := splitAll(t, data, tt.size)
			checkChunks(t, data, tt.size, cs)
			var starts []int64
			for _, c := range cs {
				starts = append(starts, c.start)
			}
			if !reflect.DeepEqual(starts, tt.starts) {
				t.Errorf("chunks start at %v, want %v", starts, tt.starts)
			}
		})
	}
}

// TestSplitChunksBlocks cuts data longer than the splitter's 256 KiB read block, so that cuts and
// the byte after a newline fall on block ends.
func TestSplitChunksBlocks(t *testing.T) {
	var b bytes.Buffer
	for i := 0; b.Len() < 3<<20+100; i++ {
		fmt.Fprintf(&b, "{\"n\":%d,\"s\":%q}\n", i, strings.Repeat("y", i%97))
		if i%13 == 0 {
			b.WriteString("\r\n")
		}
	}
	// A newline exactly at the end of the first block.
	data := b.Bytes()
	data[256<<10-1] = '\n'
	for _, size := range []int64{1, 1000, 256 << 10, 3 << 19} {
		checkChunks(t, data, size, splitAll(t, data, size))
	}
}

// readOnce reads data with the hook-log reader into a fresh set made by newSet, sequentially
// (jobs 0) or in chunks of size bytes, jobs at once.
func readOnce(t testing.TB, data []byte, jobs int, size int64, newSet func() *findings.Set) *findings.Set {
	t.Helper()
	return readVia(t, data, chunking{jobs: jobs}, size, newSet)
}

// chunking is how readVia reads a file in chunks: jobs at once (0: sequentially), from a file
// on disk (mapped) or from memory, through windows of window bytes (0: defaultWindow).
type chunking struct {
	jobs   int
	file   *os.File
	window int
}

// chunkings are the ways chunkedSame reads each file: memory and a mapped file, default windows
// and windows smaller than a line.
func chunkings(t testing.TB, data []byte) []chunking {
	t.Helper()
	p := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return []chunking{{jobs: 2}, {jobs: 3, window: 7}, {jobs: 2, file: f}, {jobs: 3, file: f, window: 4097}}
}

// readVia reads data with the hook-log reader into a fresh set made by newSet, as c says.
func readVia(t testing.TB, data []byte, c chunking, size int64, newSet func() *findings.Set) *findings.Set {
	t.Helper()
	set := newSet()
	in := Input{Name: "log.jsonl", R: bytes.NewReader(data)}
	if c.jobs > 0 {
		in.At, in.Size, in.Jobs, in.ChunkSize, in.window = bytes.NewReader(data), int64(len(data)), c.jobs, size, c.window
		if c.file != nil {
			in.At = c.file
		}
	}
	if err := (hookLogReader{}).Read(context.Background(), in, Options{Registry: testRegistry, IncludeUnstructured: true, Sink: namesLine}, set); err != nil {
		t.Fatal(err)
	}
	set.ListUnlisted("log.jsonl")
	return set
}

// sameSets fails when two sets read from one file differ in findings, problems or counts.
func sameSets(t testing.TB, what string, a, b *findings.Set) {
	t.Helper()
	if a.Records != b.Records || a.Used != b.Used || a.Duplicates != b.Duplicates || !reflect.DeepEqual(a.Skips, b.Skips) {
		t.Errorf("%s: records %d/%d, used %d/%d, duplicates %d/%d, skips %v / %v", what,
			a.Records, b.Records, a.Used, b.Used, a.Duplicates, b.Duplicates, a.Skips, b.Skips)
	}
	if !reflect.DeepEqual(a.Problems, b.Problems) {
		t.Errorf("%s: problems differ:\n%v\n%v", what, a.Problems, b.Problems)
	}
	if len(a.Findings) != len(b.Findings) {
		t.Errorf("%s: %d findings, in chunks %d", what, len(a.Findings), len(b.Findings))
		return
	}
	for i := range a.Findings {
		if !reflect.DeepEqual(a.Findings[i], b.Findings[i]) {
			t.Errorf("%s: finding %d differs:\n%+v\n%+v", what, i, a.Findings[i], b.Findings[i])
			return
		}
	}
}

// aggregating is the set collect reads into: repeats merged.
func aggregating() *findings.Set { return findings.NewAggregateSet(5) }

// namesLine is a sink that changes each finding by where it was read before it goes into the
// set, as collect's anchoring does.
var namesLine = Funcs{Prepare: func(f findings.Finding) findings.Finding {
	f.Anchored = fmt.Sprintf("read at line %d", f.Source.Line)
	return f
}}

// chunkedSame reads data sequentially and in chunks of several sizes and jobs, into plain and
// aggregating sets, and fails when any read differs from the sequential one.
func chunkedSame(t *testing.T, name string, data []byte, sizes []int64) {
	ways := chunkings(t, data)
	for _, newSet := range []func() *findings.Set{findings.NewSet, aggregating} {
		want := readOnce(t, data, 0, 0, newSet)
		if want.Records != want.Used+want.Skipped() {
			t.Errorf("%s: records %d != used %d + skipped %d", name, want.Records, want.Used, want.Skipped())
		}
		want.Compact()
		for _, size := range sizes {
			for _, c := range ways {
				got := readVia(t, data, c, size, newSet)
				got.Compact()
				sameSets(t, fmt.Sprintf("%s, chunks of %d, %d jobs, mapped %v, windows of %d", name, size, c.jobs, c.file != nil, c.window), want, got)
			}
		}
	}
}

// TestChunkedReadsAsOne reads every hook log in testdata, and a generated one, in chunks as
// small as one line: findings, problems and skips must be those of one sequential read.
func TestChunkedReadsAsOne(t *testing.T) {
	logs, err := filepath.Glob("../testdata/*/*/hook-log.jsonl")
	if err != nil || len(logs) < 16 {
		t.Fatalf("want at least 16 hook logs, found %d (%v)", len(logs), err)
	}
	var all []byte
	for _, p := range logs {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		chunkedSame(t, p, data, []int64{1, 200, 4096})
		all = append(all, data...)
	}
	chunkedSame(t, "all testdata hook logs", all, []int64{1, 1000, 1 << 14})
	var gen bytes.Buffer
	if _, err := corpus.Generate(&gen, corpus.HookLog, 4<<20, 1); err != nil {
		t.Fatal(err)
	}
	chunkedSame(t, "generated hook log", gen.Bytes(), []int64{64 << 10, 1 << 20})
}

// TestChunkedProblems: problems past the allowance of one reason are listed as one read lists
// them, whichever chunk they fall in, and every record is counted.
func TestChunkedProblems(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 3*findings.MaxProblemsPerReason; i++ {
		fmt.Fprintf(&b, "{\"not\":\"a hook record %d\"}\n", i)
		if i%7 == 0 {
			b.WriteString("{\"cut\":\"inside a string\n")
		}
	}
	data := b.Bytes()
	chunkedSame(t, "problems", data, []int64{1, 100, 5000})
	set := readOnce(t, data, 2, 100, findings.NewSet)
	if set.Records != set.Skipped() || set.Records < 3*findings.MaxProblemsPerReason {
		t.Errorf("records %d, skipped %d", set.Records, set.Skipped())
	}
}

// FuzzChunks: any bytes read in chunks of any size give the records, findings and problems of
// one sequential read.
func FuzzChunks(f *testing.F) {
	for _, p := range []string{"../testdata/claude/pre-steer-deny/hook-log.jsonl", "../testdata/claude/post-block/hook-log.jsonl"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, uint16(200), uint8(2))
		}
	}
	f.Add([]byte("{}\n{\"a\":\n1}\n[\n{\"b\":\"x\ny\"}\r\n\n{"), uint16(1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, size uint16, jobs uint8) {
		chunk := int64(size%4096) + 1
		cs := splitAll(t, data, chunk)
		checkChunks(t, data, chunk, cs)
		var seq, par []Record
		collect := func(to *[]Record) func(Record) error {
			return func(r Record) error {
				r.Data = bytes.Clone(r.Data)
				*to = append(*to, r)
				return nil
			}
		}
		if err := scanFrom(context.Background(), bytes.NewReader(data), 1<<16, 1<<10, 0, collect(&seq)); err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if err := scanFrom(context.Background(), bytes.NewReader(data[c.start:c.end]), 1<<16, 1<<10, c.passed, collect(&par)); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(seq, par) {
			t.Fatalf("records differ in chunks of %d:\n%+v\n%+v", chunk, seq, par)
		}
		n := int(jobs%4) + 2
		for _, newSet := range []func() *findings.Set{findings.NewSet, aggregating} {
			want, got := readOnce(t, data, 0, 0, newSet), readVia(t, data, chunking{jobs: n, window: int(size % 61)}, chunk, newSet)
			want.Compact()
			got.Compact()
			sameSets(t, "fuzz", want, got)
		}
	})
}

// TestLastNewline: the last newline is found wherever it is, forward or backward.
func TestLastNewline(t *testing.T) {
	for _, s := range []string{"\n", "a\nb", "\n\n\n", "ab\ncd\nef", strings.Repeat("x\n", 100) + "tail", strings.Repeat("\n", 65) + "y"} {
		b := []byte(s)
		first, n := bytes.IndexByte(b, '\n'), bytes.Count(b, []byte{'\n'})
		if got, want := lastNewline(b, first, n), bytes.LastIndexByte(b, '\n'); got != want {
			t.Errorf("%q: last newline at %d, want %d", s, got, want)
		}
	}
}
