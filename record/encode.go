package record

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"time"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/agent"
	"github.com/agc-sarif/agc-sarif/hooklog"
)

// encodingBase64 is the encoding of a stream logged as base64.
const encodingBase64 = hooklog.EncodingBase64

// record makes the hook log record of a run. It drops o's copies of the streams as it encodes
// them, so a 100 MB stream is not held twice while the line is written.
func (o *outcome) record(opts Options) hooklog.Record {
	rec := hooklog.Record{
		Time:       o.start.UTC().Format(time.RFC3339Nano),
		Runtime:    opts.Runtime,
		Command:    opts.Command,
		ExitCode:   o.exitCode,
		DurationMS: float64(o.duration.Microseconds()) / 1000,
	}
	if rec.Command == nil {
		rec.Command = []string{}
	}
	rec.Input, rec.InputEncoding = inputValue(o.stdin, o.stdinCut != nil)
	o.stdin = nil
	if rec.Runtime == "" {
		rec.Runtime = agent.DetectEnv(rec.Input, opts.Getenv)
	}
	rec.Stdout, rec.StdoutEncoding = text(o.stdout)
	rec.Stderr, rec.StderrEncoding = text(o.stderr)
	o.stdout, o.stderr = nil, nil
	rec.InputCut, rec.StdoutCut, rec.StderrCut = o.stdinCut, o.stdoutCut, o.stderrCut
	if o.signal != 0 {
		rec.Signal = o.signal.String()
	}
	rec.TimedOut = timedOut(o.received)
	if o.startErr != nil {
		rec.ExitCode = o.notStart
		rec.Error = o.startErr.Error()
	}
	return rec
}

// inputValue is the hook's stdin as a JSON value: itself when it is JSON, else a JSON string,
// base64-encoded (with encoding "base64") when it is not UTF-8. The start of a cut stdin is
// always a string, even when it happens to be JSON on its own.
func inputValue(stdin []byte, cut bool) (json.RawMessage, string) {
	if !cut && utf8.Valid(stdin) && json.Valid(stdin) {
		return json.RawMessage(stdin), ""
	}
	if !utf8.Valid(stdin) || escapeCostly(stdin) {
		// Base64 needs no JSON escaping: quote it directly, with no string in between.
		b := make([]byte, base64.StdEncoding.EncodedLen(len(stdin))+2)
		b[0], b[len(b)-1] = '"', '"'
		base64.StdEncoding.Encode(b[1:len(b)-1], stdin)
		return b, encodingBase64
	}
	b, _ := json.Marshal(string(stdin)) // a Go string always marshals
	return b, ""
}

// text is a stream as a JSON string: itself when UTF-8, else base64 with encoding "base64".
// Text that JSON escaping would grow by more than base64 does (a stream of NULs grows six-fold)
// is stored base64 too, so the record's size stays within 4/3 of the kept bytes.
func text(b []byte) (string, string) {
	if utf8.Valid(b) && !escapeCostly(b) {
		return string(b), ""
	}
	return base64.StdEncoding.EncodeToString(b), encodingBase64
}

// escapeCostly says whether b as a JSON string would be over 4/3 of its length (base64's
// size): control characters take 2 or 6 bytes, quote and backslash 2, U+2028/U+2029 6 for 3.
func escapeCostly(b []byte) bool {
	extra, budget := 0, len(b)/3
	for i, c := range b {
		switch {
		case c == '\n' || c == '\r' || c == '\t' || c == '"' || c == '\\':
			extra++
		case c < 0x20:
			extra += 5
		case c == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9):
			extra += 3
		default:
			continue
		}
		if extra > budget && extra > 64 {
			return true
		}
	}
	return false
}

// describeLogError shortens a log write error that names the log file again.
func describeLogError(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
