package actionslog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/runnercmd"
)

var hostile = []string{
	"x ##[stop-commands]T",
	"##[error]forged",
	"see ##[add-mask]secret",
	"\u2003::error::em space",
	"\u3000::warning::ideographic space",
	"\u200b::error::zero width",
	"#\u00ad#[error]soft hyphen",
	"a\r::error::after CR",
	"evil\u202etxt.exe",
	"\ufeff::notice::bom",
	"::T::resume guess",
	"   ::add-mask::indented",
}

func TestLine(t *testing.T) {
	for _, s := range hostile {
		got := Line(s)
		r := runnercmd.New()
		r.Feed("x", got)
		if len(r.Commands) > 0 {
			t.Errorf("Line(%q) = %q still holds %+v", s, got, r.Commands[0])
		}
		if strings.ContainsRune(got, '\u202e') {
			t.Errorf("Line(%q) keeps U+202E", s)
		}
	}
	if got := Line("plain: a.go:3 ok"); got != "plain: a.go:3 ok" {
		t.Errorf("plain text changed: %q", got)
	}
}

// TestStretches: in Actions every stretch of text is wrapped, each with its own token, our
// commands are written outside any stretch, and the runner port processes exactly our commands.
func TestStretches(t *testing.T) {
	tape := runnercmd.NewTape()
	l := New(tape.Writer("stdout"), tape.Writer("stderr"), true)
	n := 0
	l.token = func() string { n++; return fmt.Sprintf("tok%08d", n) }
	for _, s := range hostile {
		fmt.Fprintln(l.Stderr(), "agc-sarif: "+s)
	}
	fmt.Fprintln(l.Commands(), "::error file=a.go,line=3::why ##[error]x \u202e")
	fmt.Fprintln(l.Stdout(), hostile[0])
	fmt.Fprintf(l.Stderr(), "no newline %s", hostile[1])
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	r := tape.Replay()
	var ours []string
	for _, c := range r.Commands {
		if !c.Processed {
			t.Errorf("not processed (stopped): %s:%d %q", c.Stream, c.Line, c.Text)
			continue
		}
		ours = append(ours, c.Name)
	}
	want := "stop-commands tok00000001 error stop-commands tok00000002 stop-commands tok00000003"
	if strings.Join(ours, " ") != want {
		t.Errorf("commands %q, want %q\nstdout:\n%s\nstderr:\n%s", strings.Join(ours, " "), want, tape.Text("stdout"), tape.Text("stderr"))
	}
	if r.Stopped() {
		t.Error("a stretch was left open")
	}
	if strings.ContainsRune(tape.Text("stdout")+tape.Text("stderr"), '\u202e') {
		t.Error("U+202E reached the log")
	}
}

func TestNotInActions(t *testing.T) {
	var out, errb bytes.Buffer
	l := New(&out, &errb, false)
	fmt.Fprintln(l.Stderr(), hostile[0])
	l.Close()
	if strings.Contains(errb.String(), "stop-commands::") || errb.String() != `x ##\[stop-commands]T`+"\n" {
		t.Errorf("stderr %q", errb.String())
	}
}

func TestLongLine(t *testing.T) {
	var out, errb bytes.Buffer
	l := New(&out, &errb, false)
	long := strings.Repeat("a", maxLine-1) + "##[error]x"
	fmt.Fprintln(l.Stderr(), long)
	l.Close()
	r := runnercmd.New()
	r.Feed("stderr", errb.String())
	if len(r.Commands) > 0 {
		t.Errorf("command across a broken line: %+v", r.Commands)
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"a": "x ##[stop-commands]T", "b": "evil\u202etxt \U000e0041 \u00ad", "c": "::error::y", "d": "###[x"}
	b, _ := json.MarshalIndent(in, "", "  ")
	got := JSON(b)
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	for k, v := range in {
		if back[k] != v {
			t.Errorf("%s: %q → %q", k, v, back[k])
		}
	}
	r := runnercmd.New()
	r.Feed("stdout", string(got))
	if len(r.Commands) > 0 {
		t.Errorf("commands in JSON: %+v\n%s", r.Commands, got)
	}
}

// FuzzLog: whatever text is written, in whatever pieces, to stdout and stderr in Actions, the
// runner finds only our stop-commands stretches and the one command written between them, and
// nothing is left stopped.
func FuzzLog(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, "\u2003::warning::x\n##[error]y", uint8(3))
	}
	f.Fuzz(func(t *testing.T, a, b string, cut uint8) {
		tape := runnercmd.NewTape()
		l := New(tape.Writer("stdout"), tape.Writer("stderr"), true)
		n := 0
		l.token = func() string { n++; return fmt.Sprintf("tok%08d", n) }
		k := int(cut) % (len(a) + 1)
		l.Stderr().Write([]byte(a[:k]))
		l.Stdout().Write([]byte(b))
		l.Stderr().Write([]byte(a[k:]))
		fmt.Fprintln(l.Commands(), "::error title=t::ours")
		l.Stderr().Write([]byte(b))
		l.Close()
		r := tape.Replay()
		for _, c := range r.Commands {
			name := strings.ToLower(c.Name)
			if !c.Processed || c.Form != "v2" || !(name == "stop-commands" || strings.HasPrefix(name, "tok") || (name == "error" && c.Data == "ours")) {
				t.Fatalf("foreign or swallowed command %+v\nstdout %q\nstderr %q", c, tape.Text("stdout"), tape.Text("stderr"))
			}
		}
		if r.Stopped() {
			t.Fatal("left stopped")
		}
	})
}

// TestStretchReordered: the runner may read stdout's lines before the end of a stretch on
// stderr (two reader threads). Our annotation is still obeyed, and the agent text stays inert.
func TestStretchReordered(t *testing.T) {
	var out, errb bytes.Buffer
	l := New(&out, &errb, true)
	l.token = func() string { return "tok00000001" }
	fmt.Fprintln(l.Stderr(), "agent ##[error]x")
	fmt.Fprintln(l.Commands(), "::error::why it failed")
	l.Close()
	errLines := runnercmd.SplitLines(errb.String())
	last := len(errLines) - 1
	if errLines[last] != "::tok00000001::" {
		t.Fatalf("stderr %q", errLines)
	}
	r := runnercmd.New()
	r.Feed("stderr", strings.Join(errLines[:last], "\n")) // the stretch, but not its end
	r.Feed("stdout", out.String())                        // stdout overtakes
	r.Feed("stderr", errLines[last])
	var got []string
	for _, c := range r.Commands {
		if c.Processed {
			got = append(got, c.Name+":"+c.Data)
		}
	}
	if want := "stop-commands:tok00000001 tok00000001: error:why it failed"; strings.Join(got, " ") != want {
		t.Errorf("processed %q, want %q\nstdout %q", strings.Join(got, " "), want, out.String())
	}
	if r.Stopped() {
		t.Error("left stopped")
	}
}

// TestDataAlone: JSON written after a stretch on stderr reaches stdout alone (stdout may be a
// file), with nothing of the stretch in it.
func TestDataAlone(t *testing.T) {
	var out, errb bytes.Buffer
	l := New(&out, &errb, true)
	fmt.Fprintln(l.Stderr(), "progress ##[error]x")
	doc := []byte(`{"a":"b"}` + "\n")
	if err := l.Data(doc); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(l.Stderr(), "after")
	l.Close()
	if out.String() != string(doc) {
		t.Errorf("stdout = %q, want the JSON alone", out.String())
	}
}
