package collect

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// matrixSuffix is the part of the default category that tells matrix legs apart: "key:value/"
// for every entry of the job's matrix (toJSON(matrix), passed as INPUT_MATRIX), in the order
// codeql-action's computeAutomationID sorts them. Like codeql-action, a value that is an object,
// an array or null is written as "key:/"; unlike it, a number or a boolean is written as its JSON
// text, so that legs such as node: 18 and node: 20 do not overwrite each other. "" when there is
// no matrix or it is not a JSON object.
func matrixSuffix(input string) string {
	var m map[string]json.RawMessage
	if input == "" || input == "null" || json.Unmarshal([]byte(input), &m) != nil || len(m) == 0 {
		return ""
	}
	type entry struct{ key, value, sortAs string }
	entries := make([]entry, 0, len(m))
	for k, raw := range m {
		v := matrixValue(raw)
		// JavaScript sorts the [key, value] pairs as the strings "key,value".
		entries = append(entries, entry{key: k, value: v, sortAs: k + "," + jsString(raw, v)})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].sortAs < entries[j].sortAs })
	var b bytes.Buffer
	for _, e := range entries {
		b.WriteString(e.key + ":" + e.value + "/")
	}
	return b.String()
}

// matrixValue is the text of one matrix value in the category.
func matrixValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return strconv.FormatBool(b)
	}
	return ""
}

// jsString is what JavaScript's String() makes of the value, for sorting only.
func jsString(raw json.RawMessage, v string) string {
	switch {
	case v != "" || string(raw) == `""`:
		return v
	case bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")):
		return "[object Object]"
	case string(bytes.TrimSpace(raw)) == "null":
		return "null"
	}
	return "" // an array: its elements joined by ","; close enough for an order of keys
}
