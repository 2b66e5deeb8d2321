package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agc-sarif/agc-sarif/findings"
)

// Regression tests for the go-sarif v2.3.3 traps of research sarif.md §7.1 and the reviewdog
// crashes of §8.4: the builder must not be able to produce any of them.

func finding(rule string, lvl findings.Level, path string, line int) findings.Finding {
	gate, r, _ := strings.Cut(rule, "/")
	return findings.Finding{RuleID: rule, Gate: gate, Rule: r, Kind: findings.RuntimeGate, Level: lvl,
		Message: "Something about " + rule + ".", Location: &findings.Location{Path: path, StartLine: line}, Count: 1}
}

// §7.1.1: a result added before its rule got ruleIndex 2^64-1. Every ruleIndex must name the
// result's own rule, whatever order rules first appear in.
func TestRuleIndexPointsAtOwnRule(t *testing.T) {
	fs := []findings.Finding{
		finding("zeta/z", findings.Error, "a.go", 1), finding("agc/schema", findings.Error, "a.go", 2),
		finding("alpha/a", findings.Note, "b.go", 1), finding("zeta/z", findings.Warning, "c.go", 3),
		finding("hook/guard.sh", findings.Error, "a.go", 1),
	}
	fs[1].Kind, fs[4].Kind = findings.Contract, findings.Unstructured
	_, data, doc := written(t, fs, testOptions(t.TempDir()))
	if bytes.Contains(data, []byte("18446744073709551615")) {
		t.Fatal("ruleIndex 2^64-1 in output")
	}
	run := run0(t, doc)
	rules := list(t, run.get("tool").get("driver"), "rules")
	for i, r := range list(t, run, "results") {
		res := r.(map[string]any)
		idx, ok := res["ruleIndex"].(float64)
		if !ok || int(idx) >= len(rules) {
			t.Fatalf("result %d: ruleIndex %v out of %d rules", i, res["ruleIndex"], len(rules))
		}
		if got := rules[int(idx)].(map[string]any)["id"]; got != res["ruleId"] {
			t.Errorf("result %d: ruleIndex %v names %v, ruleId is %v", i, idx, got, res["ruleId"])
		}
	}
	if len(rules) != 4 {
		t.Errorf("%d rules, want one per rule id (4)", len(rules))
	}
}

// §7.1.2: a nil RuleID panicked in AddResult. An empty rule id must give a result with a rule.
func TestEmptyRuleIDHasRule(t *testing.T) {
	tests := []findings.Finding{
		{Message: "No rule at all.", Location: &findings.Location{Path: "a.go", StartLine: 1}},
		{Gate: "g", Rule: "r", Message: "Rule id left out.", Location: &findings.Location{Path: "a.go", StartLine: 1}},
	}
	for _, f := range tests {
		_, _, doc := written(t, []findings.Finding{f}, testOptions(t.TempDir()))
		res := list(t, run0(t, doc), "results")[0].(map[string]any)
		if id, _ := res["ruleId"].(string); id == "" {
			t.Errorf("result without ruleId for %+v", f)
		}
		if lvl, _ := res["level"].(string); lvl == "" {
			t.Errorf("result without level for %+v", f)
		}
	}
}

// §7.1.3, §7.1.4: shortDescription, rules, executionSuccessful and artifactChanges must never be
// null; results and rules are arrays even when empty.
func TestNoNulls(t *testing.T) {
	for _, fs := range [][]findings.Finding{nil, {finding("g/r", findings.Error, "a.go", 1)}} {
		opts := testOptions(t.TempDir())
		opts.ExecutionSuccessful = false
		_, data, doc := written(t, fs, opts)
		if bytes.Contains(data, []byte("null")) {
			t.Errorf("null in output:\n%s", data)
		}
		run := run0(t, doc)
		list(t, run, "results")
		list(t, run.get("tool").get("driver"), "rules")
		inv := list(t, run, "invocations")[0].(map[string]any)
		if v, ok := inv["executionSuccessful"].(bool); !ok || v {
			t.Errorf("executionSuccessful = %v, want false", inv["executionSuccessful"])
		}
		for _, r := range list(t, run.get("tool").get("driver"), "rules") {
			rule := r.(map[string]any)
			for _, k := range []string{"shortDescription", "fullDescription", "help"} {
				if text, _ := rule[k].(map[string]any)["text"].(string); text == "" {
					t.Errorf("rule %v: %s has no text", rule["id"], k)
				}
			}
		}
	}
}

