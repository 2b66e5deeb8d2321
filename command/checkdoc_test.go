package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCheckDocExamples keeps docs/check.md's examples real: each "check-example" block is written
// as its file, each "check-output" command is run on them, and its stdout must be the block
// below it, word for word, with exit status 1.
func TestCheckDocExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/check.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)<!-- check-(example|output): ([^>]+?) -->\n```[a-z]*\n(.*?)```\n")
	dir := t.TempDir()
	var runs [][]string
	for _, m := range block.FindAllStringSubmatch(string(data), -1) {
		if m[1] == "example" {
			if err := os.WriteFile(filepath.Join(dir, m[2]), []byte(m[3]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		runs = append(runs, []string{m[2], m[3]})
	}
	if len(runs) < 2 {
		t.Fatalf("docs/check.md has %d check-output examples, want 2", len(runs))
	}
	for _, r := range runs {
		args := strings.Fields(r[0])
		stdin := ""
		if last := args[len(args)-1]; strings.HasPrefix(last, "<") {
			b, err := os.ReadFile(filepath.Join(dir, last[1:]))
			if err != nil {
				t.Fatal(err)
			}
			stdin, args = string(b), args[:len(args)-1]
		}
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Dir: dir, Getenv: func(string) string { return "" }}
		code := Main(context.Background(), append([]string{"agc-sarif"}, args...), env)
		if code != ExitFail || out.String() != r[1] {
			t.Errorf("agc-sarif %s: exit %d (want 1), stdout:\n%s\nwant (docs/check.md):\n%s\nstderr: %s", r[0], code, out.String(), r[1], errb.String())
		}
	}
}
