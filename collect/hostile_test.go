package collect_test

// Hostile inputs (issue item 3): each case ends with a clear message and an exit status, never a
// panic or a hang. The cases run the real command in-process (command.Main) on files generated in
// t.TempDir(), under a deadline. The slow variants (a 1 GB line, 100,000 files) run only with
// AGC_HEAVY_TESTS=1 and without -short; light variants of them always run.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/command"
)

// crashRecord is a real Claude Code transcript record of a guard that exited 1 (the call ran
// unguarded): agc/hook-failed-open, a contract error, so the default --fail-on exits 1. Copied from
// /work/shared/samples/yul_README_session-transcript-entries.jsonl, line 1 (github.com/chains-project/yul,
// README.md at 3209b9457ab8, Claude Code 2.1.206). It is the canary: when it is found after a
// hostile record, reading went on past it.
const crashRecord = `{"parentUuid":"3d0b0198-4c4f-473d-aca8-81aae1c47ba4","isSidechain":false,"attachment":{"type":"hook_non_blocking_error","hookName":"PreToolUse:Write","toolUseID":"toolu_01NSX9EDCBG15megDu54GHRp","hookEvent":"PreToolUse","stderr":"Failed with non-blocking status code: outdated dependencies, use these versions instead:\n  org.json:json  20240303 -> 20260522\nexit status 2","stdout":"","exitCode":1,"command":"/home/aman/go/bin/yul","durationMs":5349},"type":"attachment","uuid":"9d9d7c75-51f3-45be-9fcd-63fd70c2d9b4","timestamp":"2026-07-10T01:30:29.184Z","session_id":"e4f05218-9565-43ba-826e-a9a699736c52","userType":"external","entrypoint":"cli","cwd":"/tmp/tmp","sessionId":"8e78af27-6afe-4d9c-a562-baaf77b94169","version":"2.1.206","gitBranch":"HEAD"}`

// blockResponse is an AGC runtime block: with --fail-on block it makes the exit status 1.
const blockResponse = `{"agc":"0.1","gate":{"id":"canary","kind":"runtime"},"verdict":"block","findings":[{"rule":"after-hostile","message":"Read after the hostile record."}]}`

// passResponse is an AGC pass: read, no finding.
const passResponse = `{"agc":"0.1","gate":{"id":"canary","kind":"runtime"},"verdict":"pass","findings":[]}`

// heavy reports whether the slow cases run (AGC_HEAVY_TESTS=1 and not -short).
func heavy(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("AGC_HEAVY_TESTS") != "1" {
		t.Skip("slow: set AGC_HEAVY_TESTS=1 (and drop -short) to run")
	}
}

// outcome is what one run of agc-sarif collect did.
type outcome struct {
	code   int
	stderr string
	sarif  []byte // the SARIF written to out.sarif, if any
}

// collectIn runs `agc-sarif collect --root dir -o out.sarif ARGS...` in dir with a deadline; a
// run that does not end within the deadline (plus grace) fails the test as a hang.
func collectIn(t *testing.T, dir string, deadline time.Duration, args ...string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	var stdout, stderr bytes.Buffer
	env := command.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(string) string { return "" }, Dir: dir}
	argv := append([]string{"agc-sarif", "collect", "--root", dir, "-o", "out.sarif"}, args...)
	done := make(chan int, 1)
	go func() { done <- command.Main(ctx, argv, env) }()
	select {
	case code := <-done:
		o := outcome{code: code, stderr: stderr.String()}
		o.sarif, _ = os.ReadFile(filepath.Join(dir, "out.sarif"))
		t.Logf("agc-sarif collect %s → exit %d\n%s", strings.Join(args, " "), code, clip(o.stderr))
		if strings.Contains(o.stderr, "panic") || strings.Contains(o.stderr, "goroutine ") {
			t.Errorf("stderr shows a crash:\n%s", clip(o.stderr))
		}
		if len(o.sarif) > 0 && (!utf8.Valid(o.sarif) || !json.Valid(o.sarif)) {
			t.Errorf("the SARIF written is not valid UTF-8 JSON")
		}
		return o
	case <-time.After(deadline + 10*time.Second):
		t.Fatalf("agc-sarif %s did not end within %v: a hang", strings.Join(args, " "), deadline)
		return outcome{}
	}
}

