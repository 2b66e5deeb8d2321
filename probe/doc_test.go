package probe

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDocRules: docs/probe.md's table has a row for each of probe's rules, made from Rows.
func TestDocRules(t *testing.T) {
	doc, err := os.ReadFile("../docs/probe.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rows() {
		row := fmt.Sprintf("| `%s` | %s | %s |\n", r.ID, r.Level, r.Short)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/probe.md lacks the row\n%s", row)
		}
	}
}
