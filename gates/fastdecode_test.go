package gates

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// slowValidator is the validator the fast path is compared with.
func slowValidator(t testing.TB) *Validator {
	t.Helper()
	v, err := NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// agreeWithSchema fails t unless Decode, with its fast path, gives exactly what the schema
// validator alone gives for data; it reports whether the fast path read data.
func agreeWithSchema(t testing.TB, v *Validator, data []byte) bool {
	t.Helper()
	fast, ok := fastDecode(data)
	slow, slowBreaches := v.decodeSlow(data)
	if ok && slow == nil {
		t.Fatalf("fast path accepted what the schema rejects (%+v):\n%s", slowBreaches, data)
	}
	if ok && !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast path read\n%+v\nthe validator\n%+v\nfrom\n%s", fast, slow, data)
	}
	r, bs := Decode(data)
	if !reflect.DeepEqual(r, slow) || !reflect.DeepEqual(bs, slowBreaches) {
		t.Fatalf("Decode gave %+v %+v, the validator %+v %+v, from\n%s", r, bs, slow, slowBreaches, data)
	}
	return ok
}

// fastHead is the head of a valid response, to which cases add members.
const fastHead = `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"m"`

func TestFastDecodeAgrees(t *testing.T) {
	v := slowValidator(t)
	tests := []struct {
		name string
		in   string
		fast bool // the fast path reads it (else it leaves it to the validator)
	}{
		{"valid with unknown fields", okResponse, false}, // line 3.0 is left to the validator
		{"plain", fastHead + `}]}`, true},
		{"pass without findings", `{"agc":"0.1","gate":{"id":"g","kind":"judgment"},"verdict":"pass","findings":[]}`, true},
		{"steer without findings", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[]}`, false},
		{"whitespace", " \r\n\t{ \"agc\" : \"0.1\" , \"gate\" : { \"id\" : \"g\" , \"kind\" : \"runtime\" } , \"verdict\" : \"pass\" , \"findings\" : [ ] } \n", true},
		{"all members", fastHead + `,"verdict":"block","target":"Bash.com.mand","severity":"note","location":{"path":"a b","line":1,"end_line":2147483647,"column":3,"end_column":4},"repair":{"before":"x","after":""},"help_uri":"::"}],"subject":{"runtime":"r","event":"e","tool":"t","tool_use_id":"u","session_id":"s"},"at":"2026-11-30 09:40:00.5+01:00"}`, true},
		{"other minor version", `{"agc":"0.12","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]}`, true},
		{"verdict too light", fastHead + `,"verdict":"block"}]}`, true},
		{"unknown values of every kind", fastHead + `,"x":[1,-0.5e+3,true,false,null,{"":{}},[],"\u00e9\n"]}],"y":{"agc":1}}`, true},
		{"escapes in values", fastHead + `,"message":"a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"}]}`, false}, // duplicate message
		{"escapes in a value", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"}]}`, true},
		{"escaped enum", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"p\u0061ss","findings":[]}`, true},
		{"lone surrogate", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"\ud83d"}]}`, false},
		{"vertical tab in target", fastHead + `,"target":"Bash.a\u000bb"}]}`, true},
		{"form feed in target", fastHead + `,"target":"Bash.a\fb"}]}`, false},
		{"target without tool", fastHead + `,"target":".command"}]}`, false},
		{"target with slash", fastHead + `,"target":"Bash.a/b"}]}`, false},
		{"target of two dots", fastHead + `,"target":"Bash..b"}]}`, true},
		{"duplicate member", `{"agc":"0.1","agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]}`, false},
		{"member in another case", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"Verdict":"block"}`, false},
		{"escaped member name", `{"a\u0067c":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]}`, false},
		{"non-ASCII member name", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"ſubject":{}}`, false},
		{"line 1.0", fastHead + `,"location":{"path":"a","line":1.0}}]}`, false},
		{"line 1e0", fastHead + `,"location":{"path":"a","line":1e0}}]}`, false},
		{"line 0", fastHead + `,"location":{"path":"a","line":0}}]}`, false},
		{"line 2^31", fastHead + `,"location":{"path":"a","line":2147483648}}]}`, false},
		{"line of 11 digits", fastHead + `,"location":{"path":"a","line":10000000000}}]}`, false},
		{"line -1", fastHead + `,"location":{"path":"a","line":-1}}]}`, false},
		{"null subject", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"subject":null}`, false},
		{"empty message", fastHead + `,"message":""}]}`, false},
		{"empty path", fastHead + `,"location":{"path":""}}]}`, false},
		{"repair without after", fastHead + `,"repair":{"before":"x"}}]}`, false},
		{"bad id", `{"agc":"0.1","gate":{"id":"-g","kind":"runtime"},"verdict":"pass","findings":[]}`, false},
		{"upper-case id", `{"agc":"0.1","gate":{"id":"G","kind":"runtime"},"verdict":"pass","findings":[]}`, false},
		{"bad kind", `{"agc":"0.1","gate":{"id":"g","kind":"hook"},"verdict":"pass","findings":[]}`, false},
		{"major version", `{"agc":"1.0","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]}`, false},
		{"version without minor", `{"agc":"0.","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]}`, false},
		{"time without zone", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"at":"2026-11-30T09:40:00"}`, false},
		{"time of month 13", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"at":"2026-13-30t09:40:00.123z"}`, true},
		{"time with empty fraction", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"at":"2026-11-30T09:40:00.Z"}`, false},
		{"trailing text", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]} x`, false},
		{"trailing comma", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],}`, false},
		{"bad literal", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"x":nul}`, false},
		{"bad number", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"x":01}`, false},
		{"control byte in a string", "{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"pass\",\"findings\":[],\"x\":\"\t\"}", false},
		{"invalid UTF-8", "{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"pass\",\"findings\":[],\"x\":\"\xff\"}", false},
		{"byte order mark", "\xef\xbb\xbf{\"agc\":\"0.1\",\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"pass\",\"findings\":[]}", false},
		{"deep unknown value", `{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[],"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, false},
		{"missing gate kind", `{"agc":"0.1","gate":{"id":"g"},"verdict":"pass","findings":[]}`, false},
		{"not an object", `[]`, false},
		{"empty", ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := agreeWithSchema(t, v, []byte(tt.in)); got != tt.fast {
				t.Errorf("fast path read it: %v, want %v", got, tt.fast)
			}
		})
	}
}