// expect checks the exit status and that stderr matches every pattern.
func (o outcome) expect(t *testing.T, code int, patterns ...string) {
	t.Helper()
	if o.code != code {
		t.Errorf("exit status %d, want %d; stderr:\n%s", o.code, code, clip(o.stderr))
	}
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(o.stderr) {
			t.Errorf("stderr does not match %q:\n%s", p, clip(o.stderr))
		}
	}
}

// clip shortens long output for failure messages.
func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// writeFile writes parts one after another into dir/name (big parts are written as they come).
func writeFile(t *testing.T, dir, name string, parts ...func(io.Writer) error) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range parts {
		if err := part(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// text is a part holding s.
func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// repeat is a part holding n bytes: chunk repeated, cut at n.
func repeat(chunk string, n int64) func(io.Writer) error {
	return func(w io.Writer) error {
		block := []byte(strings.Repeat(chunk, max(1, (1<<20)/len(chunk))))
		for n > 0 {
			b := block[:min(int64(len(block)), n)]
			if _, err := w.Write(b); err != nil {
				return err
			}
			n -= int64(len(b))
		}
		return nil
	}
}

// TestHostileDeepNesting: 10 MB of "[" must not overflow the stack, in detection and when forced
// through the AGC reader, and a balanced 10 MB nest too.
func TestHostileDeepNesting(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "open.json", repeat("[", 10<<20))
	writeFile(t, dir, "balanced.jsonl", repeat("[", 5<<20), repeat("]", 5<<20), text("\n"+blockResponse+"\n"))

	// Named, auto: no reader recognises it; an error naming the file, exit 2.
	collectIn(t, dir, time.Minute, "open.json").expect(t, 2, `open\.json:1: .*not a recognised input`)
	// Forced AGC: the value never closes; named at line 1, and a forced format that read nothing
	// from a named file is exit 2.
	collectIn(t, dir, time.Minute, "--format", "agc", "open.json").expect(t, 2, `open\.json:1: .*(cut short|nest|deep|too long|record limit)`,
		`open\.json: --format agc read nothing from it`)
	// Forced AGC, balanced: too deep to be a response; the response on the next line is still
	// read (its block makes the exit status 1 with --fail-on block).
	o := collectIn(t, dir, time.Minute, "--format", "agc", "--fail-on", "block", "balanced.jsonl")
	o.expect(t, 1, `failing on: block`)
}

// TestHostileLongLine: one line far over the record limit is skipped with a message naming file
// and line, without holding it, and the record after it is still read. The light variant uses
// an 80 MB line over a 16 MiB limit; the heavy one a 1 GB line over the default limit.
func TestHostileLongLine(t *testing.T) {
	cases := []struct {
		name  string
		size  int64
		flags []string
		heavy bool
	}{
		{"80MB", 80_000_000, []string{"--max-record-size", "16777216"}, false},
		{"1GB", 1_000_000_000, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.heavy {
				heavy(t)
			}
			dir := t.TempDir()
			line := `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"`
			writeFile(t, dir, "session.jsonl", text(crashRecord+"\n"+line), repeat("0123456789abcdef", c.size), text(`"}]}}`+"\n"+
				strings.Replace(crashRecord, "toolu_01NSX9EDCBG15megDu54GHRp", "toolu_01SecondCrashAfterTheLine", 1)+"\n"))
			args := append(append([]string{}, c.flags...), "session.jsonl")
			o := collectIn(t, dir, 5*time.Minute, args...)
			o.expect(t, 1, `session\.jsonl:2: .*(longer than|record limit|too long)`, `failing on: contract`)
			if !strings.Contains(o.stderr, "records read: 3") && !strings.Contains(o.stderr, "gave findings: 2") {
				t.Errorf("the records around the long line were not both read:\n%s", clip(o.stderr))
			}
		})
	}
}

