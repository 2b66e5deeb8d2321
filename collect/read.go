package collect

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/plural"
)

// readStats counts what happened to the files.
type readStats struct {
	Read     int            // files read by a reader
	ByFormat map[string]int // files read, per format
	Ignored  int            // files found by walking whose content no reader recognised
	// PassedOver names the first MaxPassedOver of the Ignored files, in the order of the inputs.
	PassedOver []string
	Unreadable []string // named files that could not be read at all (exit 2)
	Empty      int      // named files read empty (not given to a reader: see Result.Notices)
	read       []bool   // per file given to readAll: read by a reader
	refused    []bool   // per file given to readAll: in Unreadable
}

// said reports, per file given to readAll, whether what became of it is said already: read by a
// reader, or unreadable (with its message).
func (st readStats) said() []bool {
	out := make([]bool, len(st.read))
	for i := range out {
		out[i] = st.read[i] || i < len(st.refused) && st.refused[i]
	}
	return out
}

// readAll reads every file with the reader of its format, jobs files at a time, and merges the
// per-file sets in the order of files so that output is the same on every run. Each file's set is
// merged as soon as those before it are, and at most aheadPerJob files per goroutine are read
// ahead of the merge, so that memory grows with neither the number of files nor the records:
// each finding is anchored by the sink (opts.Sink) and merged with its repeats as it is read.
// newSet makes each file's set and the one they merge into: Run's aggregate (aggregating), or
// Check's findings.NewSet, which keeps every finding apart. merged, when not nil, is told each
// file merged, in order.
func readAll(ctx context.Context, files []file, format inputs.Format, opts inputs.Options, par parallel, newSet func() *findings.Set, merged func(name string)) (*findings.Set, readStats) {
	jobs := max(par.jobs, 1)
	// Fewer files than goroutines: each file may read its parts at once with the rest.
	par.fileJobs = max(jobs/max(len(files), 1), 1)
	type outcome struct {
		set        *findings.Set
		format     inputs.Format
		ignored    bool
		unreadable string
	}
	results := make([]outcome, len(files))
	done := make([]chan struct{}, len(files))
	for i := range done {
		done[i] = make(chan struct{})
	}
	// Many files: one reading goroutine more than jobs. Reading a small file is mostly system
	// calls, during which its goroutine holds the processor, and the merge runs beside the
	// readers; with 10,000 one-response files on 2 cores, 3 goroutines took 12% less wall time
	// than 2 at the same CPU (4 did no better).
	workers := jobs
	if len(files) > 2*jobs {
		workers++
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var bufs readBuffers // one worker's buffers, reused from file to file
			for i := range next {
				if ctx.Err() == nil { // cancelled: not started, left out of the merge
					set := newSet()
					f, ignored, unreadable := readFile(ctx, files[i], format, opts, set, &bufs, par)
					results[i] = outcome{set, f, ignored, unreadable}
				}
				close(done[i])
			}
		}()
	}
	ahead := make(chan struct{}, aheadPerJob*jobs) // files handed out and not yet merged
	go func() {
		for i := range files {
			ahead <- struct{}{}
			next <- i
		}
		close(next)
	}()

	all := newSet()
	st := newReadStats(len(files))
	for i := range files {
		<-done[i]
		r := results[i]
		results[i] = outcome{} // merged: let its memory go
		<-ahead
		if r.set == nil {
			continue
		}
		all.Merge(r.set)
		if merged != nil {
			merged(files[i].Name)
		}
		st.note(i, files[i].Name, r.format, r.ignored, r.unreadable)
	}
	wg.Wait()
	all.Compact()
	return all, st
}

// aheadPerJob is how many files per reading goroutine may be read ahead of the merge.
const aheadPerJob = 4

// parallel says how many goroutines read: jobs files at once, fileJobs chunks of one file at
// once (inputs.Input.Jobs), chunks of at least chunkSize bytes (0: inputs.DefaultChunkSize); and
// how a file is opened.
type parallel struct {
	jobs, fileJobs int
	chunkSize      int64
	open           func(string) (*os.File, error) // nil: os.Open
}

// newReadStats is the stats of reading n files, none read yet.
func newReadStats(n int) readStats {
	return readStats{ByFormat: map[string]int{}, read: make([]bool, n), refused: make([]bool, n)}
}

// MaxPassedOver is how many files passed over are named; the rest are counted.
const MaxPassedOver = 20

// note counts what readFile said of the i-th file: read in format, passed over, or unreadable.
func (st *readStats) note(i int, name string, format inputs.Format, ignored bool, unreadable string) {
	switch {
	case unreadable != "":
		st.Unreadable = append(st.Unreadable, unreadable)
		st.refused[i] = true
	case ignored:
		st.Ignored++
		if len(st.PassedOver) < MaxPassedOver {
			st.PassedOver = append(st.PassedOver, name)
		}
	case format != "":
		st.read[i] = true
		st.Read++
		st.ByFormat[string(format)]++
	}
}

// Read buffer sizes: a file is read through a buffer of its own size (plus room to see the end),
// from smallBuffer up to bigBuffer, so that a tiny file does not cost a 256 KiB buffer.
const (
	smallBuffer = 4 << 10
	bigBuffer   = 256 << 10
)

