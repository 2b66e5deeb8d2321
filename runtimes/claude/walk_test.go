package claude

import (
	"fmt"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// threeWalks is what contentBlocks must give: the blocks jsonscan.Lookup, Elements and Lookup of
// each element find.
func threeWalks(message []byte) []block {
	var out []block
	jsonscan.Elements(jsonscan.Lookup(message, "content")[0], func(el []byte) bool {
		if len(el) > 0 && el[0] == '{' {
			var b block
			copy(b[:], jsonscan.Lookup(el, blockKeys[:]...))
			out = append(out, b)
		}
		return true
	})
	return out
}

// checkBlocks fails t when contentBlocks and the three walks disagree on message.
func checkBlocks(t *testing.T, message []byte) bool {
	t.Helper()
	got := contentBlocks(message)
	want := threeWalks(message)
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("contentBlocks(%q) = %q, want %q", message, got, want)
	}
	_, walked := walkBlocks(message, nil)
	return walked
}

func TestContentBlocks(t *testing.T) {
	tests := []struct {
		name, message string
		walked        bool // read in one walk, without the fallback
	}{
		{"results", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x \"q\" \\"},{"tool_use_id":"b","type":"tool_result","is_error":true,"content":[{"type":"text","text":"t"}]}]}`, true},
		{"content first, spaces", ` { "content" : [ { "content" : "big" , "type" : "tool_result" } , "s" , 1 , [ "{" ] , { } ] , "role" : "user" } `, false},
		{"trimmed", `{ "content" : [ { "content" : "big" , "type" : "tool_result" } , "s" , 1 , [ "{" ] , { } ] , "role" : "user" }`, true},
		{"repeated keys", `{"content":[{"type":"tool_result","type":"x","tool_use_id":"1","tool_use_id":"2"}],"content":[{"type":"y"}]}`, true},
		{"string content", `{"role":"user","content":"plain prompt"}`, true},
		{"no content", `{"role":"user"}`, true},
		{"not an object", `["content"]`, false},
		{"scalar with a quote", `{"content":[{"type":x"y"}]}`, false},
		{"scalar with a bracket before content", `{"a":tr{ue,"content":[{"type":"tool_result"}]}`, false},
		{"unclosed element", `{"content":[{"type":"tool_result","tool_use_id":"a"`, false},
		{"element cut in a string", `{"content":[{"type":"tool_result"},{"type":"tool_res`, false},
		{"bad separator", `{"content":[{"type":"tool_result"} {"type":"tool_result"}]}`, false},
		{"escaped key", `{"con\u0074ent":[{"type":"tool_result"}],"content":[{"ty\u0070e":"a","type":"tool_result"}]}`, true},
		{"nested brackets in strings", `{"content":[{"content":{"a":"}]","b":["{"]},"type":"tool_result","is_error":false}]}`, true},
		{"empty array", `{"content":[]}`, true},
		{"empty", ``, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if walked := checkBlocks(t, []byte(tc.message)); walked != tc.walked {
				t.Errorf("walked in one pass = %v, want %v", walked, tc.walked)
			}
		})
	}
}

// FuzzContentBlocks checks that the one walk of a message's content blocks finds what jsonscan's
// three walks find, whatever the bytes.
func FuzzContentBlocks(f *testing.F) {
	for _, s := range []string{
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x \"q\" \\"},{"type":"text","text":"t"}]}`,
		`{"content":[{"id":"toolu_1","input":{"command":"ls [a]"},"name":"Bash","type":"tool_use"}],"id":"msg"}`,
		`{"content":[{"type":x"y"}, 1, "s", [{}], {"is_error":true}]}`,
		`{"a":{"b":["}"]},"content":[{"content":[{"type":"text","text":"}"}],"type":"tool_result"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, message []byte) {
		checkBlocks(t, message)
	})
}

// FuzzTranscriptMarks checks the shortcuts of transcriptRecord on arbitrary records: the view is
// what jsonscan.Lookup finds, its message's blocks what Lookup, Elements and Lookup find, and a
// record whose blocks prove a marker holds the markers mayMatter looks for.
func FuzzTranscriptMarks(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]},"sessionId":"s"}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Bash","input":{}}]}}`))
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool\u005fresult"}]},"type":"x"}`))
	f.Fuzz(func(t *testing.T, d []byte) {
		v := lookupView(d)
		if want := jsonscan.Lookup(d, viewKeys[:]...); fmt.Sprintf("%q", v.m[:]) != fmt.Sprintf("%q", want) {
			t.Fatalf("lookupView(%q) = %q, want %q", d, v.m[:], want)
		}
		if want := threeWalks(v.m[vMessage]); fmt.Sprintf("%q", v.contentBlocks()) != fmt.Sprintf("%q", want) {
			t.Fatalf("view of %q: blocks %q, want %q (walked %v)", d, v.contentBlocks(), want, v.walked)
		}
		_, user := toolResults(v.m[vMessage])
		_, assistant := toolUseList(v.m[vMessage])
		if (user || assistant) && !mayMatter(d) {
			t.Fatalf("%q: its blocks prove markers mayMatter does not find", d)
		}
	})
}

func TestViewIndex(t *testing.T) {
	for n, k := range viewKeys {
		if got := viewIndex([]byte(k)); got != n {
			t.Errorf("viewIndex(%q) = %d, want %d", k, got, n)
		}
	}
	if got := viewIndex([]byte("types")); got != -1 {
		t.Errorf("viewIndex(types) = %d, want -1", got)
	}
}

func TestViewWalk(t *testing.T) {
	tests := []struct {
		name, record string
		walked       bool // the view's walk read the message's blocks
	}{
		{"user", `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x"}]},"toolUseResult":{"stdout":"x"},"sessionId":"s","cwd":"/r","timestamp":"t"}`, true},
		{"message twice", `{"message":{"content":[{"type":"tool_result","tool_use_id":"a"}]},"message":{"content":[{"type":"tool_result","tool_use_id":"b"}]}}`, true},
		{"no content", `{"type":"user","message":{"role":"user"}}`, true},
		{"string content", `{"type":"user","message":{"content":"hi"}}`, true},
		{"scalar with a quote after the message", `{"message":{"content":[{"type":"tool_result"}]},"x":1"2}`, false},
		{"message not closed", `{"type":"user","message":{"content":[{"type":"tool_result"}]`, false},
		{"no message", `{"type":"system"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := []byte(tc.record)
			v := lookupView(d)
			if want := jsonscan.Lookup(d, viewKeys[:]...); fmt.Sprintf("%q", v.m[:]) != fmt.Sprintf("%q", want) {
				t.Errorf("view %q, want %q", v.m[:], want)
			}
			if want := threeWalks(v.m[vMessage]); fmt.Sprintf("%q", v.contentBlocks()) != fmt.Sprintf("%q", want) {
				t.Errorf("blocks %q, want %q", v.contentBlocks(), want)
			}
			if v.walked != tc.walked {
				t.Errorf("walked = %v, want %v", v.walked, tc.walked)
			}
		})
	}
}
