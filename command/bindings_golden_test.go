package command

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var updateBindingsGolden = flag.Bool("update-bindings-golden", false, "rewrite testdata/bindings-golden from the current code")

// goldenResult is the part of a SARIF result that the runtime bindings decide: which rule, how
// heavy, where, about which call. Messages and times are left out (other packages word them).
type goldenResult struct {
	RuleID  string            `json:"ruleId"`
	Level   string            `json:"level"`
	URI     string            `json:"uri"`
	Line    int               `json:"line"`
	Logical string            `json:"logical,omitempty"`
	Key     string            `json:"key"`
	Props   map[string]string `json:"props"`
}

// goldenProps are the result properties the bindings fill.
var goldenProps = []string{"runtime", "event", "tool", "verdict", "gate", "command", "file", "kind", "rule"}

// goldenSARIF is the part of collect's SARIF that the golden tests read.
type goldenSARIF struct {
	Runs []struct {
		Invocations []struct {
			Notes []struct {
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []goldenSARIFResult `json:"results"`
	} `json:"runs"`
}

// goldenSARIFResult is one SARIF result as the golden tests read it.
type goldenSARIFResult struct {
	RuleID  string `json:"ruleId"`
	Level   string `json:"level"`
	Message struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	} `json:"message"`
	FP        map[string]string `json:"partialFingerprints"`
	Props     map[string]any    `json:"properties"`
	Locations []struct {
		Phys struct {
			Art struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region struct {
				StartLine int `json:"startLine"`
			} `json:"region"`
		} `json:"physicalLocation"`
		Logical []struct {
			FQN string `json:"fullyQualifiedName"`
		} `json:"logicalLocations"`
	} `json:"locations"`
}

// golden is the part of r that the runtime bindings decide.
func (r goldenSARIFResult) golden() goldenResult {
	g := goldenResult{RuleID: r.RuleID, Level: r.Level, Key: r.FP["agcFindingKey/v1"], Props: map[string]string{}}
	if len(r.Locations) > 0 {
		l := r.Locations[0]
		g.URI, g.Line = l.Phys.Art.URI, l.Phys.Region.StartLine
		if len(l.Logical) > 0 {
			g.Logical = l.Logical[0].FQN
		}
	}
	for _, p := range goldenProps {
		if s, ok := r.Props[p].(string); ok {
			g.Props[p] = s
		}
	}
	return g
}

// goldenCollect runs agc-sarif collect with root as repository root and working folder, SARIF to
// stdout and no failing outcome, on args; it returns the decoded SARIF (one run) and stderr.
func goldenCollect(t *testing.T, root string, args ...string) (goldenSARIF, string) {
	t.Helper()
	return goldenCollectExit(t, root, ExitOK, args...)
}

// goldenCollectExit is goldenCollect where exit status also may be ok (a named file that is not
// an input, such as a runtime's settings file, is exit status 2; its SARIF is written all the same).
func goldenCollectExit(t *testing.T, root string, also int, args ...string) (goldenSARIF, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: root, Getenv: func(string) string { return "" }}
	code := Main(context.Background(), append([]string{"agc-sarif", "collect", "--root", root, "-o", "-", "--fail-on", "none"}, args...), env)
	if code != ExitOK && code != also {
		t.Fatalf("collect %v: exit %d\n%s", args, code, errb.String())
	}
	var log goldenSARIF
	if err := json.Unmarshal(out.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("collect %v: SARIF: %v (%d runs)", args, err, len(log.Runs))
	}
	return log, errb.String()
}

// goldenRun collects the inputs from the repository root and returns their results, sorted.
func goldenRun(t *testing.T, inputs string) []goldenResult {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	log, _ := goldenCollect(t, root, inputs)
	var rs []goldenResult
	for _, r := range log.Runs[0].Results {
		rs = append(rs, r.golden())
	}
	sort.Slice(rs, func(i, j int) bool {
		a, _ := json.Marshal(rs[i])
		b, _ := json.Marshal(rs[j])
		return string(a) < string(b)
	})
	return rs
}

// TestBindingsGolden: the Claude Code findings on every existing testdata folder are those the
// code gave before the runtime bindings were split out (testdata/bindings-golden, written by the
// code before the refactor with -update-bindings-golden), compared as decoded JSON.
func TestBindingsGolden(t *testing.T) {
	dirs := []string{"testdata/examples", "testdata/claude", "testdata/samples", "testdata/contract"}
	subs, err := filepath.Glob("../testdata/claude/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subs {
		if fi, err := os.Stat(s); err == nil && fi.IsDir() && filepath.Base(s) != "hooks" {
			dirs = append(dirs, "testdata/claude/"+filepath.Base(s))
		}
	}
	for _, d := range dirs {
		name := strings.ReplaceAll(strings.TrimPrefix(d, "testdata/"), "/", "-")
		t.Run(name, func(t *testing.T) {
			got := goldenRun(t, d)
			file := filepath.Join("testdata", "bindings-golden", name+".json")
			if *updateBindingsGolden {
				b, _ := json.MarshalIndent(got, "", " ")
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update-bindings-golden on the code before a change)", err)
			}
			var want []goldenResult
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if !reflect.DeepEqual(got, want) {
				gb, _ := json.MarshalIndent(got, "", " ")
				t.Errorf("%s: findings changed:\n got %s\nwant %s", d, gb, b)
			}
		})
	}
}
