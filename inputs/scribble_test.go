//go:build linux

package inputs

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

// guardedLines is a line source whose slices live exactly as long as the contract says (a slice
// is valid until the next call), as a window reader's mapped windows do: each slice is handed out
// in a mapping of its own, made unreadable at the next call (and by retire at the end). A reader
// that keeps a slice of a record past its callback and reads it later faults, as it would crash
// the process on an unmapped window.
type guardedLines struct {
	br   *bufio.Reader
	last []byte
}

func (g *guardedLines) Read(p []byte) (int, error) { g.retire(); return g.br.Read(p) }

func (g *guardedLines) ReadSlice(delim byte) ([]byte, error) {
	g.retire()
	b, err := g.br.ReadSlice(delim)
	if len(b) == 0 {
		return b, err
	}
	m, merr := syscall.Mmap(-1, 0, len(b), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if merr != nil {
		panic(merr)
	}
	copy(m, b)
	g.last = m
	return m, err
}

// retire makes the slice handed out last unreadable. It is not unmapped, so that its addresses
// are not mapped again for another slice: a read of it faults, always.
func (g *guardedLines) retire() {
	if g.last != nil {
		if err := syscall.Mprotect(g.last, syscall.PROT_NONE); err != nil {
			panic(err)
		}
		g.last = nil
	}
}

// readKept reads data with the reader of format into a fresh set and returns it with the edit
// calls and the call events the reader handed over, copied as they came (they are valid during
// the call only).
func readKept(t *testing.T, format Format, data []byte, guarded bool) (*findings.Set, []EditCall, []CallEvent) {
	t.Helper()
	r, err := testRegistry.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	var edits []EditCall
	var calls []CallEvent
	opts := Options{Registry: testRegistry, IncludeUnstructured: true,
		Edits: true, Calls: true, Sink: Funcs{
			OnEdit: func(e EditCall) { e.Input = bytes.Clone(e.Input); edits = append(edits, e) },
			OnCall: func(c CallEvent) { calls = append(calls, c) }}}
	var src interface {
		Read([]byte) (int, error)
	} = bytes.NewReader(data)
	g := &guardedLines{br: bufio.NewReaderSize(bytes.NewReader(data), 256<<10)}
	if guarded {
		src = g
	}
	set := findings.NewSet()
	if err := r.Read(context.Background(), Input{Name: "in.jsonl", R: src}, opts, set); err != nil {
		t.Fatal(err)
	}
	g.retire() // the last Record's bytes are gone too, once the reading is done
	set.ListUnlisted("in.jsonl")
	set.Compact()
	return set, edits, calls
}

// TestRecordBytesNotKept reads every line-based input of the testdata through a line source that
// makes each slice unreadable once the next is asked for (guardedLines), as the hook log's mapped
// windows are unmapped: no read may touch a record's bytes after its callback (a memo, a finding's
// field, a problem's text, a call handed over), and what the readers find, and hand to
// Options.Edits and Options.Calls, must not change.
func TestRecordBytesNotKept(t *testing.T) {
	// A read of a retired slice faults: a panic that fails the test with the culprit's stack.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var files []string
	for _, pat := range []string{"../testdata/*/*/*.jsonl", "../testdata/*/*.jsonl", "../testdata/*/*/*.json"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	read := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		format := testRegistry.Detect(data[:min(len(data), SniffSize)])
		if format == "" || format == Judgment || format == AGC { // read whole, not line by line
			continue
		}
		read++
		want, wantEdits, wantCalls := readKept(t, format, data, false)
		got, gotEdits, gotCalls := readKept(t, format, data, true)
		what := strings.TrimPrefix(p, "../testdata/") + " (" + string(format) + ")"
		sameSets(t, what, want, got)
		if !reflect.DeepEqual(wantEdits, gotEdits) {
			t.Errorf("%s: edits differ when record bytes die after their callback:\n%+v\n%+v", what, wantEdits, gotEdits)
		}
		if !reflect.DeepEqual(wantCalls, gotCalls) {
			t.Errorf("%s: calls differ when record bytes die after their callback:\n%+v\n%+v", what, wantCalls, gotCalls)
		}
	}
	if read < 10 {
		t.Fatalf("read %d inputs of the testdata, want at least 10", read)
	}
}
