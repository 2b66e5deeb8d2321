package record

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io/fs"
	"time"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/hooklog"
)

// Encodings of a logged stream.
const encodingBase64 = "base64"

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
	rec.Input, rec.InputEncoding = inputValue(o.stdin)
	o.stdin = nil
	if rec.Runtime == "" {
		rec.Runtime = DetectRuntime(rec.Input)
	}
	rec.Stdout, rec.StdoutEncoding = text(o.stdout)
	rec.Stderr, rec.StderrEncoding = text(o.stderr)
	o.stdout, o.stderr = nil, nil
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
// base64-encoded (with encoding "base64") when it is not UTF-8.
func inputValue(stdin []byte) (json.RawMessage, string) {
	if utf8.Valid(stdin) && json.Valid(stdin) {
		return json.RawMessage(stdin), ""
	}
	if !utf8.Valid(stdin) {
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
func text(b []byte) (string, string) {
	if utf8.Valid(b) {
		return string(b), ""
	}
	return base64.StdEncoding.EncodeToString(b), encodingBase64
}

// describeLogError shortens a log write error that names the log file again.
func describeLogError(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
