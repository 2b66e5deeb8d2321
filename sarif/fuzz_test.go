package sarif

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
)

// FuzzBuild feeds agent-written text into every free-text field of a finding and checks that
// Build never fails or panics, writes valid UTF-8 SARIF that passes the schema, and keeps the
// one location inside the repository.
func FuzzBuild(f *testing.F) {
	f.Add("Blocked.", "src/a.go", "rm -rf /", "Bash.command", "before", "after", "g/r", 3, 1, 5)
	f.Add("<b>`x`</b> & \xff", "../../etc/passwd", "```\n``", "", "", "", "", 0, -4, 0)
	f.Add("", "/abs/path", "\x00\x1b", "Edit.file_path", "a\r\nb", "", "hook/ä b", 1<<30, 2, 1)
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\ntwo\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg, path, command, target, before, after, rule string, line, col, count int) {
		fd := findings.Finding{RuleID: rule, Target: target, Kind: findings.RuntimeGate, Level: findings.Error,
			Message: msg, Location: &findings.Location{Path: path, StartLine: line, StartCol: col, EndCol: col + 2},
			Call:   &findings.Call{Tool: "Bash", Command: command, FilePath: path},
			Repair: &findings.Repair{Before: before, After: after}, Count: count,
			Examples: []findings.Example{{Source: findings.Source{File: path, Line: line}, Message: msg}}}
		l, err := Build([]findings.Finding{fd}, testOptions(dir))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := l.Write(&buf); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(buf.Bytes()) {
			t.Fatal("output is not valid UTF-8")
		}
		checkSchema(t, buf.Bytes())
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		results := list(t, run0(t, doc), "results")
		if len(results) != 1 {
			t.Fatalf("%d results, want 1", len(results))
		}
		pl := list(t, results[0].(map[string]any), "locations")[0].(map[string]any)["physicalLocation"].(map[string]any)
		uri := pl["artifactLocation"].(map[string]any)["uri"].(string)
		p, err := url.PathUnescape(uri)
		if err != nil {
			t.Fatalf("uri %q: %v", uri, err)
		}
		if p == "" || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") {
			t.Fatalf("uri %q leaves the repository", uri)
		}
		if line := pl["region"].(map[string]any)["startLine"].(float64); line < 1 {
			t.Fatalf("startLine %v", line)
		}
	})
}
