package inputs

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// Cheap readers of raw JSON scalars for the record formats. Transcripts hold records of many
// megabytes (tool output, API request blobs) that cannot carry a hook answer; internal/jsonscan
// finds a record's members without decoding the rest, and these decode the few values needed.

// RawStr decodes a raw JSON string value; anything else (absent, null, a number) is "".
func RawStr(v []byte) string {
	s, _ := jsonscan.Unquote(v)
	return s
}

// RawIs reports whether RawStr(v) == s, without decoding v when it is a plain string.
func RawIs(v []byte, s string) bool {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' {
		if c := v[1 : n-1]; bytes.IndexByte(c, '\\') < 0 && jsonscan.Plain(c) {
			return string(c) == s // what Unquote returns for such a string
		}
	}
	return RawStr(v) == s
}

// RawInt decodes a raw JSON integer; ok is false when v is not one.
func RawInt(v []byte) (int, bool) {
	if len(v) > 0 && len(v) < 19 {
		d := bytes.TrimPrefix(v, []byte("-"))
		if n, err := strconv.Atoi(string(v)); err == nil && len(d) > 0 && d[0] >= '0' && d[0] <= '9' && (d[0] != '0' || len(d) == 1) {
			return n, true
		}
	}
	var n int
	if len(v) == 0 || json.Unmarshal(v, &n) != nil {
		return 0, false
	}
	return n, true
}

// RawBool reports whether v is the JSON literal true.
func RawBool(v []byte) bool { return string(v) == "true" }
