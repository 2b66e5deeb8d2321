package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzScan checks the scanner against encoding/json as the oracle: on what encoding/json accepts,
// value ends equal json.Decoder's offsets, members and elements equal decoding, and a string
// unquotes to what it decodes to (and fails where it fails); a Nesting fed in two pieces ends as
// it does fed whole; InvalidUTF8 agrees with utf8.Valid.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,null,{"c":"d\"}"}],"a":"x"}`, `[1, "two" ,{"3":[]}, -4.5e1]`, `"a\nb\u00e9\ud83d\ude00"`,
		`"\ud83d"`, "\"\xff\"", `"\\\\"`, `{"k\u0041":{}}`, ` 12 {"x":[]} "s" [] `, `{"a":}`, `[1,]`, `{"a" 1}`,
		"{\n  \"type\": \"user\",\n  \"message\": {\"content\": [{\"type\": \"text\", \"text\": \"}]\\\"\"}]}\n}",
	} {
		f.Add([]byte(s), uint8(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		if got, want := InvalidUTF8(data) == len(data), utf8.Valid(data); got != want {
			t.Errorf("InvalidUTF8(%q) = %d, utf8.Valid = %v", data, InvalidUTF8(data), want)
		}
		checkStream(t, data)
		checkPieces(t, data, int(cut))
		if json.Valid(data) {
			checkValue(t, data, 0)
		}
	})
}

// checkStream reads data as a stream of JSON values with json.Decoder and checks that ValueEnd
// finds where each value it decodes ends (for scalars: when a delimiter follows, as in JSON text).
func checkStream(t *testing.T, data []byte) {
	d := json.NewDecoder(bytes.NewReader(data))
	from := 0
	for {
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return // the end, or what encoding/json does not accept
		}
		at := SkipSpace(data, from)
		end := int(d.InputOffset())
		if c := v[0]; c != '"' && c != '{' && c != '[' && end < len(data) && !bytes.ContainsAny(data[end:end+1], ",}] \t\n\r") {
			return // a scalar runs on to the next delimiter: 0 0 is two values, 00 is one to ValueEnd
		}
		if got := ValueEnd(data, at); got != end {
			t.Fatalf("ValueEnd(%q, %d) = %d, json.Decoder ends the value at %d", data, at, got, end)
		}
		from = end
	}
}

// checkPieces feeds data to a Nesting whole and in two pieces, and to CloseQuote likewise.
func checkPieces(t *testing.T, data []byte, cut int) {
	cut = min(cut, len(data))
	var whole, split Nesting
	whole.Scan(data)
	split.Scan(data[:cut])
	split.Scan(data[cut:])
	if whole != split {
		t.Errorf("Nesting over %q: %+v whole, %+v cut at %d", data, whole, split, cut)
	}
	q, esc := CloseQuote(data, false)
	q1, esc1 := CloseQuote(data[:cut], false)
	if q1 < 0 {
		if q1, esc1 = CloseQuote(data[cut:], esc1); q1 >= 0 {
			q1 += cut
		}
	}
	if q != q1 || esc != esc1 {
		t.Errorf("CloseQuote(%q) = %d %v whole, %d %v cut at %d", data, q, esc, q1, esc1, cut)
	}
}

// checkValue checks the value at data[at], which encoding/json accepts, and those inside it.
func checkValue(t *testing.T, data []byte, at int) {
	at = SkipSpace(data, at)
	end := ValueEnd(data, at)
	if end < 0 {
		t.Fatalf("ValueEnd(%q, %d) = -1 for valid JSON", data, at)
	}
	v := data[at:end]
	switch v[0] {
	case '"':
		checkString(t, v)
	case '{':
		checkObject(t, data, at)
	case '[':
		checkArray(t, data, at)
	}
}

// checkString checks that Unquote decodes the string v as encoding/json does.
func checkString(t *testing.T, v []byte) {
	var want string
	errJ := json.Unmarshal(v, &want)
	if got, ok := Unquote(v); ok != (errJ == nil) || got != want {
		t.Errorf("Unquote(%q) = %q %v, encoding/json says %q %v", v, got, ok, want, errJ)
	}
}

// checkObject checks Members and Lookup on the object at data[at] against decoding it.
func checkObject(t *testing.T, data []byte, at int) {
	v := data[at:ValueEnd(data, at)]
	var want map[string]json.RawMessage
	if err := json.Unmarshal(v, &want); err != nil {
		t.Fatalf("json.Unmarshal(%q): %v", v, err)
	}
	got := map[string][]byte{}
	count := map[string]int{}
	ok := Members(v, func(key, val []byte) bool {
		quoted := append(append([]byte{'"'}, key...), '"')
		k, kok := Unquote(quoted)
		if !kok {
			t.Errorf("key %q of %q does not unquote", key, v)
		}
		got[k] = val // the last of duplicate keys, as encoding/json keeps
		count[string(key)]++
		return true
	})
	if !ok || len(got) != len(want) {
		t.Fatalf("Members(%q) = %v, %d keys; encoding/json has %d", v, ok, len(got), len(want))
	}
	for k, w := range want {
		if !bytes.Equal(got[k], w) {
			t.Errorf("Members(%q) gives %q: %q, encoding/json %q", v, k, got[k], w)
		}
		if count[k] == 1 && !bytes.Equal(Lookup(v, k)[0], w) {
			t.Errorf("Lookup(%q, %q) = %q, encoding/json %q", v, k, Lookup(v, k)[0], w)
		}
	}
	MembersAt(data, at, func(_ []byte, vat, _ int) bool { checkValue(t, data, vat); return true })
}

// checkArray checks Elements on the array at data[at] against decoding it.
func checkArray(t *testing.T, data []byte, at int) {
	v := data[at:ValueEnd(data, at)]
	var want []json.RawMessage
	if err := json.Unmarshal(v, &want); err != nil {
		t.Fatalf("json.Unmarshal(%q): %v", v, err)
	}
	var got [][]byte
	if ok := Elements(v, func(el []byte) bool { got = append(got, el); return true }); !ok || len(got) != len(want) {
		t.Fatalf("Elements(%q) = %v, %d elements; encoding/json has %d", v, ok, len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("element %d of %q: %q, encoding/json %q", i, v, got[i], want[i])
		}
	}
	ElementsAt(data, at, func(eat, _ int) bool { checkValue(t, data, eat); return true })
}
