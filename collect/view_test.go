package collect

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/findings"
	"github.com/agc-sarif/agc-sarif/gates"
)

// viewCase is one collection over the repository's testdata, as a reviewer would see it.
type viewCase struct {
	name  string
	root  string   // repository root
	paths []string // inputs, absolute
	env   map[string]string
}

// claudeCases are the real Claude Code replays of testdata/claude, each in a repository made of
// its .claude/settings.json, with CLAUDE_PROJECT_DIR set to the folder the replay ran in.
func claudeCases(t *testing.T) []viewCase {
	t.Helper()
	dirs, err := filepath.Glob("../testdata/claude/*/settings.json")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no replays in ../testdata/claude: %v", err)
	}
	var out []viewCase
	for _, settings := range dirs {
		dir, _ := filepath.Abs(filepath.Dir(settings))
		name := filepath.Base(dir)
		root := t.TempDir()
		data, err := os.ReadFile(settings)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, f := range []string{"hook-log.jsonl", "session.jsonl", "stream.jsonl"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				paths = append(paths, filepath.Join(dir, f))
			}
		}
		out = append(out, viewCase{name: "claude/" + name, root: root, paths: paths,
			env: map[string]string{"CLAUDE_PROJECT_DIR": "/tmp/agc-replay/" + name}})
	}
	return out
}

// viewCases are the examples (in this repository, whose files they point at) and every Claude
// Code replay.
func viewCases(t *testing.T) []viewCase {
	repo, _ := filepath.Abs("..")
	ex := filepath.Join(repo, "testdata", "examples")
	return append([]viewCase{{name: "examples", root: repo, paths: []string{ex}}}, claudeCases(t)...)
}

func (c viewCase) run(t *testing.T, failOn string) *Result {
	t.Helper()
	want, err := ParseFailOn(failOn)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Paths: c.paths, Root: c.root, Dir: c.root, FailOn: want,
		IncludeUnstructured: true, Redact: true, Jobs: 1,
		Getenv: func(k string) string { return c.env[k] }})
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return res
}

// sarifRun is the part of a SARIF run the tests read.
type sarifRun struct {
	Tool struct {
		Driver struct {
			Rules []struct {
				ID               string `json:"id"`
				ShortDescription struct {
					Text string `json:"text"`
				} `json:"shortDescription"`
				FullDescription struct {
					Text string `json:"text"`
				} `json:"fullDescription"`
				HelpURI string `json:"helpUri"`
				Help    struct {
					Text string `json:"text"`
				} `json:"help"`
			} `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	Results []struct {
		RuleID  string `json:"ruleId"`
		Level   string `json:"level"`
		Message struct {
			Text string `json:"text"`
		} `json:"message"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          map[string]any    `json:"properties"`
	} `json:"results"`
	Invocations []struct {
		ExecutionSuccessful bool `json:"executionSuccessful"`
	} `json:"invocations"`
}

func decodeRun(t *testing.T, data []byte) sarifRun {
	t.Helper()
	var log struct {
		Runs []sarifRun `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v (%d runs)", err, len(log.Runs))
	}
	return log.Runs[0]
}

func prop(r map[string]any, k string) string { s, _ := r[k].(string); return s }

// TestAlertsStandAlone checks, over the examples and every replay, what GitHub shows: no two
// results that GitHub would merge, a tool event's text naming the tool and its command or file,
// every repair's before and after in some result's text, and titles that are not generic.
func TestAlertsStandAlone(t *testing.T) {
	results := 0
	for _, c := range viewCases(t) {
		res := c.run(t, DefaultFailOn)
		run := decodeRun(t, res.SARIF)
		seen := map[string]bool{}
		var texts []string
		for _, r := range run.Results {
			results++
			texts = append(texts, r.Message.Text)
			if h := r.PartialFingerprints["primaryLocationLineHash"]; h != "" {
				k := r.RuleID + " " + h
				if seen[k] {
					t.Errorf("%s: two results share ruleId and primaryLocationLineHash %s", c.name, k)
				}
				seen[k] = true
			} else {
				t.Errorf("%s: result of %s has no primaryLocationLineHash", c.name, r.RuleID)
			}
			if tool := prop(r.Properties, "tool"); tool != "" {
				if !strings.Contains(r.Message.Text, "Tool call: "+tool) {
					t.Errorf("%s: text does not name the tool %s:\n%s", c.name, tool, r.Message.Text)
				}
				what := prop(r.Properties, "command")
				if what == "" {
					what = prop(r.Properties, "filePath")
				}
				if what != "" && !strings.Contains(r.Message.Text, strings.TrimSuffix(findings.Clip(what, 60), "…")) {
					t.Errorf("%s: text does not name the command or file %q:\n%s", c.name, what, r.Message.Text)
				}
			}
		}
		all := strings.Join(texts, "\n")
		for _, f := range res.Findings {
			if f.Repair != nil && !strings.Contains(all, findings.RepairLine(f.Repair)) {
				t.Errorf("%s: no result names the repair %q", c.name, findings.RepairLine(f.Repair))
			}
		}
		for _, rule := range run.Tool.Driver.Rules {
			d := rule.ShortDescription.Text + rule.FullDescription.Text
			if strings.Contains(d, "`") || strings.HasPrefix(d, "Findings of") || strings.Contains(d, "seen") {
				t.Errorf("%s: rule %s has a generic or Markdown description: %q", c.name, rule.ID, d)
			}
			if strings.HasPrefix(rule.ID, "agc/") && (rule.HelpURI != "https://github.com/agc-sarif/agc-sarif#contract-checks" ||
				strings.Contains(rule.Help.Text, "DESIGN")) {
				t.Errorf("%s: rule %s: helpUri %q, help cites DESIGN: %v", c.name, rule.ID, rule.HelpURI, strings.Contains(rule.Help.Text, "DESIGN"))
			}
		}
		if c.name == "claude/pre-fold" {
			// A repair and a block of one rule at the hook's line: one alert, at the block's level.
			if len(run.Results) != 1 || !strings.Contains(run.Results[0].Message.Text, "block 1, repaired 1") ||
				prop(run.Results[0].Properties, "verdict") != "block" {
				t.Errorf("%s: want one folded result led by the block, got %d: %+v", c.name, len(run.Results), run.Results)
			}
		}
		if !run.Invocations[0].ExecutionSuccessful {
			t.Errorf("%s: executionSuccessful is false", c.name)
		}
	}
	if results < 30 {
		t.Errorf("only %d results over the testdata; the cases did not run", results)
	}
}

