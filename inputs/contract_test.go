package inputs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// outcome is what reading one input gives, as the golden want.json files hold it.
type outcome struct {
	Findings []findings.Finding `json:"findings"`
	Records  int                `json:"records"`
	Used     int                `json:"used"`
	Skips    map[string]int     `json:"skips,omitempty"`
	Problems []findings.Problem `json:"problems,omitempty"`
}

// readAs reads data as the named file would be read by collect: the detected format, or the
// judgment reader for a Markdown or text file that nothing recognises.
func readAs(t *testing.T, name string, data []byte, opts Options) (Format, *findings.Set) {
	opts = withTestRegistry(opts)
	t.Helper()
	head := data
	if len(head) > SniffSize {
		head = head[:SniffSize]
	}
	f := testRegistry.Detect(head)
	if f == "" && (strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".txt")) {
		f = Judgment
	}
	if f == "" {
		t.Fatalf("%s: no format recognises it", name)
	}
	r, err := testRegistry.ReaderFor(f)
	if err != nil {
		t.Fatal(err)
	}
	set := findings.NewSet()
	if err := r.Read(context.Background(), Input{Name: name, R: bytes.NewReader(data), Named: true}, opts, set); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if set.Records != set.Used+set.Skipped() {
		t.Errorf("%s: %d records read but %d used + %d skipped", name, set.Records, set.Used, set.Skipped())
	}
	return f, set
}

func outcomeOf(set *findings.Set) outcome {
	o := outcome{Findings: set.Findings, Records: set.Records, Used: set.Used, Problems: set.Problems}
	if o.Findings == nil {
		o.Findings = []findings.Finding{}
	}
	if len(set.Skips) > 0 {
		o.Skips = set.Skips
	}
	return o
}

// TestContractCases reads every testdata/contract/<case>/input.* and compares the findings with
// want.json (decoded). Each case is named after the check it shows; clean cases show none.
// go test ./inputs -run TestContractCases -update rewrites the want.json files.
func TestContractCases(t *testing.T) {
	root := filepath.Join("..", "testdata", "contract")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			inputs, _ := filepath.Glob(filepath.Join(root, d.Name(), "input.*"))
			if len(inputs) != 1 {
				t.Fatalf("want one input.* file, found %v", inputs)
			}
			data, err := os.ReadFile(inputs[0])
			if err != nil {
				t.Fatal(err)
			}
			name := "testdata/contract/" + d.Name() + "/" + filepath.Base(inputs[0])
			_, set := readAs(t, name, data, Options{Registry: testRegistry})
			got := outcomeOf(set)
			checks := map[string]bool{}
			for _, f := range got.Findings {
				if f.Kind == findings.Contract {
					checks[f.RuleID] = true
					covered[f.RuleID] = true
				}
			}
			if strings.HasPrefix(d.Name(), "clean") {
				if len(checks) > 0 {
					t.Errorf("clean case has contract findings %v", checks)
				}
			} else if !checks["agc/"+d.Name()] && !strings.HasPrefix(d.Name(), "judgment-invalid") {
				t.Errorf("case %s does not yield agc/%s (got %v)", d.Name(), d.Name(), checks)
			}
			compareGolden(t, filepath.Join(root, d.Name(), "want.json"), got)
		})
	}
	for _, c := range gates.Checks() {
		if (c.Binding == "any" || c.Binding == "judgment") && !covered[c.ID] {
			t.Errorf("no contract case shows %s", c.ID)
		}
	}
}

// TestExamples reads the bundled examples as collect would when walking testdata/examples, and
// checks that they give findings of every verdict and a contract breach, and that every stated
// location names a file of this repository.
func TestExamples(t *testing.T) {
	root := filepath.Join("..", "testdata", "examples")
	verdicts := map[gates.Verdict]int{}
	contract := 0
	read := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		head := data
		if len(head) > SniffSize {
			head = head[:SniffSize]
		}
		if testRegistry.Detect(head) == "" {
			return nil // the files the findings point at, and the README
		}
		read++
		rel, _ := filepath.Rel("..", path)
		_, set := readAs(t, filepath.ToSlash(rel), data, Options{Registry: testRegistry})
		if len(set.Problems) > 0 {
			t.Errorf("%s: problems %v", rel, set.Problems)
		}
		for _, f := range set.Findings {
			verdicts[f.Verdict]++
			if f.Kind == findings.Contract {
				contract++
			}
			if f.Location == nil {
				continue
			}
			if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(f.Location.Path))); err != nil || filepath.IsAbs(f.Location.Path) {
				t.Errorf("%s:%d: location %s is not a repo-relative file of this repository", rel, f.Source.Line, f.Location.Path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read != 3 || verdicts[gates.Block] == 0 || verdicts[gates.Repaired] == 0 || verdicts[gates.Steer] == 0 || contract != 1 {
		t.Errorf("read %d files; verdicts %v, contract findings %d; want 3 files, every verdict and one breach", read, verdicts, contract)
	}
}
