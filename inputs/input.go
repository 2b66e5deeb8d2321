// Package inputs reads the files that carry AGC responses and turns every record into findings
// (through package gates) or a counted skip. It reads the runtime-neutral formats itself — AGC
// JSON and JSONL, judgment messages, the recorder's hook logs — and holds the reading kit the
// readers of each runtime's own formats (in runtimes/<rt>) are built from. The registry of
// formats and runtime bindings comes from the callers (registry.go): this package imports no
// runtime.
package inputs

import (
	"bufio"
	"context"
	"io"

	"github.com/agc-sarif/agc-sarif/findings"
)

// Format names an input format, as --format spells it.
type Format string

// The formats agc-sarif reads.
const (
	Auto     Format = "auto"
	AGC      Format = "agc"      // AGC JSON document or JSONL
	HookLog  Format = "hook-log" // JSONL written by agc-sarif record
	Judgment Format = "judgment" // a judging agent's final message (Markdown or text)
)

// Options are what readers need besides the bytes.
type Options struct {
	// IncludeUnstructured reports hook decisions that carry no AGC response (rule hook/<name>).
	IncludeUnstructured bool
	// MaxRecord is the largest record (line, or document) a reader parses whole; larger records are
	// skipped with a problem naming file and line. 0 means DefaultMaxRecord.
	MaxRecord int
	// Sink receives what the readers find (sink.go): findings, and with Calls and Edits the
	// tool-call timeline and the edit calls. nil: findings go into the set as they are, and texts
	// are not redacted.
	Sink Sink
	// Calls hands the tool-call timeline of the records read to Sink.Call (calls.go).
	Calls bool
	// Edits hands the edit calls of every record read to Sink.Edit (edits.go), for anchoring.
	Edits bool
	// Registry gives the runtimes' bindings (registry.go); the callers fill it from package
	// runtimes. Required.
	Registry Registry
}

// DefaultMaxRecord is the default for Options.MaxRecord.
const DefaultMaxRecord = 64 << 20

// Input is one file to read.
type Input struct {
	Name string    // path as the user gave it or as found by walking; used in messages
	R    io.Reader // the content, read once from the start
	// Named says the user named this file on the command line (so it is always read).
	Named bool
	// Judgment says the user named this file as a reviewing agent's output (--judgment): its
	// final message is read under the judgment binding whatever its format, and a file with no
	// final message ending in one agc block is a breach (fail closed).
	Judgment bool
	// At and Size, when set, give the file's bytes by offset, so that a reader may read parts of
	// a big file at once (chunks.go), Jobs goroutines at most; ChunkSize is the least bytes of a
	// part (0: DefaultChunkSize). R is then not read.
	At        io.ReaderAt
	Size      int64
	Jobs      int
	ChunkSize int64
	window    int // bytes of the file a chunk's reader holds at once (0: defaultWindow); tests make it small
}

// Reader reads one format. Read must consume in.R to the end or until ctx is done, turn every
// record into findings or a counted skip in set, and return an error only when the input as a whole
// could not be read (an I/O error); bad records are problems in set, not errors.
type Reader interface {
	Read(ctx context.Context, in Input, opts Options, set *findings.Set) error
}

// SniffSize is how many leading bytes detection looks at.
const SniffSize = 64 << 10

// HookLogFormat is the format of the hook log agc-sarif record writes, read for any runtime.
func HookLogFormat() FormatSpec {
	return FormatSpec{Name: HookLog, Sniff: sniffHookLog, Reader: hookLogReader{}}
}

// AGCFormat is the format of AGC JSON documents and JSONL.
func AGCFormat() FormatSpec { return FormatSpec{Name: AGC, Sniff: sniffAGC, Reader: agcReader{}} }

// JudgmentFormat is the format of a judging agent's final message.
func JudgmentFormat() FormatSpec {
	return FormatSpec{Name: Judgment, Sniff: sniffJudgment, Reader: judgmentReader{}}
}

// DetectLines looks for an input past the first bytes, for a file the user named whose head
// nothing recognises (a 70 KB junk line before a reviewer's block must not hide the block): it
// reads r line by line, up to limit bytes, and names the format of the first line that a reader
// recognises, with that line's number. It returns "" and the number of lines read when none does.
// Each line is judged on its first SniffSize bytes.
func (r Registry) DetectLines(ctx context.Context, rd io.Reader, limit int64) (Format, int, error) {
	br := bufio.NewReaderSize(io.LimitReader(rd, limit), SniffSize)
	line := 0
	for {
		if line&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return "", line, err
			}
		}
		head, err := br.ReadSlice('\n')
		if len(head) == 0 && err == io.EOF {
			return "", line, nil
		}
		line++
		if f := r.Detect(head); f != "" {
			return f, line, nil
		}
		for err == bufio.ErrBufferFull { // the rest of a long line
			_, err = br.ReadSlice('\n')
		}
		if err == io.EOF {
			return "", line, nil
		}
		if err != nil {
			return "", line, err
		}
	}
}
