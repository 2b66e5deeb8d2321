// Package hooklog holds the hook log: one JSON line per hook invocation, written by
// `agc-sarif record` and read by `agc-sarif collect`.
package hooklog

import "encoding/json"

// Record is one hook invocation as `agc-sarif record` saw it. Field names are fixed by
// docs/inputs.md, "Recording hooks"; readers ignore fields they do not know. Every field has a Field constant below.
type Record struct {
	Time    string   `json:"time"`    // RFC 3339 with nanoseconds, when the hook started
	Runtime string   `json:"runtime"` // "claude-code" unless the input says otherwise
	Command []string `json:"command"` // the hook command line as run
	// Input is the hook's stdin: the JSON value itself when stdin was JSON, else a JSON string.
	Input json.RawMessage `json:"input"`
	// ExitCode is the hook's exit status: -1 when a signal killed it, 127 (not found) or 126
	// (not executable) when it could not be started, as a shell reports them.
	ExitCode   int     `json:"exit_code"`
	Stdout     string  `json:"stdout"`
	Stderr     string  `json:"stderr"`
	DurationMS float64 `json:"duration_ms"`
	// Signal names the signal that ended the hook ("killed", "terminated"), when one did.
	Signal string `json:"signal,omitempty"`
	// TimedOut says the hook was ended by a timeout (a signal from the runtime).
	TimedOut bool `json:"timed_out,omitempty"`
	// Error says why the hook could not be started (not found, not executable), when it could not.
	Error string `json:"error,omitempty"`
	// StdoutEncoding / StderrEncoding are "base64" when the stream was not valid UTF-8 and is
	// stored base64-encoded; empty for plain text.
	StdoutEncoding string `json:"stdout_encoding,omitempty"`
	// InputEncoding is "base64" when stdin was not valid UTF-8: Input is then a JSON string
	// holding it base64-encoded.
	InputEncoding  string `json:"input_encoding,omitempty"`
	StderrEncoding string `json:"stderr_encoding,omitempty"`
	// InputCut, StdoutCut and StderrCut are set when that stream was longer than the recorder
	// keeps: the record holds its first Cut.Kept bytes (Input then is a JSON string, encoded as
	// InputEncoding says), while the hook and its caller saw every byte.
	InputCut  *Cut `json:"input_cut,omitempty"`
	StdoutCut *Cut `json:"stdout_cut,omitempty"`
	StderrCut *Cut `json:"stderr_cut,omitempty"`
}

// Cut describes a stream of which the record keeps only the start.
type Cut struct {
	Kept   int64  `json:"kept"`   // bytes at the start of the stream that the record holds
	Size   int64  `json:"size"`   // bytes the whole stream had
	SHA256 string `json:"sha256"` // hex SHA-256 of the whole stream
}

// Field names one key of a Record; readers switch on it instead of copying the key list.
type Field int

// The fields of a Record, in the order they are written.
const (
	FieldTime Field = iota
	FieldRuntime
	FieldCommand
	FieldInput
	FieldExitCode
	FieldStdout
	FieldStderr
	FieldDurationMS
	FieldSignal
	FieldTimedOut
	FieldError
	FieldStdoutEncoding
	FieldInputEncoding
	FieldStderrEncoding
	FieldInputCut
	FieldStdoutCut
	FieldStderrCut
	NumFields // the number of fields, not a field
)

// fieldKeys are the JSON keys of the fields, by Field (a test holds them to Record's tags).
var fieldKeys = [NumFields]string{
	"time", "runtime", "command", "input", "exit_code", "stdout", "stderr", "duration_ms",
	"signal", "timed_out", "error", "stdout_encoding", "input_encoding", "stderr_encoding",
	"input_cut", "stdout_cut", "stderr_cut",
}

// Key is the JSON key of f.
func (f Field) Key() string {
	if f < 0 || f >= NumFields {
		return ""
	}
	return fieldKeys[f]
}

// Lookup returns the field whose JSON key is key (unescaped), or -1 and false.
func Lookup(key []byte) (Field, bool) {
	for i, k := range fieldKeys {
		if string(key) == k {
			return Field(i), true
		}
	}
	return -1, false
}

// EncodingBase64 is the one stream encoding: the value is the stream's bytes in standard base64.
const EncodingBase64 = "base64"
