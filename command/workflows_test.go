package command

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The workflows of the README, docs/workflows.md and docs/probe.md are the files in testdata/workflows (which CI
// lints with actionlint), each included verbatim after a `<!-- workflow: PATH -->` marker; every
// file is included in one of them.
func TestReadmeWorkflowsAreTheLintedFiles(t *testing.T) {
	var readme []byte
	for _, p := range []string{"README.md", "docs/workflows.md", "docs/probe.md"} {
		data, err := os.ReadFile(filepath.Join("..", p))
		if err != nil {
			t.Fatal(err)
		}
		readme = append(readme, data...)
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows in testdata/workflows: %v", err)
	}
	included := map[string]string{}
	marker := regexp.MustCompile("(?s)<!-- workflow: (testdata/workflows/[^ ]+) -->\n```yaml\n(.*?)\n```\n")
	for _, m := range marker.FindAllStringSubmatch(string(readme), -1) {
		if prev, ok := included[m[1]]; ok && prev != m[2]+"\n" {
			t.Errorf("two different copies of %s", m[1])
		}
		included[m[1]] = m[2] + "\n"
	}
	for _, f := range files {
		name := "testdata/workflows/" + filepath.Base(f)
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := included[name]
		switch {
		case !ok:
			t.Errorf("none of README.md, docs/workflows.md and docs/probe.md includes %s (add <!-- workflow: %s --> and the file in a yaml block)", name, name)
		case got != string(want):
			t.Errorf("the copy of %s in README.md, docs/workflows.md or docs/probe.md differs from the file:\n%s", name, firstDiff(got, string(want)))
		}
		delete(included, name)
	}
	for name := range included {
		t.Errorf("README.md, docs/workflows.md or docs/probe.md includes %s, which is not in testdata/workflows", name)
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n README: %s\n file:   %s", i+1, al[i], bl[i])
		}
	}
	return "one is a prefix of the other"
}
