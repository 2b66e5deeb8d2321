package inputs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

func TestRawValues(t *testing.T) {
	if got := RawStr([]byte(`"a\nb\u00e9"`)); got != "a\nbé" {
		t.Errorf("RawStr escaped = %q", got)
	}
	if got := RawStr([]byte(`12`)); got != "" {
		t.Errorf("RawStr number = %q", got)
	}
	if n, ok := RawInt([]byte(`2`)); !ok || n != 2 {
		t.Errorf("RawInt = %d %v", n, ok)
	}
	if _, ok := RawInt([]byte(`"2"`)); ok {
		t.Errorf("RawInt of a string reported ok")
	}
	if !RawBool([]byte(`true`)) || RawBool([]byte(`"true"`)) {
		t.Errorf("RawBool")
	}
}

func TestScanArray(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want []string // "line:data" or "line!problem-prefix"
	}{
		{"pretty", "[\n  {\n    \"type\": \"system\"\n  },\n  {\"a\": \"]}\\\"\"}\n]\n", 0,
			[]string{"2:{\n    \"type\": \"system\"\n  }", `5:{"a": "]}\""}`}},
		{"empty", " [ ] ", 0, nil},
		{"scalars", `[1, "x", true]`, 0, []string{"1:1", `1:"x"`, "1:true"}},
		{"cut short", "[\n{\"a\":1},\n{\"b\":", 0, []string{`2:{"a":1}`, "3!the JSON value starting here is cut short"}},
		{"too long", "[{\"a\":\"" + strings.Repeat("x", 100) + "\"},\n{\"b\":2}]", 50,
			[]string{"1!JSON value longer than the record limit of 50 bytes", `2:{"b":2}`}},
		{"not an array", `{"type":"system"}`, 0, []string{"1!not a JSON array"}},
		{"nested arrays", `[[1,[2]],{"a":[{}]}]`, 0, []string{"1:[1,[2]]", `1:{"a":[{}]}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			err := ScanArray(context.Background(), strings.NewReader(tc.in), tc.max, func(r Record) error {
				if r.Problem != "" {
					got = append(got, fmt.Sprintf("%d!%s", r.Line, r.Problem))
				} else {
					got = append(got, fmt.Sprintf("%d:%s", r.Line, r.Data))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("element %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestScanArrayChunks checks elements that straddle the reader's buffer.
func TestScanArrayChunks(t *testing.T) {
	big := strings.Repeat("y", 600<<10) // longer than the 256 KiB buffer
	in := "[{\"a\":\"" + big + "\"},{\"b\":1}]"
	var sizes []int
	err := ScanArray(context.Background(), strings.NewReader(in), 0, func(r Record) error {
		if r.Problem != "" {
			t.Errorf("problem %s", r.Problem)
		}
		sizes = append(sizes, len(r.Data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 2 || sizes[0] != len(big)+8 || sizes[1] != 7 {
		t.Errorf("element sizes %v", sizes)
	}
}

// FuzzRawScalars: RawStr and RawInt agree with encoding/json on any raw value.
func FuzzRawScalars(f *testing.F) {
	for _, s := range []string{`"a\nb\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"x\u0000"`, "\"\x01\"", `"\/\\\""`, `-0`, `01`, `-01`, `12`, `1e2`, `"\xff\\n"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if jsonscan.ValueEnd(v, 0) != len(v) {
			return // the readers hand these helpers one whole raw value
		}
		var s string
		want := ""
		if json.Unmarshal(v, &s) == nil && len(v) > 0 && v[0] == '"' {
			want = s
		}
		if got := RawStr(v); got != want && json.Valid(v) {
			t.Errorf("RawStr(%q) = %q, encoding/json says %q", v, got, want)
		}
		var n int
		errJ := json.Unmarshal(v, &n)
		if got, ok := RawInt(v); ok != (errJ == nil) || ok && got != n {
			t.Errorf("RawInt(%q) = %d %v, encoding/json says %d %v", v, got, ok, n, errJ)
		}
	})
}

func TestRawIs(t *testing.T) {
	for _, v := range []string{`"user"`, `"us\u0065r"`, `"user\t"`, "\"user\t\"", `""`, ``, `null`, `"a\"b"`, "\"\xff\"", `"\ufffd"`, `"`} {
		for _, s := range []string{"user", "user\t", "", "a\"b", "\ufffd"} {
			if got, want := RawIs([]byte(v), s), RawStr([]byte(v)) == s; got != want {
				t.Errorf("RawIs(%q, %q) = %v, want %v", v, s, got, want)
			}
		}
	}
}
