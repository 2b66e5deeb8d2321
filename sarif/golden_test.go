package sarif

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*/want.sarif from the current output")

// goldenCases are the folders of testdata/golden: findings.json (a JSON array of findings), repo/
// (the repository root the findings point into) and want.sarif (the expected log).
func goldenCases(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("testdata/golden/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	return dirs
}

func readFindings(t testing.TB, file string) []findings.Finding {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var fs []findings.Finding
	if err := json.Unmarshal(data, &fs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return fs
}

// buildCase writes the SARIF of one golden case to a temporary file and returns its path.
func buildCase(t *testing.T, dir string) (string, []byte) {
	t.Helper()
	fs := readFindings(t, filepath.Join(dir, "findings.json"))
	opts := testOptions(filepath.Join(dir, "repo"))
	opts.Notifications = []Notification{{Level: "warning", Message: "line is not JSON", File: "session.jsonl", Line: 99}}
	_, data, _ := written(t, fs, opts)
	out := filepath.Join(t.TempDir(), filepath.Base(dir)+".sarif")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out, data
}

func TestGolden(t *testing.T) {
	for _, dir := range goldenCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, got := buildCase(t, dir)
			want := filepath.Join(dir, "want.sarif")
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wantData, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test ./sarif -run TestGolden -update)", err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(wantData, &w); err != nil {
				t.Fatalf("%s: %v", want, err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("SARIF differs from %s (run with -update to accept):\n%s", want, got)
			}
		})
	}
}

// toolPath is a script of ../shared/tools, or "" when it is absent.
func toolPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "shared", "tools", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestSarifValidate runs the Multitool with GitHub's ingestion rules over every golden output.
func TestSarifValidate(t *testing.T) {
	tool := toolPath(t, "sarif-validate")
	if tool == "" {
		t.Skip("../shared/tools/sarif-validate is absent")
	}
	var files []string
	for _, dir := range goldenCases(t) {
		f, _ := buildCase(t, dir)
		files = append(files, f)
	}
	out, err := exec.Command(tool, files...).CombinedOutput()
	if err != nil {
		t.Fatalf("sarif-validate: %v\n%s", err, out)
	}
	if bytes.Contains(out, []byte("error")) {
		t.Fatalf("sarif-validate reported errors:\n%s", out)
	}
}

// rdDiagnostic is the part of reviewdog's rdjsonl the test reads.
type rdDiagnostic struct {
	Location struct {
		Path  string `json:"path"`
		Range struct {
			Start struct {
				Line int `json:"line"`
			} `json:"start"`
		} `json:"range"`
	} `json:"location"`
	Severity string `json:"severity"`
	Code     struct {
		Value string `json:"value"`
	} `json:"code"`
	Suggestions []struct {
		Text string `json:"text"`
	} `json:"suggestions"`
}

// TestSarifConsume has reviewdog, a SARIF reader nobody here wrote, read every golden output in a
// git repository and checks that it gets back each result's path, line, rule and severity.
func TestSarifConsume(t *testing.T) {
	tool := toolPath(t, "sarif-consume")
	if tool == "" {
		t.Skip("../shared/tools/sarif-consume is absent")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is absent")
	}
	for _, dir := range goldenCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			file, data := buildCase(t, dir)
			repo := t.TempDir()
			if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			cmd := exec.Command(tool, file)
			cmd.Dir = repo
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("sarif-consume: %v\n%s", err, out)
			}
			var got []string
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				var d rdDiagnostic
				if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
					t.Fatalf("rdjsonl line %q: %v", sc.Text(), err)
				}
				got = append(got, strings.Join([]string{d.Location.Path, itoa(d.Location.Range.Start.Line),
					d.Code.Value, d.Severity, itoa(len(d.Suggestions))}, " "))
			}
			want := expectedDiagnostics(t, data)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("reviewdog read\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// expectedDiagnostics lists what reviewdog should read from our SARIF: decoded path, start line,
// rule id, severity and number of suggestions, in result order.
func expectedDiagnostics(t *testing.T, data []byte) []string {
	t.Helper()
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Fixes []any `json:"fixes"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	sev := map[string]string{"error": "ERROR", "warning": "WARNING", "note": "INFO"}
	var out []string
	for _, r := range doc.Runs[0].Results {
		pl := r.Locations[0].PhysicalLocation
		p, err := url.PathUnescape(pl.ArtifactLocation.URI)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Join([]string{p, itoa(pl.Region.StartLine), r.RuleID, sev[r.Level], itoa(len(r.Fixes))}, " "))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
