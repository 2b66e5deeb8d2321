package command

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/gates"
)

var update = flag.Bool("update", false, "rewrite golden files and generated README sections")

// checksTable renders the contract checks as the README's Markdown table.
func checksTable() string {
	var b strings.Builder
	b.WriteString("| rule | binding | level | what broke | how to fix |\n|---|---|---|---|---|\n")
	for _, c := range gates.Checks() {
		fix := strings.ReplaceAll(c.Fix, "|", `\|`)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.ID, c.Binding, c.Level, strings.ReplaceAll(c.Short, "|", `\|`), fix)
	}
	return b.String()
}

// TestReadmeChecks keeps the README's table of contract checks equal to gates.Checks().
func TestReadmeChecks(t *testing.T) {
	const start, end = "<!-- checks:start -->\n", "<!-- checks:end -->"
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %q … %q markers", start, end)
	}
	want := checksTable()
	got := s[i+len(start) : j]
	if got == want {
		return
	}
	if *update {
		s = s[:i+len(start)] + want + s[j:]
		if err := os.WriteFile("../README.md", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's table of contract checks is out of date with gates/checks.go; run: go test ./command -run TestReadmeChecks -update")
}

// TestReadmeFormats keeps the --format list of the README's "The command line" equal to the
// formats collect accepts (inputs.Formats, in detection order).
func TestReadmeFormats(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const flag = "    --format "
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, flag); ok && strings.HasPrefix(rest, "auto|") {
			if got, want := strings.TrimSpace(rest), formatList(); got != want {
				t.Errorf("README.md's collect --format list is %s; inputs.Formats() is %s", got, want)
			}
			return
		}
	}
	t.Errorf("README.md has no line %q listing the formats", flag+"auto|…")
}

// TestActionFormats keeps the format input's description in action.yml naming every format.
func TestActionFormats(t *testing.T) {
	data, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if want := "one of " + formatList() + "."; !strings.Contains(string(data), want) {
		t.Errorf("action.yml's format description does not list the formats collect accepts: want %q in it", want)
	}
}
