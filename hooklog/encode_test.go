package hooklog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func sample(n int) Record {
	return Record{
		Time: "2026-11-30T09:40:00Z", Runtime: "claude-code", Command: []string{"guard.sh"},
		Input: json.RawMessage(fmt.Sprintf(`{"n": %d, "html": "<a & b>"}`, n)), ExitCode: n,
		Stdout: strings.Repeat("x", n), DurationMS: 1.5,
	}
}

func TestEncode(t *testing.T) {
	b, err := Encode(sample(2))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"time":"2026-11-30T09:40:00Z","runtime":"claude-code","command":["guard.sh"],"input":{"n":2,"html":"<a & b>"},"exit_code":2,"stdout":"xx","stderr":"","duration_ms":1.5}` + "\n"
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if _, err := Encode(Record{Input: json.RawMessage(`{bad`)}); err == nil {
		t.Error("invalid input JSON encoded without error")
	}
}