// TestHostileNUL: a file of NUL bytes named on the command line is not an input: an error, exit 2.
// Forced through a reader, it is a problem naming file and line, not a crash, and exit 2: the
// forced format read nothing from it.
func TestHostileNUL(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "zeros.jsonl", repeat("\x00", 4<<20))
	collectIn(t, dir, time.Minute, "zeros.jsonl").expect(t, 2, `zeros\.jsonl:1: .*(binary|NUL)`)
	for _, f := range []string{"agc", "claude-transcript", "stream-json", "hook-log"} {
		t.Run(f, func(t *testing.T) {
			o := collectIn(t, dir, time.Minute, "--format", f, "zeros.jsonl")
			o.expect(t, 2, `zeros\.jsonl:1: `, `zeros\.jsonl: --format `+f+` read nothing from it \(1 record skipped\); it looks like no format agc-sarif reads: binary data`)
		})
	}
}

// TestHostileManyKeys: an AGC response with a million extra keys is read (unknown fields are
// ignored) in bounded time.
func TestHostileManyKeys(t *testing.T) {
	dir := t.TempDir()
	keys := func(w io.Writer) error {
		var b bytes.Buffer
		for i := 0; i < 1_000_000; i++ {
			fmt.Fprintf(&b, `,"k%d":%d`, i, i)
		}
		_, err := w.Write(b.Bytes())
		return err
	}
	writeFile(t, dir, "keys.jsonl", text(strings.TrimSuffix(blockResponse, "}")), keys, text("}\n"))
	o := collectIn(t, dir, 5*time.Minute, "--fail-on", "block", "keys.jsonl")
	o.expect(t, 1, `failing on: block`)
}

// TestHostileHugeNumbers: numbers of 10,000 digits where integers belong are a schema breach,
// not an overflow or a hang.
func TestHostileHugeNumbers(t *testing.T) {
	dir := t.TempDir()
	digits := "1" + strings.Repeat("0", 9999)
	writeFile(t, dir, "numbers.jsonl", text(
		`{"agc":"0.1","gate":{"id":"num","kind":"runtime"},"verdict":"block","findings":[{"rule":"r","message":"m","location":{"path":"a.go","line":`+digits+`,"column":-`+digits+`}}]}`+"\n"+
			`{"agc":"0.1","gate":{"id":"num","kind":"runtime"},"verdict":"block","findings":[{"rule":"r","message":"m"}],"x":`+digits+`.`+digits+`e`+digits+"}\n"))
	o := collectIn(t, dir, time.Minute, "numbers.jsonl")
	o.expect(t, 1, `failing on: contract`)
}

// TestHostileInvalidUTF8: invalid UTF-8 inside strings is read, and the SARIF is valid UTF-8 JSON.
func TestHostileInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	bad := "bad \xff\xfe\xc3( bytes \xed\xa0\x80 end"
	writeFile(t, dir, "utf8.jsonl", text(
		`{"agc":"0.1","gate":{"id":"utf8","kind":"runtime"},"verdict":"block","findings":[{"rule":"bytes","message":"`+bad+`","location":{"path":"src/`+bad+`.go","line":1}}]}`+"\n"+
			blockResponse+"\n"),
	)
	writeFile(t, dir, "session.jsonl", text(strings.Replace(crashRecord, "outdated dependencies", bad, 1)+"\n"))
	o := collectIn(t, dir, time.Minute, "--fail-on", "block,contract", "utf8.jsonl", "session.jsonl")
	o.expect(t, 1, `failing on: block, contract`)
	if len(o.sarif) == 0 {
		t.Fatal("no SARIF written")
	}
	if !utf8.Valid(o.sarif) || !json.Valid(o.sarif) {
		t.Errorf("the SARIF is not valid UTF-8 JSON")
	}
	if !bytes.Contains(o.sarif, []byte("bad ")) {
		t.Errorf("the finding with invalid UTF-8 is not in the SARIF")
	}
}