// §7.1.5: rule properties set through the embedded bag were silently dropped. Tags, precision
// and problem.severity must reach the output, tags at most 10.
func TestRulePropertiesWritten(t *testing.T) {
	fs := []findings.Finding{finding("g/r", findings.Warning, "a.go", 1), finding("agc/schema", findings.Error, "a.go", 1)}
	fs[1].Kind = findings.Contract
	_, _, doc := written(t, fs, testOptions(t.TempDir()))
	want := map[string]string{"g/r": "warning", "agc/schema": "error"}
	for _, r := range list(t, run0(t, doc).get("tool").get("driver"), "rules") {
		rule := r.(map[string]any)
		props := rule["properties"].(map[string]any)
		tags, _ := props["tags"].([]any)
		if len(tags) == 0 || len(tags) > 10 || tags[0] != "agc" {
			t.Errorf("rule %v: tags %v", rule["id"], tags)
		}
		if props["precision"] != "very-high" || props["problem.severity"] != want[rule["id"].(string)] {
			t.Errorf("rule %v: properties %v", rule["id"], props)
		}
	}
}

// §7.1.7: WriteFile left the tail of a longer old file. The new file must be exactly the log.
func TestWriteFileTruncates(t *testing.T) {
	name := filepath.Join(t.TempDir(), "agc.sarif")
	if err := os.WriteFile(name, bytes.Repeat([]byte("x"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	l, data, _ := written(t, nil, testOptions(t.TempDir()))
	if err := l.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("file has %d bytes, want the %d of the log", len(got), len(data))
	}
	if err := l.WriteFile(filepath.Join(t.TempDir(), "missing", "agc.sarif")); err == nil {
		t.Error("WriteFile into a missing folder did not fail")
	}
}

// §7.1.8: HTML escaping (\u003c) and invalid UTF-8 from agents: the output keeps < > & as they
// are and is valid UTF-8.
func TestTextEscaping(t *testing.T) {
	f := finding("g/r", findings.Error, "a.go", 1)
	f.Message = "Blocked <rm -rf> & \xff\xfe bytes."
	f.Call = &findings.Call{Tool: "Bash", Command: "echo \x00\x1b[31m <x>"}
	_, data, _ := written(t, []findings.Finding{f}, testOptions(t.TempDir()))
	if !utf8.Valid(data) {
		t.Fatal("output is not valid UTF-8")
	}
	if bytes.Contains(data, []byte(`\u003c`)) || !bytes.Contains(data, []byte("Blocked <rm -rf> & ")) {
		t.Errorf("message escaped or lost:\n%s", data)
	}
}

// §8.4: reviewdog panics on a replacement without insertedContent (a deletion) and on a location
// without physicalLocation. A repair to "" must still carry insertedContent.text.
func TestDeletionFixHasInsertedContent(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := finding("g/r", findings.Warning, "a.go", 2)
	f.Repair = &findings.Repair{Before: "two", After: ""}
	_, _, doc := written(t, []findings.Finding{f}, testOptions(dir))
	res := list(t, run0(t, doc), "results")[0].(map[string]any)
	fixes := list(t, res, "fixes")
	change := list(t, fixes[0].(map[string]any), "artifactChanges")[0].(map[string]any)
	rep := list(t, change, "replacements")[0].(map[string]any)
	ic, ok := rep["insertedContent"].(map[string]any)
	if !ok {
		t.Fatalf("replacement without insertedContent: %v", rep)
	}
	if text, ok := ic["text"].(string); !ok || text != "" {
		t.Errorf("insertedContent = %v, want text \"\"", ic)
	}
	for _, l := range list(t, res, "locations") {
		if _, ok := l.(map[string]any)["physicalLocation"]; !ok {
			t.Errorf("location without physicalLocation: %v", l)
		}
	}
}

// Fixes only for a repair at the gate's own region of a file that exists, inside the file.
func TestFixConditions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		edit    func(*findings.Finding)
		wantFix bool
	}{
		{"own region", func(*findings.Finding) {}, true},
		{"anchored elsewhere", func(f *findings.Finding) { f.Anchored = "the Bash call touched no file" }, false},
		{"fallback", func(f *findings.Finding) { f.Location = nil }, false},
		{"missing file", func(f *findings.Finding) { f.Location.Path = "b.go" }, false},
		{"line past the end", func(f *findings.Finding) { f.Location.StartLine = 9 }, false},
		{"no repair", func(f *findings.Finding) { f.Repair = nil }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := finding("g/r", findings.Warning, "a.go", 2)
			f.Repair = &findings.Repair{Before: "two", After: "2"}
			tc.edit(&f)
			opts := testOptions(dir)
			opts.Fallback = findings.Location{Path: "a.go", StartLine: 1}
			_, _, doc := written(t, []findings.Finding{f}, opts)
			res := list(t, run0(t, doc), "results")[0].(map[string]any)
			if _, has := res["fixes"]; has != tc.wantFix {
				t.Errorf("fixes present %v, want %v", has, tc.wantFix)
			}
		})
	}
}

