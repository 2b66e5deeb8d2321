package collect_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/inputs"
)

// nobody is a Consumer that takes the pass and keeps nothing.
type nobody struct{}

func (nobody) Call(inputs.CallEvent)    {}
func (nobody) Finding(findings.Finding) {}

// TestConsumerListsUnlistedProblems: a run with a consumer (friction's) sums up per file the
// problems past findings.MaxProblemsPerReason of one reason, so that friction's list of problems
// drops nothing silently, and each file has its own allowance.
func TestConsumerListsUnlistedProblems(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../testdata/claude/pre-deny/hook-log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(log), "\n")
	bad := first + "\n" + strings.Repeat("{not json\n", findings.MaxProblemsPerReason+20)
	for _, name := range []string{"a.jsonl", "b.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rd, err := collect.Run(context.Background(), collect.Config{Paths: []string{"a.jsonl", "b.jsonl"}, Dir: dir, Root: dir, Consumer: nobody{}})
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	sums := map[string]string{}
	for _, p := range rd.Set.Problems {
		perFile[p.Source.File]++
		if strings.Contains(p.Message, "more records skipped") {
			sums[p.Source.File] = p.Message
		}
	}
	for _, name := range []string{"a.jsonl", "b.jsonl"} {
		if !strings.HasPrefix(sums[name], "20 more records skipped") {
			t.Errorf("%s: sum of the problems not listed = %q, want 20 more records skipped", name, sums[name])
		}
		if perFile[name] != findings.MaxProblemsPerReason+1 {
			t.Errorf("%s: %d problems, want %d listed and one sum", name, perFile[name], findings.MaxProblemsPerReason+1)
		}
	}
}
