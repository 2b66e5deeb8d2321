package gates

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// manyOnOneLine are one-line responses with several schema breaches each: the validator finds
// them in an order that changes from run to run (it checks an object's members in map order).
var manyOnOneLine = []string{
	`{"findings":[{}],"at":[0]}`,
	`{"agc":1,"gate":{"id":"G!","kind":"nope","x":1},"verdict":"maybe","findings":[{"severity":"x","location":{"path":"","line":0,"column":-1}}],"at":"yesterday"}`,
	`{"agc":"0.1","gate":{},"verdict":"block","findings":[{"rule":1,"message":2,"severity":3,"location":{"line":"a","column":"b"},"repair":{}},{},{"rule":"","message":""}]}`,
	`{"gate":{"kind":1,"id":2},"verdict":"steer","findings":[]}`,
	manyFindings(60),
}

// manyFindings returns a one-line response with n findings, each with three breaches (rule,
// severity, line): more than
// the breaches listed, so the cut decides which are kept.
func manyFindings(n int) string {
	var sb strings.Builder
	sb.WriteString(`{"agc":"0.1","gate":{"id":"g","kind":"runtime"},"verdict":"steer","findings":[`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"rule":"R%d","message":"m","severity":"s%d","location":{"path":"p","line":0}}`, i, i)
	}
	sb.WriteString("]}")
	return sb.String()
}

// fuzzSeeds returns the byte inputs of the go-fuzz seed files in dir.
func fuzzSeeds(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fuzz seeds in %s: %v", dir, err)
	}
	var out []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			l := sc.Text()
			if q, ok := strings.CutPrefix(l, "[]byte("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				out = append(out, s)
			}
		}
		fh.Close()
	}
	return out
}

func TestBreachOrderIsStable(t *testing.T) {
	cases := append(fuzzSeeds(t, "testdata/fuzz/FuzzFastDecode"), manyOnOneLine...)
	for _, c := range cases {
		_, first := Decode([]byte(c))
		if len(first) < 2 {
			t.Fatalf("want several breaches, got %+v from %s", first, c)
		}
		for range 50 {
			if _, bs := Decode([]byte(c)); !reflect.DeepEqual(bs, first) {
				t.Fatalf("breaches changed from run to run:\n%+v\n%+v\nfrom %s", first, bs, c)
			}
		}
	}
}

func TestBreachOrder(t *testing.T) {
	pointers := func(s string) []string {
		_, bs := Decode([]byte(s))
		var out []string
		for _, b := range bs {
			out = append(out, b.Pointer)
		}
		return out
	}
	// Required members in the schema's order, at the finding's offset, before its members' values.
	got := pointers(fastHead[:strings.LastIndex(fastHead, `{`)] + `{"location":{"line":0},"severity":"x"}]}`)
	want := []string{"/findings/0/rule", "/findings/0/message", "/findings/0/location/path",
		"/findings/0/location/line", "/findings/0/severity"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// The cut keeps the first breaches in the document.
	_, bs := Decode([]byte(manyFindings(60)))
	if len(bs) != maxSchemaBreaches+1 {
		t.Fatalf("got %d breaches, want %d", len(bs), maxSchemaBreaches+1)
	}
	for i, b := range bs[:maxSchemaBreaches] {
		if n := i / 3; !strings.HasPrefix(b.Pointer, fmt.Sprintf("/findings/%d/", n)) {
			t.Errorf("breach %d is %s, want one of finding %d", i, b.Pointer, n)
		}
	}
	if last := bs[maxSchemaBreaches].Message; last != "130 more schema errors in this response are not listed" {
		t.Errorf("last breach %q", last)
	}
}
