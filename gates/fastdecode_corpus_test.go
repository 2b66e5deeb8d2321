package gates_test

import (
	"bufio"
	"bytes"
	"reflect"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/corpus"
)

// TestFastDecodeCorpus compares the fast path with the validator over generated AGC responses
// and hook-log records: the fast path must read every valid response of them (they are plain),
// and read each as the validator does.
func TestFastDecodeCorpus(t *testing.T) {
	var buf bytes.Buffer
	if _, err := corpus.Generate(&buf, corpus.AGC, 1<<20, 7); err != nil {
		t.Fatal(err)
	}
	valid, fast := 0, 0
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Bytes()
		r, ok := gates.FastDecodeForTest(line)
		slow, _ := gates.DecodeSlowForTest(line)
		if slow != nil {
			valid++
		}
		if !ok {
			continue
		}
		fast++
		if !reflect.DeepEqual(r, slow) {
			t.Fatalf("fast path read %+v, the validator %+v, from\n%s", r, slow, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if valid == 0 || fast != valid {
		t.Errorf("the fast path read %d of the %d valid responses", fast, valid)
	}
}

// BenchmarkDecodeCorpus decodes generated AGC responses (a few invalid among them) through
// Decode and through the validator alone.
func BenchmarkDecodeCorpus(b *testing.B) {
	var buf bytes.Buffer
	if _, err := corpus.Generate(&buf, corpus.AGC, 1<<20, 1); err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	for _, bc := range []struct {
		name   string
		decode func([]byte) (*gates.Response, []gates.Breach)
	}{{"Decode", gates.Decode}, {"validator", gates.DecodeSlowForTest}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range lines {
					bc.decode(l)
				}
			}
		})
	}
}