func TestRegionConsistency(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("12345\nab\n😀x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		loc  findings.Location
		want string
	}{
		{"line only", "a.go", findings.Location{StartLine: 2}, `{"startLine":2}`},
		{"line zero becomes one", "a.go", findings.Location{}, `{"startLine":1}`},
		{"full region", "a.go", findings.Location{StartLine: 1, EndLine: 2, StartCol: 2, EndCol: 3}, `{"endColumn":3,"endLine":2,"startColumn":2,"startLine":1}`},
		{"end line before start", "a.go", findings.Location{StartLine: 2, EndLine: 1}, `{"startLine":2}`},
		{"end line past the file", "a.go", findings.Location{StartLine: 1, EndLine: 9}, `{"startLine":1}`},
		{"end column before start", "a.go", findings.Location{StartLine: 1, StartCol: 4, EndCol: 2}, `{"startColumn":4,"startLine":1}`},
		{"start column past the line", "a.go", findings.Location{StartLine: 2, StartCol: 9, EndCol: 10}, `{"startLine":2}`},
		{"utf16 columns", "a.go", findings.Location{StartLine: 3, StartCol: 1, EndCol: 4}, `{"endColumn":4,"endLine":3,"startColumn":1,"startLine":3}`},
		{"unknown file keeps columns", "b.go", findings.Location{StartLine: 7, StartCol: 2, EndCol: 5}, `{"endColumn":5,"endLine":7,"startColumn":2,"startLine":7}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := finding("g/r", findings.Note, tc.path, 0)
			tc.loc.Path = tc.path
			f.Location = &tc.loc
			_, _, doc := written(t, []findings.Finding{f}, testOptions(dir))
			res := list(t, run0(t, doc), "results")[0].(map[string]any)
			reg := list(t, res, "locations")[0].(map[string]any)["physicalLocation"].(map[string]any)["region"]
			got, _ := json.Marshal(reg)
			if string(got) != tc.want {
				t.Errorf("region %s, want %s", got, tc.want)
			}
		})
	}
}

// Hostile paths never leave the repository: absolute, escaping, URI, drive letters and symbolic
// links that point outside go to the fallback or get no fingerprint; a FIFO does not hang.
func TestHostilePaths(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.go"), []byte("package ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path     string
		wantURI  string
		wantHash bool
	}{
		{"ok.go", "ok.go", true},
		{"./sub/../ok.go", "ok.go", true},
		{`sub\..\ok.go`, "ok.go", true},
		{"/etc/passwd", ".claude/settings.json", false},
		{outside, ".claude/settings.json", false},
		{"../../../etc/passwd", ".claude/settings.json", false},
		{"sub/../../x", ".claude/settings.json", false},
		{"file:///etc/passwd", ".claude/settings.json", false},
		{"C:/Windows/win.ini", ".claude/settings.json", false},
		{"https://example.com/a.go", ".claude/settings.json", false},
		{".", ".claude/settings.json", false},
		{"a\nb.go", ".claude/settings.json", false},
		{"link.txt", "link.txt", false},
		{"fifo", "fifo", false},
		{"sub", "sub", false},
		{"a b#c?d%e:f.go", "a%20b%23c%3Fd%25e%3Af.go", false},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			f := finding("g/r", findings.Error, tc.path, 1)
			done := make(chan struct{})
			go func() { // Build alone, so that a hang is reported and not waited for
				defer close(done)
				_, _ = Build([]findings.Finding{f}, testOptions(dir))
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Build hung")
			}
			_, _, doc := written(t, []findings.Finding{f}, testOptions(dir))
			res := list(t, run0(t, doc), "results")[0].(map[string]any)
			pl := list(t, res, "locations")[0].(map[string]any)["physicalLocation"].(map[string]any)
			if uri := pl["artifactLocation"].(map[string]any)["uri"]; uri != tc.wantURI {
				t.Errorf("uri %v, want %v", uri, tc.wantURI)
			}
			_, hasHash := res["partialFingerprints"].(map[string]any)["primaryLocationLineHash"]
			if hasHash != tc.wantHash && tc.wantURI != ".claude/settings.json" {
				t.Errorf("primaryLocationLineHash present %v, want %v", hasHash, tc.wantHash)
			}
		})
	}
}

// A finding whose location and fallback are both unusable is left out and named, never written
// without a location.
func TestNoLocationNoFallback(t *testing.T) {
	opts := testOptions(t.TempDir())
	opts.Fallback = findings.Location{}
	f := finding("g/r", findings.Error, "/abs.go", 1)
	f.Source = findings.Source{File: "session.jsonl", Line: 7}
	l, _, doc := written(t, []findings.Finding{f, finding("g/r", findings.Note, "ok.go", 1)}, opts)
	if n := len(list(t, run0(t, doc), "results")); n != 1 || l.Results() != 1 {
		t.Fatalf("%d results, want 1", n)
	}
	if !containsSubstring(l.LeftOut(), "session.jsonl:7: g/r: ") {
		t.Errorf("LeftOut %q does not name the finding", l.LeftOut())
	}
}

// agcFindingKey/v1 ignores the line and whitespace of the subject, and tells other subjects apart.
func TestFindingKeyIsLineIndependent(t *testing.T) {
	key := func(line int, cmd string, path string) string {
		f := finding("g/r", findings.Error, path, line)
		f.Target = "Bash.command"
		f.Call = &findings.Call{Tool: "Bash", Command: cmd}
		_, _, doc := written(t, []findings.Finding{f}, testOptions(t.TempDir()))
		res := list(t, run0(t, doc), "results")[0].(map[string]any)
		return res["partialFingerprints"].(map[string]any)[fingerprintKey].(string)
	}
	base := key(3, "git  push\n--force", "a.go")
	if got := key(40, "git push --force", "a.go"); got != base {
		t.Errorf("key changed with the line or whitespace: %s vs %s", got, base)
	}
	if got := key(3, "git push", "a.go"); got == base {
		t.Error("key did not change with the command")
	}
	if got := key(3, "git  push\n--force", "b.go"); got == base {
		t.Error("key did not change with the path")
	}
	if len(base) != 64 || strings.ToLower(base) != base {
		t.Errorf("key %q is not lowercase hex SHA-256", base)
	}
}

func TestCategoryAndDriver(t *testing.T) {
	tests := []struct{ category, want string }{
		{"", "agc/"}, {"agent-guard", "agent-guard/"}, {"agent-review/", "agent-review/"}, {"a/b", "a/b"},
	}
	for _, tc := range tests {
		opts := testOptions(t.TempDir())
		opts.Category = tc.category
		_, _, doc := written(t, nil, opts)
		run := run0(t, doc)
		if got := run.get("automationDetails")["id"]; got != tc.want {
			t.Errorf("category %q: automationDetails.id %v, want %q", tc.category, got, tc.want)
		}
	}
	opts := testOptions(t.TempDir())
	opts.ToolName, opts.ToolVersion, opts.InformationURI = "", "dev", "not a url"
	_, _, doc := written(t, nil, opts)
	d := run0(t, doc).get("tool").get("driver")
	if d["name"] != "agc-sarif" || d["version"] != "dev" || d["semanticVersion"] != nil || d["informationUri"] != nil {
		t.Errorf("driver %v", d)
	}
}

// get returns m[key] as an object (nil when it is not one).
func (m jsonObject) get(key string) jsonObject {
	v, _ := m[key].(map[string]any)
	return v
}