// TestLevelsFollowFailOn checks that a runtime block is an error exactly when --fail-on makes it
// fail the step, and that the findings that fail the step are the same whatever the levels.
func TestLevelsFollowFailOn(t *testing.T) {
	blocks := 0
	for _, c := range viewCases(t) {
		for _, failOn := range []string{DefaultFailOn, "block", "none", "contract,steer"} {
			res := c.run(t, failOn)
			want, _ := ParseFailOn(failOn)
			for i := range res.Findings {
				f := &res.Findings[i]
				if (f.Level == findings.Error) != Fails(want, f) {
					t.Errorf("%s --fail-on %s: %s (%s %s) is %s, fails: %v", c.name, failOn, f.RuleID, f.Kind, f.Verdict, f.Level, Fails(want, f))
				}
				if f.Kind == findings.RuntimeGate && f.Verdict == gates.Block {
					blocks++
				}
			}
			failed := len(res.Failed) > 0
			if c.name == "claude/pre-crash" && failed != (failOn != "none" && failOn != "block") {
				t.Errorf("%s --fail-on %s: failed %v (the crash is a contract error)", c.name, failOn, res.Failed)
			}
			run := decodeRun(t, res.SARIF)
			for _, r := range run.Results {
				v, kind := prop(r.Properties, "verdict"), prop(r.Properties, "kind")
				if v == "block" && kind != "judgment" && (r.Level == "error") != (failOn == "block") {
					t.Errorf("%s --fail-on %s: a %s block is %s", c.name, failOn, kind, r.Level)
				}
			}
		}
	}
	if blocks == 0 {
		t.Error("no runtime block in the testdata")
	}
}

func TestLevelOverride(t *testing.T) {
	over, err := ParseLevels([]string{"block=note", "steer=error, contract=note"})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ParseFailOn("block,contract")
	tests := []struct {
		f    findings.Finding
		want findings.Level
	}{
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Block}, findings.Note},
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Steer}, findings.Error},
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Repaired}, findings.Warning},
		{findings.Finding{Kind: findings.Contract, Severity: findings.Error}, findings.Note},
	}
	for _, tc := range tests {
		if got := LevelOf(want, over, &tc.f); got != tc.want {
			t.Errorf("LevelOf(%s %s) = %s, want %s", tc.f.Kind, tc.f.Verdict, got, tc.want)
		}
	}
	// The override changes the level, not what fails.
	f := findings.Finding{Kind: findings.Contract, Severity: findings.Error, Level: findings.Note}
	if !Fails(want, &f) {
		t.Error("a contract error with level note no longer fails --fail-on contract")
	}
	for _, bad := range []string{"block", "pass=error", "block=fatal", "=error"} {
		if _, err := ParseLevels([]string{bad}); err == nil {
			t.Errorf("ParseLevels(%q) accepted", bad)
		}
	}
}

// A gate's own severity still overrides its verdict's default (AGC 0.1), but never above what
// fails the step: only a failing finding is an error.
func TestGateSeverityBelowFailure(t *testing.T) {
	want, _ := ParseFailOn("judgment-block,contract")
	tests := []struct {
		f    findings.Finding
		want findings.Level
	}{
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Steer, Severity: findings.Warning}, findings.Warning},
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Block, Severity: findings.Note}, findings.Note},
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Block, Severity: findings.Error}, findings.Warning},
		{findings.Finding{Kind: findings.RuntimeGate, Verdict: gates.Block}, findings.Warning},
		{findings.Finding{Kind: findings.JudgmentGate, Verdict: gates.Block, Severity: findings.Note}, findings.Error},
		{findings.Finding{Kind: findings.Contract, Severity: findings.Warning}, findings.Warning},
	}
	for _, tc := range tests {
		if got := LevelOf(want, nil, &tc.f); got != tc.want {
			t.Errorf("LevelOf(%s %s severity %q) = %s, want %s", tc.f.Kind, tc.f.Verdict, tc.f.Severity, got, tc.want)
		}
	}
}
