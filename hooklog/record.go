// Package hooklog holds the hook log: one JSON line per hook invocation, written by
// `agc-sarif record` and read by `agc-sarif collect`.
package hooklog

import "encoding/json"

// Record is one hook invocation as `agc-sarif record` saw it. Field names are fixed by
// DESIGN §5; readers ignore fields they do not know.
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
}
