package inputs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// judgmentReader reads a judging agent's final message (Markdown or text) under the judgment
// binding: the message must end with exactly one ```agc block. The whole file is one record.
type judgmentReader struct{}

// sniffJudgment recognises a message with a line that opens a fenced block with info string agc
// (```agc or ~~~agc, fences of any length, indented at most three spaces).
func sniffJudgment(head []byte) bool {
	for len(head) > 0 {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte("\n"))
		if isAGCFence(line) {
			return true
		}
	}
	return false
}

// isAGCFence reports whether line opens a fenced block whose info string is agc.
func isAGCFence(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 6 || t[0] != '`' && t[0] != '~' {
		return false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	return n >= 3 && string(bytes.TrimSpace(t[n:])) == "agc"
}

func (judgmentReader) Read(ctx context.Context, in Input, opts Options, set *findings.Set) error {
	max := opts.MaxRecord
	if max <= 0 {
		max = DefaultMaxRecord
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(in.R, int64(max)+1))
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	src := findings.Source{File: in.Name, Line: 1}
	if len(data) > max {
		if _, err := io.Copy(io.Discard, in.R); err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
		set.Problemf(src, "too long", "the message is longer than the record limit of %d bytes; not read", max)
		return nil
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		src.Line = bytes.Count(data[:i], []byte{'\n'}) + 1
		set.Problemf(src, "binary data", "binary data (a NUL byte), not a judging agent's message; not read")
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		i := invalidUTF8At(data)
		set.Problems = append(set.Problems, findings.Problem{
			Source:  findings.Source{File: in.Name, Line: bytes.Count(data[:i], []byte{'\n'}) + 1},
			Message: "not valid UTF-8; the bad bytes were read as U+FFFD"})
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	addJudgment(gates.ReadJudgment(string(data)), in.Name, set)
	return nil
}

// addJudgment turns a judgment read from file into findings, and counts it as one record. Gate
// findings stand at the line of the block; breaches at their own lines. Findings that state no
// location are left without one (they are anchored later).
func addJudgment(j gates.JudgmentResult, file string, set *findings.Set) {
	n := 0
	if j.Response != nil {
		line := j.BlockLine
		if line < 1 {
			line = 1
		}
		for _, f := range findings.FromResponse(j.Response, findings.Finding{Source: findings.Source{File: file, Line: line}}) {
			set.Add(f)
			n++
		}
	}
	for _, b := range j.Breaches {
		set.Add(findings.FromBreach(b, findings.Finding{Source: findings.Source{File: file, Line: 1}}))
		n++
	}
	switch {
	case n > 0:
		set.Use()
	case j.Response != nil && j.Response.Verdict == gates.Pass:
		set.Skip("pass verdict")
	default:
		set.Skip("no findings above pass")
	}
}
