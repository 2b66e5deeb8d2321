package hooklog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Encode returns rec as one JSON line ending in "\n"; HTML characters are left unescaped.
// The bytes are those of encoding/json's Encoder with SetEscapeHTML(false) (FuzzEncode holds
// them so); it is written out because the reflection behind that Encoder was 7% of every
// recorded hook call's CPU (README: Where we wrote code ourselves, and why).
func Encode(rec Record) ([]byte, error) {
	b := make([]byte, 0, 256+len(rec.Input)+len(rec.Stdout)+len(rec.Stderr))
	b = appendKey(b, FieldTime, true)
	b = jsonscan.AppendString(b, rec.Time)
	b = jsonscan.AppendString(appendKey(b, FieldRuntime, false), rec.Runtime)
	b = appendKey(b, FieldCommand, false)
	if rec.Command == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, w := range rec.Command {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonscan.AppendString(b, w)
		}
		b = append(b, ']')
	}
	b = appendKey(b, FieldInput, false)
	if rec.Input == nil {
		b = append(b, "null"...)
	} else {
		var err error
		if b, err = appendCompact(b, rec.Input); err != nil {
			return nil, fmt.Errorf("could not encode hook log record: json: error calling MarshalJSON for type json.RawMessage: %w", err)
		}
	}
	b = strconv.AppendInt(appendKey(b, FieldExitCode, false), int64(rec.ExitCode), 10)
	b = jsonscan.AppendString(appendKey(b, FieldStdout, false), rec.Stdout)
	b = jsonscan.AppendString(appendKey(b, FieldStderr, false), rec.Stderr)
	b = appendFloat(appendKey(b, FieldDurationMS, false), rec.DurationMS)
	b = appendOptional(b, FieldSignal, rec.Signal)
	if rec.TimedOut {
		b = append(appendKey(b, FieldTimedOut, false), "true"...)
	}
	b = appendOptional(b, FieldError, rec.Error)
	b = appendOptional(b, FieldStdoutEncoding, rec.StdoutEncoding)
	b = appendOptional(b, FieldInputEncoding, rec.InputEncoding)
	b = appendOptional(b, FieldStderrEncoding, rec.StderrEncoding)
	b = appendCut(b, FieldInputCut, rec.InputCut)
	b = appendCut(b, FieldStdoutCut, rec.StdoutCut)
	b = appendCut(b, FieldStderrCut, rec.StderrCut)
	return append(b, '}', '\n'), nil
}

// appendKey appends `"key":`, after `{` for the first field and `,` for the others.
func appendKey(b []byte, f Field, first bool) []byte {
	if first {
		b = append(b, '{')
	} else {
		b = append(b, ',')
	}
	return append(jsonscan.AppendString(b, f.Key()), ':')
}

// appendOptional appends an omitempty string field.
func appendOptional(b []byte, f Field, s string) []byte {
	if s == "" {
		return b
	}
	return jsonscan.AppendString(appendKey(b, f, false), s)
}

// appendCut appends an omitempty *Cut field.
func appendCut(b []byte, f Field, c *Cut) []byte {
	if c == nil {
		return b
	}
	b = append(appendKey(b, f, false), `{"kept":`...)
	b = strconv.AppendInt(b, c.Kept, 10)
	b = strconv.AppendInt(append(b, `,"size":`...), c.Size, 10)
	b = jsonscan.AppendString(append(b, `,"sha256":`...), c.SHA256)
	return append(b, '}')
}

// appendCompact appends raw JSON with its insignificant space removed, as encoding/json does
// for a json.RawMessage; invalid JSON is an error.
func appendCompact(b, raw []byte) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// appendFloat appends f as encoding/json writes a float64 (its floatEncoder, bits 64).
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...) // encoding/json fails here; a duration is never either
	}
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
