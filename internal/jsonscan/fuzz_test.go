package jsonscan

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"unicode/utf8"
)

// FuzzScan checks the scanner against encoding/json as the oracle: on what encoding/json accepts,
// value ends equal json.Decoder's offsets, members and elements equal decoding, and a string
// unquotes to what it decodes to (and fails where it fails); a Nesting fed in two pieces ends as
// it does fed whole; InvalidUTF8 agrees with utf8.Valid; a Reader accepts what json.Valid accepts
// and reads strings and counts as encoding/json decodes them.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,null,{"c":"d\"}"}],"a":"x"}`, `[1, "two" ,{"3":[]}, -4.5e1]`, `"a\nb\u00e9\ud83d\ude00"`,
		`"\ud83d"`, `"\udc00\ud800"`, `"\ud800\u0041"`, `[[[[1]]]]`, `{"a":[0,-0.5e+7,1E2,true,false,null]}`,
		"2147483647", "2147483648", "012", "7e1", "\"a\tb\"", "\"\\n\x01\"", "\"caf\xc3\xa9\"", "\"\uFFFD\\ufffd\\udfff\"", "\"\xff\"", `"\\\\"`, `{"k\u0041":{}}`, ` 12 {"x":[]} "s" [] `, `{"a":}`, `[1,]`, `{"a" 1}`,
		"ctl \x00\x1f\x7f quote \" bs \\ bad \xe2\x82 sep \u2028\u2029 <&>", // once sarif's FuzzAppendString seed
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
		checkReader(t, data, int(cut))
		checkAppendString(t, string(data))
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

// checkReader checks that a Reader accepts data exactly when json.Valid does (a depth bound only
// makes it give up sooner), and reads every string value, and a count, as encoding/json does.
func checkReader(t *testing.T, data []byte, maxDepth int) {
	valid := json.Valid(data)
	// No value of n bytes nests more than n deep, and encoding/json's own bound (10000 arrays or
	// objects) needs more bytes than that.
	if got := readsWhole(t, data, len(data)+1); got != valid && len(data) <= 10000 {
		t.Fatalf("Reader.Skip over %q accepts: %v; json.Valid: %v", data, got, valid)
	}
	if readsWhole(t, data, maxDepth) && !valid {
		t.Fatalf("Reader.Skip(%d) accepts %q, which json.Valid rejects", maxDepth, data)
	}
	if valid {
		strs := NewReader(data)
		strs.Space()
		readStrings(t, &strs)
	}
	checkCount(t, data)
	checkBool(t, data)
	checkStr(t, data, false)
	checkStr(t, data, true)
}

// checkStr checks that Str (or PlainString) accepts a string at the start of data only where
// encoding/json does, and decodes it alike; PlainString takes only ASCII without escapes.
func checkStr(t *testing.T, data []byte, plain bool) {
	r := NewReader(data)
	var got []byte
	if plain {
		got = r.PlainString()
	} else {
		got = r.Str()
	}
	if !r.OK() {
		return
	}
	v := data[:r.Offset()]
	var want string
	if err := json.Unmarshal(v, &want); err != nil {
		t.Fatalf("Reader reads string %q (plain: %v), which encoding/json rejects: %v", v, plain, err)
	}
	if utf8.Valid(v) && string(got) != want || plain && (bytes.IndexByte(v, '\\') >= 0 || !isASCII(v)) {
		t.Fatalf("Reader reads string %q (plain: %v) as %q, encoding/json as %q", v, plain, got, want)
	}
}

// isASCII reports whether b is only ASCII bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// readsWhole reports whether a Reader skips data as one value between blanks, checking that Skip
// and Value agree.
func readsWhole(t *testing.T, data []byte, maxDepth int) bool {
	r, v := NewReader(data), NewReader(data)
	r.Space()
	v.Space()
	r.Skip(maxDepth)
	val := v.Value(maxDepth)
	if r.OK() != v.OK() || r.OK() && !bytes.Equal(val, bytes.TrimSpace(data[:r.Offset()])) {
		t.Fatalf("Skip and Value differ on %q: %v %v %q", data, r.OK(), v.OK(), val)
	}
	r.Space()
	return r.OK() && r.Offset() == len(data)
}

