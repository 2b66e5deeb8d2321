package inputs

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/jsonscan"
)

// walkSeeds are records whose input walkRecord must read as jsonscan.Members and Lookup do:
// bare values holding brackets or quotes, cut and empty objects, several inputs, null.
var walkSeeds = []string{
	`{"input":{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"x","tool_use_id":"t1"},"exit_code":0}`,
	`{"input":{},"command":["a"]}`,
	`{"input":{ } ,"exit_code":0}`,
	`{"input":{"a":1{,"tool_name":"X"},"exit_code":0}`,
	`{"input":{"a":tr"ue,"tool_name":"X"}}`,
	`{"input":{"a":1],"tool_name":"X"}}`,
	`{"input":{"tool_name":"A","tool_name":"B"},"input":null}`,
	`{"input":{"tool_name":"A"},"input":"eyJ9"}`,
	`{"input":{"tool_name":"A"},"input":{"tool_name":"B"}}`,
	`{"input":{"tool_name":"A"`,
	`{"input":{"tool_name":"A"}`,
	`{"input":{"tool_name":"A"]}`,
	`{"input":{"x":{"y":"}"},"cwd":"/w"} ,"stdout":""}`,
	`{"input":{"x":"\"","session_id":"s"}}`,
	`{"inp\u0075t":{"tool_name":"A"}}`,
	` {"input" : {"tool_name" : "A" , "cwd":"c" } } `,
	`[]`, `{}`, ``, `{"input":`,
}

// FuzzWalkRecord: walkRecord calls back and reports as jsonscan.Members does, and the names it
// read on the way are those jsonscan.Lookup reads from the last input.
func FuzzWalkRecord(f *testing.F) {
	for _, s := range walkSeeds {
		f.Add([]byte(s))
	}
	logs, _ := filepath.Glob("../testdata/*/*/hook-log.jsonl")
	for _, p := range logs[:min(len(logs), 8)] {
		if data, err := os.ReadFile(p); err == nil {
			for _, line := range bytes.Split(data, []byte("\n")) {
				f.Add(line)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		type member struct{ k, v string }
		var want, got []member
		var lastInput []byte
		wantWhole := jsonscan.Members(b, func(k, v []byte) bool {
			want = append(want, member{string(k), string(v)})
			if string(k) == "input" && string(v) != "null" {
				lastInput = v
			}
			return true
		})
		var names *inputNames
		gotWhole := walkRecord(b, &names, func(k, v []byte) bool {
			got = append(got, member{string(k), string(v)})
			return true
		})
		if wantWhole != gotWhole || !reflect.DeepEqual(want, got) {
			t.Fatalf("%q: walkRecord %v %q, Members %v %q", b, gotWhole, got, wantWhole, want)
		}
		if names != nil {
			if lastInput == nil || lastInput[0] != '{' {
				t.Fatalf("%q: names read for input %q", b, lastInput)
			}
			if w := jsonscan.Lookup(lastInput, hookInputKeys[:]...); !reflect.DeepEqual(names[:], w) {
				t.Fatalf("%q: names %q, Lookup %q", b, names[:], w)
			}
		}
	})
}

// TestWalkRecordReadsOnce: a plain input is read on the way, not again.
func TestWalkRecordReadsOnce(t *testing.T) {
	var names *inputNames
	b := []byte(walkSeeds[0])
	if !walkRecord(b, &names, func(k, v []byte) bool { return true }) || names == nil || string(names[1]) != `"Bash"` {
		t.Fatalf("names %v", names)
	}
}

// TestStrTable checks that a shared string is what RawStr gives, whatever the table already
// holds, and that the table stops growing at its bound.
func TestStrTable(t *testing.T) {
	tab := newStrTable()
	tab.intern("a\\b")   // a decoded string holding a backslash
	tab.intern("x\x01y") // and one holding a control character
	for _, raw := range []string{
		`"PreToolUse"`, `"PreToolUse"`, `"a\b"`, `"a\\b"`, `"x\u0001y"`, `"é\u00e9"`, `""`, `"` + strings.Repeat("z", maxStrLen+1) + `"`, `42`, `null`,
	} {
		if got, want := tab.str([]byte(raw)), RawStr([]byte(raw)); got != want {
			t.Errorf("str(%s) = %q, RawStr gives %q", raw, got, want)
		}
	}
	for i := 0; i < 2*maxStrTable; i++ {
		tab.str([]byte(`"s` + strconv.Itoa(i) + `"`))
	}
	if len(tab.m) != maxStrTable {
		t.Errorf("table holds %d strings, want the bound %d", len(tab.m), maxStrTable)
	}
	var none *strTable
	if got := none.str([]byte(`"Bash"`)); got != "Bash" {
		t.Errorf("nil table: %q", got)
	}
}
