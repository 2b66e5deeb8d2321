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

func TestValueEnd(t *testing.T) {
	tests := []struct {
		in   string
		at   int
		want int
	}{
		{`"a\"b" x`, 0, 6},
		{`"a\\" x`, 0, 5},
		{`"never`, 0, -1},
		{`{"a":["}",{"b":"]"}]},1`, 0, 21},
		{`[[1],[2]`, 0, -1},
		{`12,3`, 0, 2},
		{`true}`, 0, 4},
		{`x`, 1, -1},
		{`,`, 0, -1},
	}
	for _, tc := range tests {
		if got := ValueEnd([]byte(tc.in), tc.at); got != tc.want {
			t.Errorf("ValueEnd(%q, %d) = %d, want %d", tc.in, tc.at, got, tc.want)
		}
	}
}

// TestCloseQuote feeds strings in pieces that cut runs of backslashes.
func TestCloseQuote(t *testing.T) {
	tests := []struct {
		pieces []string
		want   int // index of the closing quote in the joined pieces, or -1
	}{
		{[]string{`ab"`}, 2},
		{[]string{`a\`, `"b"`}, 4},
		{[]string{`a\\`, `"b"`}, 3},
		{[]string{`\`, `\`, `\`, `""`}, 4},
		{[]string{`\\`, `\\`, `"`}, 4},
		{[]string{`x\"`, ``, `y`}, -1},
	}
	for _, tc := range tests {
		got, off, esc := -1, 0, false
		for _, p := range tc.pieces {
			var q int
			if q, esc = CloseQuote([]byte(p), esc); q >= 0 {
				got = off + q
				break
			}
			off += len(p)
		}
		if got != tc.want {
			t.Errorf("CloseQuote over %q = %d, want %d", tc.pieces, got, tc.want)
		}
	}
}

func TestNesting(t *testing.T) {
	tests := []struct {
		pieces []string
		depth  int
		inStr  bool
	}{
		{[]string{`{"a":[`, `1,{"b":"}]`, `\"`, `"}`}, 2, false},
		{[]string{`{"a":"x`}, 1, true},
		{[]string{`}]`, `{`}, -1, false},
		{[]string{`["\`, `"]`}, 1, true},
	}
	for _, tc := range tests {
		var n Nesting
		for _, p := range tc.pieces {
			n.Scan([]byte(p))
		}
		if n.Depth != tc.depth || n.InString != tc.inStr {
			t.Errorf("Nesting over %q = %+v, want depth %d, in string %v", tc.pieces, n, tc.depth, tc.inStr)
		}
	}
	var n Nesting
	if got := n.End([]byte(`{"a":{"}":1}} ,`)); got != 13 {
		t.Errorf("End = %d, want 13", got)
	}
}

// TestMembersAtCut: a record cut inside a value still names its key, and is not whole.
func TestMembersAtCut(t *testing.T) {
	var keys []string
	ok := MembersAt([]byte(`{"command":"ls","input":{"big":"cut`), 0, func(key []byte, at, end int) bool {
		keys = append(keys, string(key)+":"+strings.Repeat("-", min(end, 0)*-1))
		return true
	})
	if ok || strings.Join(keys, " ") != `"command": "input":-` {
		t.Errorf("MembersAt = %v %q", ok, keys)
	}
	if Members([]byte(`{"a":"cut`), func(_, _ []byte) bool { t.Error("fn called for a cut value"); return true }) {
		t.Error("Members of a cut object reported whole")
	}
}

func TestUnquote(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`"plain"`, "plain", true},
		{`"a\nb\t\/\u00e9\ud83d\ude00"`, "a\nb\t/é😀", true},
		{`"\ud83d"`, "\ufffd", true}, // a lone surrogate, replaced as encoding/json does
		{"\"\xff\"", "\ufffd", true}, // invalid UTF-8 likewise
		{"\"a\x01\"", "", false},     // a control character
		{`"\x"`, "", false},          // a bad escape
		{`12`, "", false},            // not a string
		{`"open`, "", false},         // no closing quote
		{`"\"`, "", false},           // the quote is escaped
	}
	for _, tc := range tests {
		if got, ok := Unquote([]byte(tc.in)); got != tc.want || ok != tc.ok {
			t.Errorf("Unquote(%q) = %q %v, want %q %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	for in, want := range map[string]int{"abc": 3, "aé\xffb": 3, "\xe2\x82": 0, "": 0} {
		if got := InvalidUTF8([]byte(in)); got != want {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", in, got, want)
		}
	}
}