// checkBool checks Bool against encoding/json on a leading true or false.
func checkBool(t *testing.T, data []byte) {
	r := NewReader(data)
	got := r.Bool()
	var want bool
	lit := bytes.HasPrefix(data, []byte("true")) || bytes.HasPrefix(data, []byte("false"))
	if r.OK() != lit || lit && (json.Unmarshal(data[:r.Offset()], &want) != nil || got != want) {
		t.Fatalf("Bool(%q) = %v %v at %d", data, got, r.OK(), r.Offset())
	}
}

// readStrings walks the valid value at r as Skip does, reading each string with Str and checking it
// against encoding/json; Str may give up only on a lone surrogate escape.
func readStrings(t *testing.T, r *Reader) {
	switch r.Peek() {
	case '"':
		at := r.Offset()
		v := r.data[at:StringEnd(r.data, at)]
		got, ok := r.Str(), r.OK()
		var want string
		if err := json.Unmarshal(v, &want); err != nil {
			t.Fatalf("json.Unmarshal(%q) of valid JSON: %v", v, err)
		}
		if !ok {
			if utf8.Valid(v) && !loneSurrogate(v) {
				t.Fatalf("Reader.Str gives up on %q, which has no lone surrogate", v)
			}
			return
		}
		if utf8.Valid(v) && string(got) != want {
			t.Fatalf("Reader.Str(%q) = %q, encoding/json %q", v, got, want)
		}
		if r.Offset() != at+len(v) {
			t.Fatalf("Reader.Str(%q) ends at %d, not %d", v, r.Offset(), at+len(v))
		}
	case '{', '[':
		readContainer(t, r)
	default:
		r.Skip(1)
	}
}

// loneSurrogate reports whether the JSON string v (quotes included) has a \u escape of a surrogate
// that is not half of a high-low pair, which encoding/json turns into U+FFFD. It walks the escapes
// in order, so an escaped backslash followed by "ufffd" is text, not an escape.
func loneSurrogate(v []byte) bool {
	u := func(i int) (rune, bool) { // the \uXXXX escape at v[i], if there is one
		if i+6 > len(v) || v[i] != '\\' || v[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(v[i+2:i+6]), 16, 16)
		return rune(n), err == nil
	}
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' {
			continue
		}
		r, ok := u(i)
		if !ok {
			i++ // a two-byte escape such as \\ or \"
			continue
		}
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if lo, ok := u(i + 6); ok && lo >= 0xDC00 && lo < 0xE000 {
				i += 11
				continue
			}
			return true
		case r >= 0xDC00 && r < 0xE000:
			return true
		}
		i += 5
	}
	return false
}

// readContainer walks the object or array at r with readStrings.
func readContainer(t *testing.T, r *Reader) {
	closing := r.Peek() + 2 // '{'+2 is '}', '['+2 is ']'
	r.Take(r.Peek())
	r.Space()
	if r.Peek() == closing {
		r.Take(closing)
		return
	}
	for r.OK() {
		if closing == '}' {
			readStrings(t, r)
			r.Space()
			r.Take(':')
			r.Space()
		}
		readStrings(t, r)
		r.Space()
		if !r.OK() || r.Sep(closing) {
			return
		}
	}
}

// checkCount checks Count against strconv: it reads exactly the plain positive integers of int32.
func checkCount(t *testing.T, data []byte) {
	r := NewReader(data)
	n := r.Count(math.MaxInt32)
	end := r.Offset()
	digits := end
	for digits < len(data) && '0' <= data[digits] && data[digits] <= '9' {
		digits++
	}
	lit := string(data[:digits])
	want, err := strconv.ParseInt(lit, 10, 32)
	plain := err == nil && want > 0 && lit[0] != '0' &&
		(digits == len(data) || !bytes.ContainsAny(data[digits:digits+1], ".eE"))
	if r.OK() != plain || r.OK() && (int64(n) != want || end != digits) {
		t.Fatalf("Count(%q) = %d %v at %d; want %d %v", data, n, r.OK(), end, want, plain)
	}
}
