package inputs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// judgmentReader reads a judging agent's final message (Markdown or text) under the judgment
// binding: the message must end with exactly one ```agc block. The whole file is one record.
type judgmentReader struct{}

// sniffJudgment recognises a message that holds an agc block (see HoldsAGCBlock).
func sniffJudgment(h *Head) bool { return HoldsAGCBlock(string(h.raw)) }

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
		if in.Judgment {
			AddMissingJudgment("the reviewer's output is longer than the record limit and was not read", findings.Finding{Source: src}, opts, set)
		}
		return nil
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		src.Line = bytes.Count(data[:i], []byte{'\n'}) + 1
		set.Problemf(src, "binary data", "binary data (a NUL byte), not a judging agent's message; not read")
		if in.Judgment {
			AddMissingJudgment("the reviewer's output is binary data, not a message", findings.Finding{Source: src}, opts, set)
		}
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		i := jsonscan.InvalidUTF8(data)
		set.Problems = append(set.Problems, findings.Problem{
			Source:  findings.Source{File: in.Name, Line: bytes.Count(data[:i], []byte{'\n'}) + 1},
			Message: "not valid UTF-8; the bad bytes were read as U+FFFD"})
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	addJudgment(gates.ReadJudgment(string(data)), string(data), findings.Finding{Source: findings.Source{File: in.Name}, Named: in.Judgment}, opts, set)
	return nil
}

// addJudgment turns a judgment read from a file (the message text, read into j) into findings,
// and counts it as one record. Gate findings stand at the line of the block; breaches at their
// own lines, else line 1.
// Findings that state no location are left without one (they are anchored later). They are keyed
// as AddFinalJudgment keys them, so the message read from its own file and from the run's
// stream or transcript is one judgment.
func addJudgment(j gates.JudgmentResult, text string, base findings.Finding, opts Options, set *findings.Set) {
	key := judgmentKey(findings.Finding{}, text)
	n := 0
	add := func(f findings.Finding, line int) {
		if f.Source.Line < 1 {
			f.Source.Line = line
		}
		f.EventKey = key + "/" + strconv.Itoa(n)
		opts.add(set, f)
		n++
	}
	if j.Response != nil {
		at := base
		at.Source.Line = max(j.BlockLine, 1)
		for _, f := range findings.FromResponse(j.Response, at) {
			add(f, at.Source.Line)
		}
	}
	for _, b := range j.Breaches {
		at := base
		at.Source.Line = 1 // FromBreach moves it to the breach's own line when it has one
		add(findings.FromBreach(b, at), 1)
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

// HoldsAGCBlock reports whether a final message holds a fenced block with info string agc (```agc
// or ~~~agc, fences of any length, indented at most three spaces), as the judgment binding finds
// its blocks: then it is read as a judgment even when its file was not named as one. Asking the
// binding itself means a line that only looks like a fence (inside another block, say) is no block
// here either.
func HoldsAGCBlock(text string) bool { return gates.ReadJudgment(text).BlockLine > 0 }

// AddFinalJudgment reads a judging agent's final message taken from one record of a run (a
// transcript's last assistant message, stream-json's result) under the judgment binding, and
// counts it as one record. Its findings stand at that record (base.Source): lines inside the
// message are not lines of the file. They share an event key made of the session and the text,
// so the same message read from the transcript and from stream-json of one run is one judgment.
func AddFinalJudgment(text string, base findings.Finding, opts Options, set *findings.Set) {
	j := gates.ReadJudgment(text)
	for i := range j.Breaches {
		j.Breaches[i].Line = 0
	}
	key := judgmentKey(base, text)
	n := 0
	add := func(f findings.Finding) {
		f.EventKey = key + "/" + strconv.Itoa(n)
		opts.add(set, f)
		n++
	}
	if j.Response != nil {
		for _, f := range findings.FromResponse(j.Response, base) {
			add(f)
		}
	}
	for _, b := range j.Breaches {
		add(findings.FromBreach(b, base))
	}
	switch {
	case n > 0:
		set.Use()
	case j.Response != nil:
		set.Skip(SkipJudgmentPass)
	default:
		set.Skip(SkipNoAGCBlock)
	}
}

// AddMissingJudgment adds the judgment-binding breach of a file named as a reviewing agent's
// output in which no final message could be read; why says what was missing.
func AddMissingJudgment(why string, base findings.Finding, opts Options, set *findings.Set) {
	opts.add(set, findings.FromBreach(gates.Breach{Check: gates.CheckJudgmentNoBlock,
		Message: why + ", so the judgment has no verdict (fail closed)"}, base))
}

// judgmentKey is the event key of a final message: a hash of its text. The same message read from
// its own file (--judgment review.md), from the run's stream-json and from its transcript is one
// judgment, whichever of them names the run.
func judgmentKey(_ findings.Finding, text string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))))
	return "judgment/" + hex.EncodeToString(sum[:8])
}
