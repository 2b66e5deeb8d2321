package lazyre

import (
	"reflect"
	"regexp"
	"sync"
	"testing"
)

// TestSameAsRegexp: every method answers as the compiled regexp does, from many goroutines.
func TestSameAsRegexp(t *testing.T) {
	const expr = `(^|\s)([a-z]+)=([0-9]+)`
	inputs := []string{"", "a=1", " bb=22 c=3", "A=1", "x= 1", "é=1 z=9"}
	lazy, want := New(expr), regexp.MustCompile(expr)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, in := range inputs {
				if lazy.MatchString(in) != want.MatchString(in) || lazy.Match([]byte(in)) != want.Match([]byte(in)) {
					t.Errorf("%q: match differs", in)
				}
				if got, w := lazy.FindStringSubmatch(in), want.FindStringSubmatch(in); !reflect.DeepEqual(got, w) {
					t.Errorf("%q: submatch %q, want %q", in, got, w)
				}
				if got, w := lazy.FindAllStringSubmatchIndex(in, -1), want.FindAllStringSubmatchIndex(in, -1); !reflect.DeepEqual(got, w) {
					t.Errorf("%q: all submatch index %v, want %v", in, got, w)
				}
			}
		})
	}
	wg.Wait()
	if lazy.String() != expr || lazy.Regexp() != lazy.Regexp() {
		t.Error("String or Regexp differs between calls")
	}
}

// TestNotCompiledUntilUsed: New compiles nothing, so an invalid pattern panics only on use.
func TestNotCompiledUntilUsed(t *testing.T) {
	bad := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid pattern did not panic on first use")
		}
	}()
	bad.MatchString("x")
}
