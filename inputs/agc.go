package inputs

import (
	"github.com/agc-sarif/agc-sarif/internal/plural"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
	"github.com/agc-sarif/agc-sarif/internal/lazyre"
)

// agcReader reads AGC responses: one JSON document (a response, or an array of responses), JSON
// lines (one response per line, or pretty-printed values one after another), and lines holding
// only the text form `AGC <verdict>: <gate>/<rule>[/<target>] — <message>`.
type agcReader struct{}

// maxAGCRecord is the largest AGC record read whole when Options.MaxRecord is 0: a response is a
// few kilobytes, so anything near this is not one.
const maxAGCRecord = 16 << 20

// maxProblemsPerReason caps the problems reported for one file and reason; further records with
// the same problem are counted as skipped and summed up in one last problem.
const maxProblemsPerReason = 10

var agcKey = lazyre.New(`"agc"\s*:`)

// sniffAGC recognises a file that starts with a JSON object or array holding an "agc" key, or
// whose first line is the text form.
func sniffAGC(h *Head) bool {
	head := h.raw
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) == 0 {
		return false
	}
	if t[0] == '{' || t[0] == '[' {
		if bytes.Contains(t, []byte(`"runs"`)) && bytes.Contains(t, []byte("sarif")) {
			return false // a SARIF log, perhaps one this tool wrote
		}
		return agcKey.Match(t)
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	_, ok := gates.ParseText(string(line))
	return ok
}

// agcFile is the state of reading one AGC file.
type agcFile struct {
	name     string
	set      *findings.Set
	problems map[string]int // problems seen per reason
	redact   func(string) string
	opts     Options
	made     []findings.Finding // one record's findings, reused from record to record
}

func (agcReader) Read(ctx context.Context, in Input, opts Options, set *findings.Set) error {
	max := opts.MaxRecord
	if max <= 0 {
		max = maxAGCRecord
	}
	f := &agcFile{name: in.Name, set: set, problems: map[string]int{}, redact: opts.Redact, opts: opts}
	r, passed, err := f.document(in.R, max)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	if r == nil { // one JSON array, read whole
		return nil
	}
	records := 0
	// A line longer than the window reaches record as its skeleton: every key and the head of
	// every string, so a 50 MB message costs the window, not the line (outputs cut it anyway).
	err = scanFrom(ctx, r, max, ElideWindow, passed, func(rec Record) error {
		records++
		f.record(rec)
		return nil
	})
	f.finish()
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	if records == 0 {
		set.Problems = append(set.Problems, findings.Problem{Source: findings.Source{File: in.Name},
			Message: "empty file: no AGC responses"})
	}
	return nil
}

