package annotate

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
	"github.com/agc-sarif/agc-sarif/internal/visible"
)

// command is one parsed workflow command line.
type command struct {
	Name    string
	Props   map[string]string
	Message string
}

var cmdLine = regexp.MustCompile(`^::([a-z-]+)(?: ([^:]*))?::(.*)$`)

func unescape(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// parse reads output the way the runner does: one command per line, properties split on commas.
func parse(t *testing.T, out string) []command {
	t.Helper()
	var cmds []command
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := cmdLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		c := command{Name: m[1], Props: map[string]string{}, Message: unescape(m[3])}
		if m[2] != "" {
			for _, kv := range strings.Split(m[2], ",") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("bad property %q in %q", kv, line)
				}
				c.Props[k] = unescape(v)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

func finding(v gates.Verdict, msg string, line, count int) findings.Finding {
	return findings.Finding{RuleID: "guard/rule", Gate: "guard", Rule: "rule", Kind: findings.RuntimeGate,
		Verdict: v, Level: findings.DefaultLevel(v), Message: msg, Count: count,
		Location: &findings.Location{Path: "src/a.go", StartLine: line, EndLine: line + 1}}
}

func TestWriteInert(t *testing.T) {
	hostile := []string{
		"100% bad %0A%25 already-escaped",
		"line one\n::set-output name=x::injected\r\n::add-mask::secret",
		"::error file=x::fake",
		"title: a, b: c",
	}
	var fs []findings.Finding
	for i, m := range hostile {
		f := finding(gates.Block, m, i+1, 1)
		f.Target = "Bash.command, with: colon"
		f.Location.Path = "dir,with:odd/x y.go"
		fs = append(fs, f)
	}
	var buf bytes.Buffer
	Write(&buf, fs, Options{})
	cmds := parse(t, buf.String())
	if len(cmds) != len(hostile) {
		t.Fatalf("got %d commands, want %d:\n%s", len(cmds), len(hostile), buf.String())
	}
	for i, c := range cmds {
		if c.Name != "error" {
			t.Errorf("command %d is %q", i, c.Name)
		}
		if want := Message(fs[i]); c.Message != want {
			t.Errorf("message %d = %q, want %q", i, c.Message, want)
		}
		want := map[string]string{"file": "dir,with:odd/x y.go", "line": fmt.Sprint(i + 1), "endLine": fmt.Sprint(i + 2),
			"title": "guard/rule (Bash.command, with: colon)"}
		for k, v := range want {
			if c.Props[k] != v {
				t.Errorf("command %d %s = %q, want %q", i, k, c.Props[k], v)
			}
		}
	}
}

func TestWriteLimits(t *testing.T) {
	var fs []findings.Finding
	for i := 0; i < 15; i++ {
		fs = append(fs, finding(gates.Block, fmt.Sprint("block ", i), i+1, 1+i%3))
	}
	for i := 0; i < 3; i++ {
		fs = append(fs, finding(gates.Repaired, fmt.Sprint("repaired ", i), i+1, 1))
	}
	for i := 0; i < 12; i++ {
		fs = append(fs, finding(gates.Steer, fmt.Sprint("steer ", i), i+1, 1))
	}
	c := findings.Finding{RuleID: "agc/schema", Kind: findings.Contract, Level: findings.Error, Message: "bad schema", Count: 1}
	fs = append(fs, c) // no location: still annotated, without a file
	var buf bytes.Buffer
	st := Write(&buf, fs, Options{Max: 10, SARIFFile: "agc-results.sarif"})
	cmds := parse(t, buf.String())
	count := map[string]int{}
	for _, c := range cmds {
		count[c.Name]++
	}
	if count["error"] != 10 || count["warning"] != 3 || count["notice"] != 10 {
		t.Errorf("counts %v", count)
	}
	if st.LeftOut[findings.Error] != 6 || st.LeftOut[findings.Note] != 3 || st.Written[findings.Note] != 9 {
		t.Errorf("stats %+v", st)
	}
	last := cmds[len(cmds)-1]
	if last.Name != "notice" || !strings.Contains(last.Message, "9 more findings") || !strings.Contains(last.Message, "agc-results.sarif") {
		t.Errorf("closing notice %+v", last)
	}
	// heaviest first: findings that happened 3 times come before those that happened once
	if !strings.Contains(cmds[0].Message, "Seen: 3 times") {
		t.Errorf("first error %q is not the most frequent", cmds[0].Message)
	}
}

func TestWriteNone(t *testing.T) {
	var buf bytes.Buffer
	Write(&buf, []findings.Finding{finding(gates.Block, "x", 1, 1)}, Options{Max: -1})
	cmds := parse(t, buf.String())
	if len(cmds) != 1 || cmds[0].Name != "notice" {
		t.Errorf("got %+v", cmds)
	}
	buf.Reset()
	Write(&buf, nil, Options{})
	if buf.Len() != 0 {
		t.Errorf("wrote %q for no findings", buf.String())
	}
}

func TestMessageTruncated(t *testing.T) {
	f := finding(gates.Block, strings.Repeat("é", maxMessage), 1, 1)
	f.Target = strings.Repeat("t", 3*maxMessage)
	m := Message(f)
	if len(m) > maxMessage+64 {
		t.Errorf("len %d", len(m))
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("closed") }

func TestWriteFailingWriterNoPanic(t *testing.T) {
	Write(failWriter{}, []findings.Finding{finding(gates.Block, "x", 1, 1)}, Options{})
}

// Whatever an agent writes, one finding is one annotation whose message and properties read back
// unchanged: nothing it writes becomes a command of its own.
func FuzzWriteInert(f *testing.F) {
	f.Add("msg\n::set-output name=x::y", "a,b:c.go", "Bash.command")
	f.Add("%0A%25\r\n::add-mask::s", "::error::", "")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, msg, path, target string) {
		fd := finding(gates.Block, msg, 3, 1)
		fd.Location.Path, fd.Target = path, target
		var buf bytes.Buffer
		Write(&buf, []findings.Finding{fd}, Options{})
		cmds := parse(t, buf.String())
		if len(cmds) != 1 || cmds[0].Name != "error" {
			t.Fatalf("got %+v from %q", cmds, buf.String())
		}
		if cmds[0].Message != Message(fd) {
			t.Fatalf("message %q, want %q", cmds[0].Message, Message(fd))
		}
		if path != "" && cmds[0].Props["file"] != visible.String(path) {
			t.Fatalf("file %q, want %q", cmds[0].Props["file"], visible.String(path))
		}
	})
}

// Findings that fail the step are errors whatever Max, Shown and their level say; past GitHub's
// ten, the nine heaviest and one error that counts the rest.
func TestWriteFailing(t *testing.T) {
	failsIf := func(f *findings.Finding) bool { return strings.HasPrefix(f.Message, "fail") }
	hidden := func(*findings.Finding) bool { return false }
	for _, n := range []int{1, 10, 11, 25} {
		var fs []findings.Finding
		for i := 0; i < n; i++ {
			f := finding(gates.Steer, fmt.Sprint("fail ", i), i+1, 1+i) // a steer: level note
			fs = append(fs, f)
		}
		fs = append(fs, finding(gates.Block, "other block", 1, 1))
		var buf bytes.Buffer
		st := Write(&buf, fs, Options{Max: -1, Fails: failsIf, Shown: hidden, SARIFFile: "x.sarif"})
		cmds := parse(t, buf.String())
		errs := 0
		for _, c := range cmds {
			if c.Name == "error" {
				errs++
				if strings.Contains(c.Message, "other block") {
					t.Errorf("n=%d: a hidden finding was annotated", n)
				}
			}
		}
		if want := min(n, GitHubLimit); errs != want || st.Failing != n {
			t.Errorf("n=%d: %d errors (stats %+v), want %d", n, errs, st, want)
		}
		if n > GitHubLimit {
			last := cmds[GitHubLimit-1]
			want := fmt.Sprintf("%d more findings fail this step", n-GitHubLimit+1)
			if !strings.Contains(last.Message, want) || !strings.Contains(last.Message, "Why this step failed") || !strings.Contains(last.Message, "x.sarif") {
				t.Errorf("n=%d: last error %q lacks %q", n, last.Message, want)
			}
			// the heaviest (most events) come first
			if !strings.HasPrefix(cmds[0].Message, fmt.Sprintf("fail %d.", n-1)) {
				t.Errorf("n=%d: first error %q is not the heaviest", n, cmds[0].Message)
			}
		}
		if !strings.HasPrefix(cmds[0].Props["title"], "Fails this step: guard/rule") {
			t.Errorf("title %q", cmds[0].Props["title"])
		}
	}
}

// With failing findings taking error slots, other errors fill only what is left of GitHub's ten.
func TestWriteFailingLeavesRoom(t *testing.T) {
	var fs []findings.Finding
	for i := 0; i < 7; i++ {
		fs = append(fs, finding(gates.Block, fmt.Sprint("fail ", i), i+1, 1))
	}
	for i := 0; i < 7; i++ {
		fs = append(fs, finding(gates.Block, fmt.Sprint("other ", i), i+1, 1))
	}
	var buf bytes.Buffer
	st := Write(&buf, fs, Options{Fails: func(f *findings.Finding) bool { return strings.HasPrefix(f.Message, "fail") }})
	if st.Written[findings.Error] != GitHubLimit || st.LeftOut[findings.Error] != 4 {
		t.Errorf("stats %+v", st)
	}
}

// TestWritePartialClaims: the closing notices say the SARIF holds every finding only when it
// does (Partial false), and only the heaviest when results were left out of it.
func TestWritePartialClaims(t *testing.T) {
	var fs []findings.Finding
	for i := 0; i < 25; i++ {
		fs = append(fs, finding(gates.Block, fmt.Sprint("block ", i), i+1, 1))
	}
	fails := func(*findings.Finding) bool { return true }
	for _, partial := range []bool{false, true} {
		var buf bytes.Buffer
		Write(&buf, fs, Options{Fails: fails, SARIFFile: "x.sarif", Partial: partial})
		out := buf.String()
		every, heaviest := strings.Contains(out, "holds every one of them"), strings.Contains(out, "holds the heaviest of them")
		if every == partial || heaviest != partial {
			t.Errorf("partial %v: claims every %v, heaviest %v:\n%s", partial, every, heaviest, out)
		}
	}
}
