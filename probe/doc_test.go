package probe

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
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

// TestDocRuntimes: docs/probe.md's table of runtimes has each runtime's row as its runtime.json
// says it: timeout, project-folder variables (or none), evidence.
func TestDocRuntimes(t *testing.T) {
	doc, err := os.ReadFile("../docs/probe.md")
	if err != nil {
		t.Fatal(err)
	}
	ents, err := fs.ReadDir(samples, "events")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		b, err := samples.ReadFile(path.Join("events", e.Name(), "runtime.json"))
		if err != nil {
			t.Fatal(err)
		}
		var f factsFile
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		vars := "none"
		if len(f.ProjectDirVars) > 0 {
			vars = "`" + strings.Join(f.ProjectDirVars, "`, `") + "`"
		}
		row := fmt.Sprintf("| %s | %s | %s | %s |\n", e.Name(), f.Timeout, vars, f.Evidence)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/probe.md lacks the row\n%s", row)
		}
	}
}
