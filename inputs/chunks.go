package inputs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agc-sarif/agc-sarif/findings"
)

// A big file is read by several goroutines at once: it is cut into chunks at line starts, each
// chunk is read into a sibling of the file's set (findings.Set.Sibling), and the siblings are
// merged in file order (findings.Set.Continue), so that findings, skips and problems are those
// of one sequential read. A goroutine running ahead of the readers goes over the file once more to
// find the cuts and count the lines before each, so that every record keeps its exact line. Both
// read the file through windows (window.go): mapped, so that neither copies the bytes.

// DefaultChunkSize is how many bytes a chunk of a file read in parallel holds, at least.
const DefaultChunkSize = 16 << 20

// chunk is the part [start, end) of a file; its first line is line passed+1.
type chunk struct {
	start, end int64
	passed     int
	long       []span // lines of the chunk whose newline the chunk finder found, to be read without a search
}

// startsValue reports whether a line starting with c starts a JSON value at column 0. The
// scanner ends any open value at such a line (scanner.line), so a cut before it changes nothing.
func startsValue(c byte) bool { return c == '{' || c == '[' }

// splitChunks cuts the size bytes of ra into chunks of at least size bytes (the last may be
// shorter) and sends them to out in file order, as it finds them. Each chunk but the last ends
// just after a newline that a line starting a JSON value follows; a line longer than a chunk
// makes its chunk longer. The lines before each chunk are counted on the way, through windows
// of window bytes (window.go).
func splitChunks(ctx context.Context, ra io.ReaderAt, size, chunkSize int64, window int, out chan<- chunk) error {
	if chunkSize < 1 {
		chunkSize = DefaultChunkSize
	}
	wr := newWindowReader(ra, 0, size, window)
	defer wr.release()
	t := lineTally{block: max(wr.size/32, 1)}
	cur := chunk{}
	target := chunkSize
	for {
		if limit := min(target, size); wr.pos < limit { // before the cut: only count
			if err := t.count(wr, limit); err != nil {
				return err
			}
			continue
		}
		_, err := wr.ReadSlice('\n')
		switch err {
		case nil:
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if cur.start < size {
				cur.end, cur.long = size, t.long
				return send(ctx, out, cur)
			}
			return nil
		default:
			return err
		}
		t.lineEnd(wr.pos)
		t.lines++
		if t.lines&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		next, ok, err := wr.peek()
		if err != nil {
			return err
		}
		if ok && startsValue(next) {
			cur.end, cur.long = wr.pos, t.long
			if err := send(ctx, out, cur); err != nil {
				return err
			}
			cur, t.long = chunk{start: wr.pos, passed: t.lines}, nil
			target = wr.pos + chunkSize
		}
	}
}

// lineTally counts the lines the chunk finder passes and notes where the long ones are, so that
// the chunk's reader need not look for their newlines again (windowReader.known).
type lineTally struct {
	lines int
	start int64  // where the current line starts
	block int    // bytes counted at once: every line of two blocks or more is noted
	long  []span // the long lines of the current chunk, in order
}

// span is the line [start, end) of a file, its newline included.
type span struct{ start, end int64 }

// count counts the newlines from wr's position up to limit, and moves it there.
func (t *lineTally) count(wr *windowReader, limit int64) error {
	for wr.pos < limit {
		b, err := wr.fill()
		if err != nil {
			return err
		}
		b = b[:min(int64(len(b)), limit-wr.pos)]
		for len(b) > 0 {
			blk := b[:min(len(b), t.block)]
			if n := bytes.Count(blk, []byte{'\n'}); n > 0 {
				first := bytes.IndexByte(blk, '\n')
				t.lineEnd(wr.pos + int64(first) + 1)
				t.lines += n
				t.start = wr.pos + int64(lastNewline(blk, first, n)) + 1
			}
			wr.pos += int64(len(blk))
			b = b[len(blk):]
		}
	}
	return nil
}

// lastNewline is the index of the last of the n newlines of b, the first at index first: found
// forward with IndexByte (vectorised) when they are few, backward byte by byte (bytes.LastIndexByte)
// when many, as the line after the last is then likely short.
func lastNewline(b []byte, first, n int) int {
	if n > 64 {
		return bytes.LastIndexByte(b, '\n')
	}
	last := first
	for range n - 1 {
		last += bytes.IndexByte(b[last+1:], '\n') + 1
	}
	return last
}

// lineEnd ends the current line just before end (after its newline), noting it when long.
func (t *lineTally) lineEnd(end int64) {
	if end-t.start >= 2*int64(t.block) {
		t.long = append(t.long, span{t.start, end})
	}
	t.start = end
}

// send sends c to out unless ctx is done first.
func send(ctx context.Context, out chan<- chunk, c chunk) error {
	select {
	case out <- c:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// chunkRead reads one chunk of a file, r holding its bytes, into set; its first line is line
// passed+1.
type chunkRead func(ctx context.Context, r io.Reader, passed int, set *findings.Set) error

// chunked reports whether a reader should read in as chunks in parallel: a file of at least two
// chunks, more than one goroutine allowed, and no tool-call timeline asked for (its calls must
// come in file order).
func chunked(in Input, opts Options) bool {
	size := in.ChunkSize
	if size < 1 {
		size = DefaultChunkSize
	}
	return in.At != nil && in.Jobs > 1 && in.Size >= 2*size && !opts.ReadsCalls()
}

// readChunks reads the file of in with read, in.Jobs chunks at a time, and merges what each read
// into set in file order. At most in.Jobs chunks read ahead of the merge are held. The first
// error, in file order, stops the reading and is returned.
func readChunks(ctx context.Context, in Input, set *findings.Set, read chunkRead) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := max(in.Jobs, 1)
	chunks := make(chan chunk)
	splitErr := make(chan error, 1)
	go func() {
		splitErr <- guardFaults(func() error { return splitChunks(ctx, in.At, in.Size, in.ChunkSize, in.window, chunks) })
		close(chunks)
	}()
	type part struct {
		set  *findings.Set
		err  error
		done chan struct{}
	}
	pending := make(chan *part, jobs) // in file order; bounds the chunks held
	go func() {
		defer close(pending)
		running := make(chan struct{}, jobs)
		for c := range chunks {
			p := &part{set: set.Sibling(), done: make(chan struct{})}
			pending <- p
			running <- struct{}{}
			go func() {
				defer func() { <-running }()
				defer close(p.done)
				p.err = guardFaults(func() error {
					wr := newWindowReader(in.At, c.start, c.end, in.window)
					wr.known = c.long
					defer wr.release()
					return read(ctx, wr, c.passed, p.set)
				})
				if errors.Is(p.err, errFileChanged) {
					p.err = fmt.Errorf("%s: %w", in.Name, p.err)
				}
			}()
		}
	}()
	var first error
	for p := range pending {
		<-p.done
		if first == nil && p.err != nil {
			first = p.err
			cancel()
		}
		if first == nil {
			set.Continue(p.set)
		}
	}
	if err := <-splitErr; first == nil && err != nil {
		first = fmt.Errorf("%s: %w", in.Name, err)
	}
	return first
}