// TestFastDecodeTestdata compares the fast path with the validator on every line and whole file
// of the repository's test data that mentions "agc".
func TestFastDecodeTestdata(t *testing.T) {
	v := slowValidator(t)
	read := 0
	err := filepath.WalkDir("..", func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.Contains(path, "testdata") || strings.Contains(path, "fuzz") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), `"agc"`) || len(data) > 4<<20 {
			return err
		}
		agreeWithSchema(t, v, data)
		for _, line := range strings.Split(string(data), "\n") {
			if agreeWithSchema(t, v, []byte(line)) {
				read++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read == 0 {
		t.Error("the fast path read none of the test data's responses")
	}
}

// FuzzFastDecode checks the fast path against the schema validator on any input: it may leave an
// input to the validator, but what it reads, the validator reads the same.
func FuzzFastDecode(f *testing.F) {
	f.Add([]byte(okResponse))
	f.Add([]byte(fastHead + `,"verdict":"block","target":"Bash.command","severity":"note","location":{"path":"a","line":1,"end_line":2,"column":3,"end_column":4},"repair":{"before":"x","after":""},"help_uri":"u"}],"subject":{"runtime":"r","event":"e","tool":"t","tool_use_id":"u","session_id":"s"},"at":"2026-11-30T09:40:00Z","x":[1,{"y":null}]}`))
	f.Add([]byte(`{"agc":"0.2","gate":{"id":"g","kind":"judgment","version":"1","uri":"x"},"verdict":"pass","findings":[]}`))
	f.Add([]byte(`{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[{"rule":"r","message":"\u00e9\ud83d\ude00\n"}]}`))
	v := slowValidator(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		agreeWithSchema(t, v, data)
	})
}

// TestDecodeCompilesSchemaOnlyWhenNeeded checks that Decode asks for the validator only for a
// response that is JSON but not plainly valid: valid responses and invalid JSON never compile it.
func TestDecodeCompilesSchemaOnlyWhenNeeded(t *testing.T) {
	saved := defaultValidator
	t.Cleanup(func() { defaultValidator = saved })
	asked := 0
	defaultValidator = func() *Validator { asked++; return saved() }
	for _, in := range []string{fastHead + `}]}`, `{"agc":`, `not json`, `{"agc":"2.0"}`} {
		Decode([]byte(in))
	}
	if asked != 0 {
		t.Fatalf("the validator was asked for %d times, want 0", asked)
	}
	if r, bs := Decode([]byte(fastHead + `,"target":"x"}]}`)); r != nil || len(bs) != 1 || asked != 1 {
		t.Fatalf("a schema breach: %v %+v, validator asked for %d times, want once", r, bs, asked)
	}
}

// FuzzFindResponses checks that reading plainly valid responses of a hook's text on the fast
// path finds what reading each object through encoding/json first finds.
func FuzzFindResponses(f *testing.F) {
	one := fastHead + `}]}`
	f.Add(one)
	f.Add("AGC says:\n  " + one + " trailing words\n" + one + "\n{\"agc\":\"0.1\",\"verdict\":\"block\"}\n" + one)
	f.Add(`{"agc":"0.3","gate":{"id":"g","kind":"runtime"},"verdict":"pass","findings":[]}{"x":1}` + "\n{not json")
	f.Add("{\"gate\":{\"id\":\"g\",\"kind\":\"runtime\"},\"verdict\":\"pass\",\"findings\":[],\"agc\":\"0.1\",\"x\":\"\xff\"}")
	f.Add("AGC block: g/r — m")
	f.Fuzz(func(t *testing.T, s string) {
		rs, bs, js := findResponses(s, true)
		wrs, wbs, wjs := findResponses(s, false)
		if !reflect.DeepEqual(rs, wrs) || !reflect.DeepEqual(bs, wbs) || js != wjs {
			t.Fatalf("fast path found %+v %+v %v, encoding/json %+v %+v %v, in\n%q", rs, bs, js, wrs, wbs, wjs, s)
		}
	})
}
