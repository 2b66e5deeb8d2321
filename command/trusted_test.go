package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrustedJudgmentRanksFirst: 6,000 judgment blocks an agent wrote into .agc beside one block
// of the reviewer's own output (the judgments input, read fail-closed): the reviewer's block is
// among the error annotations, in stderr's failure list, in the job summary and in the SARIF,
// and no output claims that every finding is in the SARIF file when some were left out.
func TestTrustedJudgmentRanksFirst(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".agc"), 0o755)
	var flood strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&flood, `{"agc":"0.1","gate":{"id":"junk-%d","kind":"judgment"},"verdict":"block","findings":[{"rule":"noise","message":"junk %d","location":{"path":"README.md","line":1}}]}`+"\n", i, i)
	}
	os.WriteFile(filepath.Join(ws, ".agc", "flood.jsonl"), []byte(flood.String()), 0o644)
	os.WriteFile(filepath.Join(ws, "README.md"), []byte("# r\n"), 0o644)
	review := "The change builds SQL from user input.\n\n```agc\n" +
		`{"agc":"0.1","gate":{"id":"trusted-review","kind":"judgment"},"verdict":"block","findings":[{"rule":"sql-injection","message":"User input reaches the query.","location":{"path":"README.md","line":1}}]}` +
		"\n```\n"
	os.WriteFile(filepath.Join(ws, "review.md"), []byte(review), 0o644)
	dir := t.TempDir()
	r := runActionEnv(t, ws, map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
		"INPUT_PATHS": ".agc", "INPUT_JUDGMENTS": "review.md", "INPUT_UPLOAD": "false", "INPUT_DIFF-FILTER": "nofilter",
	})
	if r.code != ExitFail {
		t.Fatalf("exit %d, want 1\nstderr:\n%.3000s", r.code, r.stderr)
	}
	var annotations []string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "::error") {
			annotations = append(annotations, l)
		}
	}
	_, failing, _ := strings.Cut(r.stderr, "failing on:")
	for where, text := range map[string]string{
		"the error annotations": strings.Join(annotations, "\n"), "stderr's failure list": failing,
		"the job summary": r.summary, "the SARIF": r.sarif,
	} {
		if !strings.Contains(text, "trusted-review") {
			t.Errorf("the reviewer's block is not in %s", where)
		}
	}
	if !strings.Contains(r.sarif, `"ruleId":"trusted-review/sql-injection"`) {
		t.Error("the SARIF has no result of the reviewer's block")
	}
	if !strings.Contains(r.summary, "left out") {
		t.Errorf("the summary does not say results were left out of the SARIF")
	}
	for where, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "the job summary": r.summary} {
		for _, claim := range []string{"all are in the SARIF", "all of them are in the SARIF", "holds every finding", "all of them are in agc-results.sarif"} {
			if strings.Contains(text, claim) {
				t.Errorf("%s claims %q while results were left out of the SARIF", where, claim)
			}
		}
	}
}
