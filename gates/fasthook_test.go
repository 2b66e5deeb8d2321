package gates

import (
	"encoding/json"
	"reflect"
	"testing"
)

// checkFastHookOutput fails when the fast path reads data, and encoding/json rejects it or reads
// it otherwise. It reports whether the fast path read it.
func checkFastHookOutput(t *testing.T, data []byte) bool {
	t.Helper()
	fast, ok := fastHookOutput(data)
	if !ok {
		return false
	}
	var slow HookOutput
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatalf("fast path read %q, encoding/json rejects it: %v", data, err)
	}
	if !reflect.DeepEqual(*fast, slow) {
		t.Fatalf("%q: fast path read %+v, encoding/json %+v", data, *fast, slow)
	}
	if fast.HSO != nil {
		ctx := RawString(fast.HSO.AdditionalContext)
		var want string
		if json.Unmarshal(fast.HSO.AdditionalContext, &want) != nil {
			want = ""
		}
		if ctx != want {
			t.Fatalf("%q: rawString = %q, encoding/json %q", data, ctx, want)
		}
	}
	return true
}

func TestFastHookOutput(t *testing.T) {
	for _, tt := range []struct {
		in   string
		fast bool
	}{
		{`{}`, true},
		{` { "continue" : true } `, true},
		{`{"continue":false,"stopReason":"x"}`, true},
		{`{"decision":"block","reason":"no \"quotes\" \u00e9"}`, true},
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","additionalContext":"{\"agc\":\"0.1\"}"}}`, true},
		{`{"hookSpecificOutput":{"updatedInput":{"a":[1,2.5e3,{"b":null}]}},"other":[true,false,null]}`, true},
		{`{"decision":1,"reason":["a"],"stopReason":{"x":"y"}}`, true},
		{`{"continue":null}`, false},               // null: left to encoding/json
		{`{"decision":null}`, false},               // idem
		{`{"hookSpecificOutput":null}`, false},     // idem
		{`{"continue":"true"}`, false},             // wrong type: an error
		{`{"continue":1}`, false},                  // idem
		{`{"hookSpecificOutput":[]}`, false},       // idem
		{`{"Decision":"block"}`, false},            // encoding/json matches names ignoring case
		{`{"decision":"a","decision":"b"}`, false}, // duplicate: the last wins there
		{`{"decis\u0069on":"block"}`, false},       // escaped name
		{`{"ſtopReason":"x"}`, false},              // non-ASCII name (folds to stopReason)
		{`{"reason":"a"} x`, false},                // text after the value
		{`{"reason":"a",}`, false},                 // trailing comma
		{"{\"reason\":\"\xff\"}", false},           // invalid UTF-8
		{`{"reason":"a\qb"}`, false},               // bad escape
		{`[1]`, false},
	} {
		got := checkFastHookOutput(t, []byte(tt.in))
		if got != tt.fast {
			t.Errorf("%s: fast path read it: %v, want %v", tt.in, got, tt.fast)
		}
	}
}

func FuzzFastHookOutput(f *testing.F) {
	for _, s := range []string{`{"continue":true,"decision":"block","reason":"r"}`,
		`{"hookSpecificOutput":{"permissionDecision":"deny","additionalContext":"c"}}`, `{"x":[{"y":1e5}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastHookOutput(t, data)
	})
}
