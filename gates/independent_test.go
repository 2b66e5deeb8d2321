package gates

import (
	"slices"
	"testing"
)

// TestDecodeChecksIndependent: a schema error does not hide a semantic breach; each check runs
// on what can be read of the response.
func TestDecodeChecksIndependent(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"bad id and lighter verdict", `{"agc":"0.1","gate":{"id":"Bad!","kind":"runtime"},"verdict":"pass","findings":[{"rule":"r","message":"m","verdict":"block"}]}`,
			[]string{CheckSchema, CheckVerdictTooLight}},
		{"bad id, other minor, lighter verdict", `{"agc":"0.2","gate":{"id":"Bad!","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m","verdict":"block"}]}`,
			[]string{CheckNewerMinorVersion, CheckSchema, CheckVerdictTooLight}},
		{"bad verdict: nothing to compare", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"nope","findings":[{"rule":"r","message":"m","verdict":"block"}]}`,
			[]string{CheckSchema}},
		{"two schema errors", `{"agc":"0.1","gate":{"id":"Bad!","kind":"runtime"},"subject":5,"verdict":"block","findings":[{"rule":"r","message":"m"}]}`,
			[]string{CheckSchema, CheckSchema}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, bs := Decode([]byte(tt.in))
			if r != nil {
				t.Fatalf("a response that breaks the schema was read")
			}
			var got []string
			for _, b := range bs {
				got = append(got, b.Check)
			}
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("breaches %q, want %q", got, want)
			}
		})
	}
}
