package inputs

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// skel runs s through a skeleton with the given keep, fed in chunks of size step.
func skel(s string, keep, step int) (string, int) { return skelBudget(s, keep, 0, step) }

// skelBudget is skel with a budget (0: elideBudget).
func skelBudget(s string, keep, budget, step int) (string, int) {
	sk := skeleton{keepByte: keep, budget: budget}
	sk.reset()
	b := []byte(s)
	for len(b) > 0 {
		n := min(step, len(b))
		sk.write(b[:n])
		b = b[n:]
	}
	return string(sk.out), sk.cuts
}

func TestSkeleton(t *testing.T) {
	tests := []struct {
		name string
		in   string
		keep int
		want string
		cuts int
	}{
		{"short strings kept", `{"a":"xy","b":[1,"z"]}`, 4, `{"a":"xy","b":[1,"z"]}`, 0},
		{"long string cut", `{"a":"abcdefgh","b":1}`, 4, `{"a":"abcd","b":1}`, 1},
		{"long key cut", `{"abcdefgh":1}`, 3, `{"abc":1}`, 1},
		{"escaped quote inside", `{"a":"ab\"cdefg","b":"q"}`, 10, `{"a":"ab\"cdefg","b":"q"}`, 0},
		{"escaped quote past the cut", `{"a":"abcd\"efg","b":"q"}`, 4, `{"a":"abcd","b":"q"}`, 1},
		{"cut inside an escape", `{"a":"abc\nxyz"}`, 4, `{"a":"abc"}`, 1},
		{"cut inside a unicode escape", `{"a":"ab\u00e9xyz"}`, 6, `{"a":"ab"}`, 1},
		{"cut after an escaped backslash", `{"a":"ab\\xyz"}`, 4, `{"a":"ab\\"}`, 1},
		{"cut inside a UTF-8 character", "{\"a\":\"ab\u00e9xyz\"}", 3, `{"a":"ab"}`, 1},
		{"backslashes before a quote", `{"a":"\\\\","b":"c"}`, 8, `{"a":"\\\\","b":"c"}`, 0},
		{"unterminated string", `{"a":"abcdefgh`, 4, `{"a":"abcd`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, step := range []int{1, 2, 3, 7, 1 << 20} {
				got, cuts := skel(tt.in, tt.keep, step)
				if got != tt.want || cuts != tt.cuts {
					t.Fatalf("step %d: got %s (%d cuts), want %s (%d cuts)", step, got, cuts, tt.want, tt.cuts)
				}
			}
		})
	}
}

// TestSkeletonBudget: past the budget, containers nested dropDepth deep keep the members they
// have, the members of the record and of its first level are all kept, and the JSON stays valid.
func TestSkeletonBudget(t *testing.T) {
	tests := []struct {
		name, in, want string
		cuts           int
	}{
		{"under the budget", `{"a":{"b":[1,2]},"c":3}`, `{"a":{"b":[1,2]},"c":3}`, 0},
		{"array cut", `{"in":{"r":{"names":["aaaa","bbbb","cccc"]},"id":"t"},"stdout":"x"}`,
			`{"in":{"r":{"names":["aaaa","bbbb"]},"id":"t"},"stdout":"x"}`, 1},
		{"nested containers dropped whole", `{"in":{"r":[{"a":1},{"b":[1,2,[3]]},"q"],"id":"t"},"z":[1,2,3,4,5,6,7,8,9]}`,
			`{"in":{"r":[{"a":1},{"b":[1,2,[3]]}],"id":"t"},"z":[1,2,3,4,5,6,7,8,9]}`, 1},
		{"brackets in dropped strings", `{"in":{"r":["aaaaaaaaaaaaaaaaaaaa","]}\"]","x"],"id":"t"}}`,
			`{"in":{"r":["aaaaaaaaaaaaaaaaaaaa"],"id":"t"}}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, step := range []int{1, 2, 5, 1 << 20} {
				got, cuts := skelBudget(tt.in, 64, 30, step)
				if !json.Valid([]byte(got)) {
					t.Fatalf("step %d: skeleton %s is not valid JSON", step, got)
				}
				if got != tt.want {
					t.Fatalf("step %d: got %s (%d cuts), want %s", step, got, cuts, tt.want)
				}
				if tt.cuts > 0 && cuts == 0 {
					t.Fatalf("step %d: no cut counted", step)
				}
			}
		})
	}
}

// TestWindowedLongLine: a line longer than the window reaches the reader as its skeleton, with
// Elided set, the lines around it are whole, and line numbers stay true.
func TestWindowedLongLine(t *testing.T) {
	big := strings.Repeat("0123456789\\n\\\"", (3*ElideWindow)/14)
	in := `{"a":1}` + "\n" + `{"type":"user","content":"` + big + `","id":"t1"}` + "\n" + `{"b":2}` + "\n"
	var got []Record
	err := ScanWindowed(t.Context(), strings.NewReader(in), 0, func(r Record) error {
		r.Data = bytes.Clone(r.Data)
		got = append(got, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Line != 1 || got[1].Line != 2 || got[2].Line != 3 {
		t.Fatalf("records %d, lines wrong", len(got))
	}
	if got[0].Elided || !got[1].Elided || got[2].Elided {
		t.Errorf("elided flags %v %v %v, want false true false", got[0].Elided, got[1].Elided, got[2].Elided)
	}
	if n := len(got[1].Data); n > ElideKeep+64 {
		t.Errorf("skeleton holds %d bytes, want at most %d", n, ElideKeep+64)
	}
	var v struct{ Type, Content, ID string }
	if err := json.Unmarshal(got[1].Data, &v); err != nil || v.Type != "user" || v.ID != "t1" || !strings.HasPrefix(big, strings.ReplaceAll(strings.ReplaceAll(v.Content, "\n", `\n`), `"`, `\"`)) {
		t.Errorf("skeleton not the line's JSON cut short: %v %q %q", err, v.Type, v.ID)
	}
}

// FuzzSkeleton: the skeleton of valid JSON is valid JSON, whatever the chunking, and never
// longer than the input.
func FuzzSkeleton(f *testing.F) {
	f.Add([]byte(`{"a":"abc\"def\\","b":["\u00e9xyz"]}`), 3, 2)
	f.Add([]byte(`"\\\\\\\""`), 2, 1)
	f.Fuzz(func(t *testing.T, in []byte, keep, step int) {
		keep, step = 1+abs(keep)%16, 1+abs(step)%16
		if budget := keep * 4; true { // a small budget: the cut containers keep the JSON valid too
			got, _ := skelBudget(string(in), keep, budget, step)
			whole, _ := skelBudget(string(in), keep, budget, len(in)+1)
			if json.Valid(in) && !json.Valid([]byte(got)) || got != whole {
				t.Fatalf("budget %d: skeleton of %q is %q (whole: %q)", budget, in, got, whole)
			}
		}
		got, _ := skel(string(in), keep, step)
		if len(got) > len(in) {
			t.Fatalf("skeleton %d bytes longer than input %d", len(got), len(in))
		}
		if json.Valid(in) && !json.Valid([]byte(got)) {
			t.Fatalf("skeleton of valid JSON %q is not valid: %q", in, got)
		}
		whole, _ := skel(string(in), keep, len(in)+1)
		if whole != got {
			t.Fatalf("chunking changed the skeleton: %q vs %q", got, whole)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
