package record

import "testing"

func TestInputValue(t *testing.T) {
	tests := []struct {
		stdin   string
		want    string
		wantEnc string
	}{
		{`{"a": 1}` + "\n", `{"a": 1}` + "\n", ""}, // compacted when the record is encoded
		{"plain text", `"plain text"`, ""},
		{"", `""`, ""},
		{`{"cut": "sh`, `"{\"cut\": \"sh"`, ""},
		{"\"\xff\"", `"Iv8i"`, "base64"}, // JSON syntax but not UTF-8
	}
	for _, tc := range tests {
		got, enc := inputValue([]byte(tc.stdin), false)
		if string(got) != tc.want || enc != tc.wantEnc {
			t.Errorf("inputValue(%q) = %s, %q; want %s, %q", tc.stdin, got, enc, tc.want, tc.wantEnc)
		}
	}
}