// TestHostileSpecialFiles: a FIFO or a device named as input is refused without opening it (it
// could block forever or never end): exit 2 and a message naming it. Found while walking a
// folder, it is passed over.
func TestHostileSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "in", "hook.fifo")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	writeFile(t, dir, "in/ok.jsonl", text(crashRecord+"\n"))
	collectIn(t, dir, 30*time.Second, "in/hook.fifo").expect(t, 2, `in/hook\.fifo: not a regular file \(a FIFO\)`)
	collectIn(t, dir, 30*time.Second, "/dev/zero").expect(t, 2, `/dev/zero: not a regular file \(a device\)`)
	collectIn(t, dir, 30*time.Second, "/dev/stdin").expect(t, 2, `/dev/stdin: `)
	// Walking the folder: the FIFO is skipped, the transcript beside it is read.
	collectIn(t, dir, 30*time.Second, "in").expect(t, 1, `failing on: contract`)
}

// TestHostileSymlinkLoop: a folder with symbolic link loops (and a link out of the repository)
// is walked to the end; links are not followed, the real file in it is read.
func TestHostileSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "logs/a/session.jsonl", text(crashRecord+"\n"))
	for link, target := range map[string]string{
		"logs/a/up":   "..",           // logs/a/up/a/up/… forever
		"logs/self":   "self",         // a link to itself
		"logs/b":      "c",            // b → c → b
		"logs/c":      "b",            //
		"logs/escape": "/etc",         // out of the repository
		"logs/pw":     "/etc/passwd",  // a file out of the repository
		"logs/gone":   "no-such-file", // dangling
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	o := collectIn(t, dir, 30*time.Second, "logs")
	o.expect(t, 1, `failing on: contract`, `records read: 1\b`)
	// Named directly, a link loop is a clear error, exit 2.
	collectIn(t, dir, 30*time.Second, "logs/self").expect(t, 2, `logs/self: .*(too many levels of symbolic links|loop)`)
}

// TestHostileManyFiles: a folder of many small files is read with bounded open files and time.
// Light: 5,000 files; heavy: 100,000.
func TestHostileManyFiles(t *testing.T) {
	cases := []struct {
		n     int
		heavy bool
	}{{5000, false}, {100_000, true}}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			if c.heavy {
				heavy(t)
			}
			dir := t.TempDir()
			for i := 0; i < c.n; i++ {
				writeFile(t, dir, fmt.Sprintf("many/d%03d/f%06d.jsonl", i%100, i), text(passResponse+"\n"))
			}
			writeFile(t, dir, "many/zz/last.jsonl", text(blockResponse+"\n"))
			start := time.Now()
			o := collectIn(t, dir, 10*time.Minute, "--fail-on", "block", "many")
			o.expect(t, 1, `failing on: block`, fmt.Sprintf(`records read: %d\b`, c.n+1))
			t.Logf("%d files in %v", c.n+1, time.Since(start))
		})
	}
}

// TestHostilePathNames: paths holding "::" or a newline are read and named, and no line of
// stderr becomes a GitHub workflow command (a line starting with "::").
func TestHostilePathNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{
		"a::b.jsonl",
		"logs/x\n::error file=README.md,line=1::injected.jsonl",
		"logs/::warning::also.jsonl",
		"logs/tab\tand\rcr.jsonl",
	}
	for _, n := range names {
		// A record cut short, then the canary: the broken one's problem message names the file.
		writeFile(t, dir, n, text(`{"parentUuid":"x","type":"attachment","attachment":{"type":"hook_success",`+"\n\n"+crashRecord+"\n"))
	}
	o := collectIn(t, dir, 30*time.Second, append([]string{"--format", "claude-transcript"}, names...)...)
	o.expect(t, 1, `a::b\.jsonl`, `failing on: contract`)
	o = collectIn(t, dir, 30*time.Second, "logs")
	o.expect(t, 1, `failing on: contract`)
	for _, line := range strings.Split(o.stderr, "\n") {
		if l := strings.TrimLeft(line, " \t"); strings.HasPrefix(l, "::") || strings.HasPrefix(l, "##[") {
			t.Errorf("stderr line would be read as a workflow command: %q", line)
		}
	}
	if !strings.Contains(o.stderr, "[inert] ::error file=README.md") || strings.Contains(o.stderr, "\r") {
		t.Errorf("the hostile names are not shown inert (prefixed, control characters escaped):\n%s", clip(o.stderr))
	}
}
