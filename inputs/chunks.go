package inputs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/agc-sarif/agc-sarif/findings"
)

// A big file is read by several goroutines at once: it is cut into chunks at line starts, each
// chunk is read into a sibling of the file's set (findings.Set.Sibling), and the siblings are
// merged in file order (findings.Set.Continue), so that findings, skips and problems are those
// of one sequential read. A goroutine running ahead of the readers reads the file once more to
// find the cuts and count the lines before each, so that every record keeps its exact line.

// DefaultChunkSize is how many bytes a chunk of a file read in parallel holds, at least.
const DefaultChunkSize = 16 << 20

// chunk is the part [start, end) of a file; its first line is line passed+1.
type chunk struct {
	start, end int64
	passed     int
}

// startsValue reports whether a line starting with c starts a JSON value at column 0. The
// scanner ends any open value at such a line (scanner.line), so a cut before it changes nothing.
func startsValue(c byte) bool { return c == '{' || c == '[' }

// splitChunks cuts the size bytes of ra into chunks of at least size bytes (the last may be
// shorter) and sends them to out in file order, as it finds them. Each chunk but the last ends
// just after a newline that a line starting a JSON value follows; a line longer than a chunk
// makes its chunk longer. The lines before each chunk are counted on the way.
func splitChunks(ctx context.Context, ra io.ReaderAt, size, chunkSize int64, out chan<- chunk) error {
	if chunkSize < 1 {
		chunkSize = DefaultChunkSize
	}
	send := func(c chunk) error {
		select {
		case out <- c:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	buf := make([]byte, min(256<<10, size)) // read and counted while in the cache
	cur := chunk{}
	target := chunkSize
	lines := 0
	for pos := int64(0); pos < size; {
		n, err := ra.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if n == 0 {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF // the file shrank while it was read
			}
			return fmt.Errorf("reading at byte %d: %w", pos, err)
		}
		b := buf[:n]
		for i := 0; i < n; {
			if pos+int64(i) < target { // before the cut: only count
				j := int(min(int64(n), target-pos))
				lines += bytes.Count(b[i:j], []byte{'\n'})
				i = j
				continue
			}
			k := bytes.IndexByte(b[i:], '\n')
			if k < 0 {
				break
			}
			lines++
			i += k + 1
			at := pos + int64(i)
			if at >= size {
				break
			}
			next, err := byteAt(ra, b, i, at)
			if err != nil {
				return err
			}
			if startsValue(next) {
				cur.end = at
				if err := send(cur); err != nil {
					return err
				}
				cur = chunk{start: at, passed: lines}
				target = at + chunkSize
			}
		}
		pos += int64(n)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if cur.start < size {
		cur.end = size
		return send(cur)
	}
	return nil
}

// byteAt is the byte at offset at of the file: b[i] when the block b read holds it.
func byteAt(ra io.ReaderAt, b []byte, i int, at int64) (byte, error) {
	if i < len(b) {
		return b[i], nil
	}
	var one [1]byte
	if _, err := ra.ReadAt(one[:], at); err != nil {
		return 0, fmt.Errorf("reading at byte %d: %w", at, err)
	}
	return one[0], nil
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
	return in.At != nil && in.Jobs > 1 && in.Size >= 2*size && opts.Calls == nil
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
		splitErr <- splitChunks(ctx, in.At, in.Size, in.ChunkSize, chunks)
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
				n := c.end - c.start
				br := bufio.NewReaderSize(io.NewSectionReader(in.At, c.start, n), int(min(n+16, 256<<10)))
				p.err = read(ctx, br, c.passed, p.set)
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