// readBuffers are one worker's read buffers: a big one for files of bigBuffer and more, and a
// small one, each allocated once and reset for every file.
type readBuffers struct {
	big, small *bufio.Reader
}

// reader returns a buffered reader of r, a file of size bytes.
func (b *readBuffers) reader(r io.Reader, size int64) *bufio.Reader {
	if size+16 <= smallBuffer {
		if b.small == nil {
			b.small = bufio.NewReaderSize(r, smallBuffer)
		} else {
			b.small.Reset(r)
		}
		return b.small
	}
	if size+16 < bigBuffer {
		return bufio.NewReaderSize(r, int(size)+16)
	}
	if b.big == nil {
		b.big = bufio.NewReaderSize(r, bigBuffer)
	} else {
		b.big.Reset(r)
	}
	return b.big
}

// readFile reads one file into set. It returns the format used, whether the file was passed over
// (found by walking, not recognised), and a message when a named file could not be read at all.
// The problems past the per-reason limit are summed under the file's name, and the next file
// read into set has an allowance of its own.
func readFile(ctx context.Context, fl file, forced inputs.Format, opts inputs.Options, set *findings.Set, bufs *readBuffers, par parallel) (inputs.Format, bool, string) {
	defer set.ListUnlisted(fl.Name)
	src := findings.Source{File: fl.Name}
	fh, info, err := openFile(fl.Path, par.open)
	if err != nil {
		return "", false, fmt.Sprintf("%s: %v", fl.Name, unwrapPathError(err))
	}
	if fh != nil {
		defer fh.Close()
	}
	if !info.Mode().IsRegular() {
		// A FIFO or device could block forever or never end: not an input.
		msg := fmt.Sprintf("not a regular file (%s); skipped", describeMode(info.Mode()))
		set.Problems = append(set.Problems, findings.Problem{Source: src, Message: msg})
		return "", false, fmt.Sprintf("%s: %s", fl.Name, msg)
	}
	br := bufs.reader(fh, info.Size())
	head, err := br.Peek(inputs.SniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", false, fmt.Sprintf("%s: %v", fl.Name, err)
	}
	format := forced
	if format == "" || format == inputs.Auto || fl.Judgment {
		format = opts.Registry.Detect(head)
	}
	if fl.Judgment {
		format = judgmentFormat(opts.Registry, format)
	}
	if format == "" {
		if !fl.Named {
			if isText(fl.Name) && fallbackFormat(fl.Name, head) == inputs.Judgment {
				set.Problems = append(set.Problems, findings.Problem{Source: src, Message: passedOverText})
			}
			return "", true, ""
		}
		var why string
		format, why, err = detectNamed(ctx, opts.Registry, fl, fh, br, head)
		if err != nil {
			return "", false, fmt.Sprintf("%s: %v", fl.Name, err)
		}
		if format == "" {
			set.Problemf(findings.Source{File: fl.Name, Line: 1}, "not a recognised input", "%s", why)
			return "", false, ""
		}
	}
	rd, err := opts.Registry.ReaderFor(format)
	if err != nil {
		return "", false, fmt.Sprintf("%s: %v", fl.Name, err)
	}
	forcedOn := fl.Explicit && !fl.Judgment && format == forced && forced != inputs.Auto
	var looks string
	if forcedOn { // before reading: the head is the reader's buffer
		looks = looksLike(opts.Registry, head)
	}
	in := inputs.Input{Name: fl.Name, R: br, Named: fl.Named, Judgment: fl.Judgment,
		At: fh, Size: info.Size(), Jobs: par.fileJobs, ChunkSize: par.chunkSize}
	if err := rd.Read(ctx, in, opts, set); err != nil {
		return format, false, fmt.Sprintf("%s: %v", fl.Name, err)
	}
	if forcedOn && set.Used == 0 && len(set.Findings) == 0 && looks != string(forced) {
		// A forced format that read nothing from a file the user named: the wrong --format, most
		// likely, and not a green run (exit 2).
		return format, false, fmt.Sprintf("%s: --format %s read nothing from it (%s); it looks like %s", fl.Name, forced,
			plural.N(set.Records, "record skipped", "records skipped"), orShape(looks, head))
	}
	return format, false, ""
}

// looksLike is the format detection gives a file's head, "" when none.
func looksLike(reg inputs.Registry, head []byte) string { return string(reg.Detect(head)) }

// orShape is a format's name, or, for a file in no format agc-sarif reads, what its first line
// is: a JSON object and its first keys, other JSON, or text (no content is quoted).
func orShape(format string, head []byte) string {
	if format != "" {
		return format
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "no format agc-sarif reads: binary data (NUL bytes)"
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	var obj map[string]json.RawMessage
	err := json.NewDecoder(bytes.NewReader(head)).Decode(&obj) // a document over several lines
	if err != nil {
		err = json.Unmarshal(bytes.TrimSpace(line), &obj)
	}
	if err == nil {
		keys := make([]string, 0, len(obj))
		for k := range obj {
			if len(k) <= 40 && len(keys) < 6 {
				keys = append(keys, strconv.Quote(k))
			}
		}
		sort.Strings(keys)
		return "no format agc-sarif reads: a JSON object with keys " + strings.Join(keys, ", ")
	}
	if json.Valid(bytes.TrimSpace(line)) {
		return "no format agc-sarif reads: JSON that is not an object"
	}
	return "no format agc-sarif reads: its first line is not JSON (or not whole)"
}

// inputFile is an open input: read from the start, by offset, or again from the start.
type inputFile interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
}

