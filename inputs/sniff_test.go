package inputs

import (
	"bytes"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// sniffKeys are the keys the sniffers ask a head for.
var sniffKeys = []string{"type", "subtype", "sessionId", "parentUuid", "leafUuid", "thread_id", "payload", "projectHash", "session_id", "model"}

// checkHead fails when a head's members differ from what a walk of the bytes with jsonscan gives.
func checkHead(t *testing.T, b []byte) {
	t.Helper()
	h := NewHead(b)
	for _, k := range sniffKeys {
		want := jsonscan.Lookup(b, k)[0]
		if got := h.Get(k); !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("head %q: get(%q) = %q, want %q", b, k, got, want)
		}
	}
	var wantKey, wantVal []byte
	wantWhole := jsonscan.MembersAt(b, 0, func(k []byte, at, end int) bool {
		if wantKey == nil {
			wantKey = k
			if end >= 0 {
				wantVal = b[at:end]
			}
		}
		return true
	})
	if k, v := h.First(); !bytes.Equal(k, wantKey) || !bytes.Equal(v, wantVal) {
		t.Fatalf("head %q: first() = %q, %q; want %q, %q", b, k, v, wantKey, wantVal)
	}
	n := 0
	if whole := h.Keys(func([]byte) { n++ }); whole != wantWhole {
		t.Fatalf("head %q: keys() whole = %v, want %v", b, whole, wantWhole)
	}
}

// TestHead: a head found once answers every sniffer as walking the bytes again would.
func TestHead(t *testing.T) {
	for _, b := range headSeeds {
		checkHead(t, []byte(b))
	}
}

var headSeeds = []string{
	``,
	`{}`,
	`{"type":"system","subtype":"init","session_id":"s"}`,
	`{"type":"x","type":"y"}`,
	`{"ty\u0070e":"x","type":"y"}`,
	`{"type":"session_meta","payload":{"originator":"codex_cli"}`,
	`{"sessionId":"a","projectHash":"b","messages":[1,2`,
	`  {"payload": [1, {"a": "}"}], "type" : "init", "model":"m"}` + "\n{\"type\":\"other\"}",
	`[{"type":"system"}]`,
	`{"type":"x" "sessionId":"a"}`,
	`{"a":1,"type":"cut here`,
}

// FuzzHead: the same on any bytes.
func FuzzHead(f *testing.F) {
	for _, b := range headSeeds {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkHead(t, b) })
}
