package jsonscan

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		in   string
		keys []string
		want []string // raw values; "<nil>" when absent
	}{
		{`{"type":"user","message":{"a":[1,{"b":"}"}]},"n":12}`, []string{"type", "message", "n"},
			[]string{`"user"`, `{"a":[1,{"b":"}"}]}`, `12`}},
		{` { "a" : "x\"y" , "b" : [ "]" ] } `, []string{"a", "b"}, []string{`"x\"y"`, `[ "]" ]`}},
		{`{"a":"\\","b":true}`, []string{"b"}, []string{`true`}},
		{`{"a":1}`, []string{"z"}, []string{"<nil>"}},
		{`{"a":1,"b":`, []string{"a", "b"}, []string{`1`, "<nil>"}}, // cut short: what came before
		{`{"a":"never closes`, []string{"a"}, []string{"<nil>"}},    // broken string
		{`[1,2]`, []string{"a"}, []string{"<nil>"}},                 // not an object
		{``, []string{"a"}, []string{"<nil>"}},                      // nothing
		{`{"a":{"b":1},"a":2}`, []string{"a"}, []string{`{"b":1}`}}, // first wins
		{`{"k\"ey":1,"key":2}`, []string{"key"}, []string{`2`}},     // escaped key is not key
		{`{"a":[{"x":"\\\""}],"b":null}`, []string{"b"}, []string{`null`}},
	}
	for _, tc := range tests {
		got := Lookup([]byte(tc.in), tc.keys...)
		for i, v := range got {
			s := string(v)
			if v == nil {
				s = "<nil>"
			}
			if s != tc.want[i] {
				t.Errorf("Lookup(%s)[%s] = %s, want %s", tc.in, tc.keys[i], s, tc.want[i])
			}
		}
	}
}

func TestElements(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{`[]`, ``, true},
		{`[ 1 , "a]" ,{"b":[2]} ]`, `1|"a]"|{"b":[2]}`, true},
		{`[1,2`, `1|2`, false}, // a scalar at the very end is taken whole
		{`{"a":1}`, ``, false},
	}
	for _, tc := range tests {
		var got []string
		ok := Elements([]byte(tc.in), func(el []byte) bool { got = append(got, string(el)); return true })
		if strings.Join(got, "|") != tc.want || ok != tc.ok {
			t.Errorf("Elements(%s) = %q %v, want %q %v", tc.in, strings.Join(got, "|"), ok, tc.want, tc.ok)
		}
	}
}