// document reads a file that starts with '[' as one JSON array of responses, whatever its layout,
// and returns nil; for any other file it returns a reader of the rest for scanRecords and the
// number of blank lines already passed over.
func (f *agcFile) document(r io.Reader, max int) (io.Reader, int, error) {
	br := BufReader(r)
	line := 1
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return br, line - 1, nil
		}
		if err != nil {
			return nil, 0, err
		}
		switch b[0] {
		case '\n':
			line++
			fallthrough
		case ' ', '\t', '\r':
			if _, err := br.Discard(1); err != nil {
				return nil, 0, err
			}
			continue
		}
		if b[0] != '[' {
			return br, line - 1, nil
		}
		break
	}
	data, err := io.ReadAll(io.LimitReader(br, int64(max)+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > max || !json.Valid(data) { // JSON lines of arrays, or a broken document
		return io.MultiReader(bytes.NewReader(data), br), line - 1, nil
	}
	f.array(findings.Source{File: f.name, Line: line}, data)
	return nil, 0, nil
}

// record reads one record: a response, an array of responses, or a text-form line.
func (f *agcFile) record(rec Record) {
	src := findings.Source{File: f.name, Line: rec.Line}
	data := bytes.TrimPrefix(rec.Data, []byte("\xef\xbb\xbf"))
	switch {
	case rec.Problem != "":
		reason := "too long"
		if bytes.Contains([]byte(rec.Problem), []byte("cut short")) {
			reason = "cut short"
		}
		f.problem(src, reason, rec.Problem)
	case bytes.IndexByte(data, 0) >= 0:
		f.problem(src, "binary data", "binary data (a NUL byte), not an AGC response; skipped")
	case !utf8.Valid(data):
		f.problem(src, "invalid UTF-8", fmt.Sprintf("not valid UTF-8 (byte %d of the record); skipped", jsonscan.InvalidUTF8(data)+1))
	case data[0] == '[' && json.Valid(data):
		f.array(src, data)
	case data[0] == '{' || data[0] == '[':
		if hasAGCKey(data) || !json.Valid(data) {
			r, bs := gates.Decode(data)
			f.add(src, r, bs)
			return
		}
		f.problem(src, "not an AGC response", "a JSON object with none of the AGC fields (agc, gate, verdict, findings); skipped")
	default:
		if data[0] == '"' && f.quoted(src, data) {
			return
		}
		if r, ok := gates.ParseText(string(data)); ok {
			f.add(src, r, nil)
			return
		}
		f.problem(src, "not an AGC response", fmt.Sprintf("neither JSON nor an AGC text line: %s; skipped", Preview(f.redact, data)))
	}
}

// quoted reads a record that is a JSON string holding a response (JSON or the text form), as an
// additionalContext value copied out of a hook's answer is; it reports whether it was one.
func (f *agcFile) quoted(src findings.Source, data []byte) bool {
	var inner string
	if json.Unmarshal(data, &inner) != nil {
		return false
	}
	inner = strings.TrimSpace(inner)
	if strings.HasPrefix(inner, "{") && agcKey.MatchString(inner) {
		r, bs := gates.Decode([]byte(inner))
		for i := range bs {
			bs[i].Line = 0 // lines inside the string are not lines of the file
		}
		f.add(src, r, bs)
		return true
	}
	if r, ok := gates.ParseText(inner); ok {
		f.add(src, r, nil)
		return true
	}
	return false
}

// array reads a JSON array of responses, which json.Valid accepted; each element counts as one
// record at its own line.
func (f *agcFile) array(src findings.Source, data []byte) {
	n, line, pos := 0, src.Line, 0
	jsonscan.ElementsAt(data, 0, func(at, end int) bool {
		line += bytes.Count(data[pos:at], []byte{'\n'})
		pos = at
		esrc := findings.Source{File: src.File, Line: line}
		r, bs := gates.Decode(data[at:end])
		f.add(esrc, r, bs)
		n++
		return true
	})
	if n == 0 {
		f.set.Skip("empty array")
	}
}

// add turns one decoded response and its breaches into findings, and counts the record.
func (f *agcFile) add(src findings.Source, r *gates.Response, bs []gates.Breach) {
	base := findings.Finding{Source: src}
	if r != nil && r.Subject != nil {
		base.EventKey = eventKey(findings.Call{Runtime: r.Subject.Runtime, Event: r.Subject.Event,
			ToolUseID: r.Subject.ToolUseID, SessionID: r.Subject.SessionID})
	}
	n := 0
	if r != nil {
		f.made = findings.AppendFromResponse(f.made[:0], r, base)
		for _, fd := range f.made {
			f.opts.add(f.set, fd)
			n++
		}
		clear(f.made) // the set holds copies: keep nothing of them alive here
	}
	for _, b := range bs {
		f.opts.add(f.set, findings.FromBreach(b, base))
		n++
	}
	switch {
	case n > 0:
		f.set.Use()
	case r != nil && r.Verdict == gates.Pass:
		f.set.Skip("pass verdict")
	default:
		f.set.Skip("no findings above pass")
	}
}

// problem reports a record that could not be read, at most maxProblemsPerReason times per reason.
func (f *agcFile) problem(src findings.Source, reason, msg string) {
	f.problems[reason]++
	if f.problems[reason] > maxProblemsPerReason {
		f.set.Skip(reason)
		return
	}
	f.set.Problemf(src, reason, "%s", msg)
}

// finish sums up the problems that were counted but not listed.
func (f *agcFile) finish() {
	for _, reason := range sortedKeys(f.problems) {
		if n := f.problems[reason] - maxProblemsPerReason; n > 0 {
			f.set.Problems = append(f.set.Problems, findings.Problem{Source: findings.Source{File: f.name},
				Message: fmt.Sprintf("%s skipped (%s) and not listed", plural.N(n, "more record", "more records"), reason)})
		}
	}
}

// hasAGCKey reports whether a JSON object has any of the AGC response fields at its top level,
// walking its keys without decoding the values. It also says yes when it cannot tell (the object
// cannot be walked, or a key is written with escapes), so that Decode reads the record and says
// what it is.
func hasAGCKey(data []byte) bool {
	found := false
	whole := jsonscan.Members(data, func(k, _ []byte) bool {
		switch string(k) {
		case "agc", "gate", "verdict", "findings":
			found = true
		default:
			found = bytes.IndexByte(k, '\\') >= 0
		}
		return !found
	})
	return found || !whole
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Preview shows the start of an unreadable record, redacted (through red, when set), then cut
// short and escaped: redacting first means the cut never keeps part of a secret. Only the first 16
// KiB are redacted, far more than any secret that could start in what is shown.
func Preview(red func(string) string, data []byte) string {
	const n, window = 40, 16 << 10
	if len(data) > window {
		data = data[:window]
	}
	s := string(bytes.ToValidUTF8(data, nil))
	if red != nil {
		s = red(s)
	}
	if len(s) > n {
		i := n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "…"
	}
	return fmt.Sprintf("%q", s)
}