// openFile opens an input and says what it is. With open nil it is openRaw: one open and one
// fstat, no *os.File (which on Linux costs a system call more, and registering with the
// runtime's poller three more, and never helps a regular file). A file that is not regular is
// returned closed (nil) when its open could block.
func openFile(name string, open func(string) (*os.File, error)) (inputFile, fs.FileInfo, error) {
	if open == nil {
		return openRaw(name)
	}
	return statOpen(name, open)
}

// statOpen stats name and opens it with open when it is a regular file: an open of a FIFO
// could block forever.
func statOpen(name string, open func(string) (*os.File, error)) (inputFile, fs.FileInfo, error) {
	info, err := os.Stat(name)
	if err != nil || !info.Mode().IsRegular() {
		return nil, info, err
	}
	fh, err := open(name)
	if err != nil {
		return nil, nil, err
	}
	return fh, info, nil
}

// judgmentFormat is the reader of a file named as a reviewing agent's output: a format whose
// reader reads its final message itself (a transcript, stream-json, an execution file) by that
// reader; anything else as a message (Markdown or text), so that it fails closed when it holds no
// agc block.
func judgmentFormat(reg inputs.Registry, detected inputs.Format) inputs.Format {
	if reg.ReadsFinalMessage(detected) {
		return detected
	}
	return inputs.Judgment
}

// passedOverText is the warning for a Markdown or text file found by walking a folder that holds
// no agc block: it is not read, and if it is a reviewer's output that fails open.
const passedOverText = "a Markdown or text file without an agc block, found by walking a folder: passed over, not read. " +
	"If it is a reviewing agent's output, name it with --judgment (action input judgments) so that a missing verdict fails the run"

// isText reports whether a file name is a Markdown or text file's.
func isText(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".txt", ".text":
		return true
	}
	return false
}

// maxDeepDetect is how far into a named file detection looks for a line it recognises.
const maxDeepDetect = 1 << 30

// detectNamed decides how to read a file the user named whose head no reader recognised: a
// Markdown or text file is a judging agent's final message; else the file is searched line by
// line for the first recognisable input, and read from its start (br is reset to it) with that
// line's format. When nothing is found it returns "" and why, for a loud problem.
func detectNamed(ctx context.Context, reg inputs.Registry, fl file, fh inputFile, br *bufio.Reader, head []byte) (inputs.Format, string, error) {
	if f := fallbackFormat(fl.Name, head); f != "" {
		return f, "", nil
	}
	if len(head) < inputs.SniffSize && bytes.IndexByte(head, '\n') < 0 {
		return "", unrecognised(head), nil // one short line: nothing further to look at
	}
	format, lines, err := reg.DetectLines(ctx, br, maxDeepDetect)
	if err != nil {
		return "", "", err
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return "", "", err
	}
	br.Reset(fh)
	if format == "" {
		return "", fmt.Sprintf("%s: no line of it is an AGC response, hook record, Claude Code transcript, stream-json or reviewer's agc block (%d lines looked at), so nothing in it was read", unrecognised(head), lines), nil
	}
	return format, "", nil
}

// fallbackFormat decides how to read a file the user named that no reader recognised: a
// Markdown or text file is a judging agent's final message (so a missing ```agc block is a
// breach, and the gate fails closed); anything else is not an input.
func fallbackFormat(name string, head []byte) inputs.Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".txt", ".text", "":
		if !bytes.Contains(head, []byte{0}) && utf8.Valid(trimIncompleteRune(head)) && !looksJSON(head) {
			return inputs.Judgment
		}
	}
	return ""
}

// unrecognised says why a named file is not an input.
func unrecognised(head []byte) string {
	switch {
	case len(bytes.TrimSpace(head)) == 0:
		return "empty file: no AGC response, hook record or judgment in it"
	case bytes.Contains(head, []byte{0}):
		return "binary file (it holds NUL bytes): not an AGC input"
	case looksJSON(head):
		return "JSON that is not a recognised input (AGC response, hook log, Claude Code transcript or stream-json); name the format with --format"
	case !utf8.Valid(trimIncompleteRune(head)):
		return "not UTF-8 text: not an AGC input"
	}
	return "not a recognised input; name the format with --format"
}

func looksJSON(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// trimIncompleteRune drops a UTF-8 sequence cut by the end of the sniffed head.
func trimIncompleteRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if utf8.Valid(b[:len(b)-i]) {
			return b[:len(b)-i]
		}
	}
	return b
}

func describeMode(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0 || m&os.ModeCharDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return m.Type().String()
}
