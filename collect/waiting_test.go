package collect

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/difffilter"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
	"github.com/agc-sarif/agc-sarif/internal/opens"
	"github.com/agc-sarif/agc-sarif/runtimes"
)

// TestSessionAnchorWaitOrTwoPasses: the events that wait for the sessions' edits in one read are
// anchored as when too many wait and the findings are read in a second pass (every edit known,
// events anchored as read), on the real session's three files read at once.
func TestSessionAnchorWaitOrTwoPasses(t *testing.T) {
	root, base := replayRepo(t)
	paths := replayPaths(t)
	got := map[int]string{}
	for _, max := range []int{0, 1} {
		res, err := Run(context.Background(), Config{Paths: paths, Root: root, Dir: root, Redact: true, Base: base, Jobs: 2, maxWaiting: max})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res.Findings)
		if err != nil {
			t.Fatal(err)
		}
		got[max] = string(b)
		if n := strings.Count(got[max], "Anchored beside the agent's edit"); n < 6 {
			t.Errorf("maxWaiting %d: %d findings beside an edit, want 6 or more", max, n)
		}
	}
	if got[0] != got[1] {
		t.Errorf("one read and two passes differ:\none read:   %s\ntwo passes: %s", got[0], got[1])
	}
}

// replayPaths are the real session's three files, by absolute path.
func replayPaths(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, f := range []string{"hook-log.jsonl", "session.jsonl", "stream.jsonl"} {
		p, err := filepath.Abs(filepath.Join(replayDir, f))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestOneReadWithBase: with --base and a consumer (the action's summary), each input is opened
// once; past the waiting bound, twice, and the run says so.
func TestOneReadWithBase(t *testing.T) {
	root, base := replayRepo(t)
	paths := replayPaths(t)
	for _, tc := range []struct{ maxWaiting, opens int }{{0, 1}, {1, 2}} {
		var opened opens.Counter
		calls := &countingConsumer{}
		res, err := Run(context.Background(), Config{Paths: paths, Root: root, Dir: root, Redact: true, Base: base, Jobs: 2,
			maxWaiting: tc.maxWaiting, Consumer: calls, Open: opened.Open, Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if n := opened.Of(filepath.Base(p)); n != tc.opens {
				t.Errorf("maxWaiting %d: %s opened %d times, want %d", tc.maxWaiting, filepath.Base(p), n, tc.opens)
			}
		}
		if (tc.opens > 1) != (len(res.Notes) > 0) {
			t.Errorf("maxWaiting %d: notes %q: a second pass must be said, and only then", tc.maxWaiting, res.Notes)
		}
		if calls.calls == 0 || calls.findings == 0 {
			t.Errorf("maxWaiting %d: the consumer took %d calls and %d findings, want some of each", tc.maxWaiting, calls.calls, calls.findings)
		}
	}
}

// countingConsumer counts what a run hands its consumer.
type countingConsumer struct {
	mu              sync.Mutex
	calls, findings int
}

func (c *countingConsumer) Call(inputs.CallEvent) { c.mu.Lock(); c.calls++; c.mu.Unlock() }
func (c *countingConsumer) Finding(findings.Finding) {
	c.mu.Lock()
	c.findings++
	c.mu.Unlock()
}

// TestSessionAnchorReadPaths: the test above compares two runs; this one checks that they took
// the two paths it names. Within the bound the inputs are read once, with the edits; past it
// that read goes on for the edits, and the findings are read once more, anchored as read, which
// the run says.
func TestSessionAnchorReadPaths(t *testing.T) {
	root, base := replayRepo(t)
	paths := replayPaths(t)
	ctx := context.Background()
	for _, tc := range []struct {
		maxWaiting int
		want       string
	}{
		{0, "findings with edits"},
		{1, "findings with edits, findings"},
	} {
		cfg := Config{Paths: paths, Root: root, Dir: root, Redact: true, Base: base, Jobs: 2, maxWaiting: tc.maxWaiting,
			Getenv: func(string) string { return "" }, Stderr: io.Discard}
		res := &Result{Root: root}
		ex := expandInputs(cfg.Dir, cfg.Paths, cfg.Judgments)
		var err error
		if res.Diff, err = changeDiff(ctx, cfg, root); err != nil || res.Diff == nil {
			t.Fatalf("diff against %s: %v", base, err)
		}
		snk, err := newSink(cfg, res, ex.Files)
		if err != nil {
			t.Fatal(err)
		}
		var reads []string
		_, _, notes := snk.read(ctx, inputs.Options{Registry: runtimes.Inputs()}, func(ctx context.Context, opts inputs.Options) (*findings.Set, readStats) {
			if opts.Edits {
				reads = append(reads, "findings with edits")
			} else {
				reads = append(reads, "findings")
			}
			return readAll(ctx, ex.Files, cfg.Format, opts, parallel{jobs: cfg.Jobs}, aggregating(bound(cfg)), nil)
		})
		if (len(reads) > 1) != (len(notes) > 0) {
			t.Errorf("maxWaiting %d: %d reads, notes %q: a second read must be said, and only then", tc.maxWaiting, len(reads), notes)
		}
		if got := strings.Join(reads, ", "); got != tc.want {
			t.Errorf("maxWaiting %d: reads %q, want %q", tc.maxWaiting, got, tc.want)
		}
		if len(ex.Files) != len(paths) {
			t.Errorf("%d of %d inputs found", len(ex.Files), len(paths))
		}
	}
}

// TestEditGatherOrder: edits handed over out of order (parts of a file read at once) and twice
// (a part read again) are kept in the order of the file's lines, once each.
func TestEditGatherOrder(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"src/a.py": "one\ntwo\ndef added():\n    return 42\nfive\n", "src/b.py": "new file line one\nnew file line two\n"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := difffilter.Parse(strings.NewReader("diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1,3 +1,5 @@\n one\n two\n+def added():\n+    return 42\n five\n" +
		"diff --git a/src/b.py b/src/b.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/b.py\n@@ -0,0 +1,2 @@\n+new file line one\n+new file line two\n"))
	if err != nil {
		t.Fatal(err)
	}
	anc, err := anchor.New(anchor.Options{Root: root, Diff: d})
	if err != nil {
		t.Fatal(err)
	}
	g := newEditGather(anc, []file{{Name: "other.jsonl"}, {Name: "x.jsonl"}})
	edit := func(line int, file, text string) inputs.EditCall {
		in, _ := json.Marshal(map[string]string{"file_path": file, "old_string": "x", "new_string": text})
		return inputs.EditCall{Source: findings.Source{File: "x.jsonl", Line: line}, Session: "s1", Tool: "Edit", Input: in}
	}
	g.receive(edit(10, "src/b.py", "new file line two"))
	g.receive(edit(5, "src/a.py", "    return 42"))
	g.receive(edit(5, "src/a.py", "    return 42"))
	g.keep(Config{Stderr: os.Stderr})
	for _, c := range []struct {
		src  string
		line int
		want string
	}{
		{"x.jsonl", 7, "src/a.py:4"},     // the last edit before line 7
		{"x.jsonl", 12, "src/b.py:2"},    // the last edit before line 12
		{"x.jsonl", 1, "src/a.py:4"},     // the first edit after line 1
		{"other.jsonl", 1, "src/b.py:2"}, // another file, no time: the session's last edit in reading order
	} {
		f := anc.Anchor(findings.Finding{RuleID: "g/r", Kind: findings.RuntimeGate, Source: findings.Source{File: c.src, Line: c.line},
			Call: &findings.Call{SessionID: "s1", Tool: "Bash"}})
		if at := f.Location.Path + ":" + strconv.Itoa(f.Location.StartLine); at != c.want {
			t.Errorf("event at %s:%d anchored at %s, want %s", c.src, c.line, at, c.want)
		}
	}
}
