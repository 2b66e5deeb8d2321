package collect

import "testing"

// TestMatrixCategory uses codeql-action's own vectors (src/actions-util.test.ts,
// computeAutomationID), where its form is ours, and ours where we differ (numbers, booleans).
func TestMatrixCategory(t *testing.T) {
	env := map[string]string{
		"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/codeql-analysis.yml@refs/heads/main",
		"GITHUB_JOB":          "analyze",
	}
	const key = "agc:.github/workflows/codeql-analysis.yml:analyze/"
	tests := []struct{ matrix, category, want string }{
		{`{"language": "javascript", "os": "linux"}`, "", key + "language:javascript/os:linux/"},
		{`{"os": "linux", "language": "javascript"}`, "", key + "language:javascript/os:linux/"},
		{`{}`, "", key},
		{``, "", key},
		{`null`, "", key},
		{`not json`, "", key},
		{`{"object": {"language": "javascript"}, "list": [1], "nil": null}`, "", key + "list:/nil:/object:/"},
		{`{"node": 18, "experimental": false}`, "", key + "experimental:false/node:18/"},
		{`{"a+": "x", "a": "y"}`, "", key + "a+:x/a:y/"}, // JavaScript sorts "a+,x" before "a,y"
		{`{"os": "linux"}`, "mine", "mine/"},             // the category input always wins
		{`{"os": "linux"}`, "mine/x", "mine/x"},
	}
	for _, tc := range tests {
		cfg := Config{Category: tc.category, Matrix: tc.matrix, Getenv: func(k string) string { return env[k] }}
		if got := category(cfg); got != tc.want {
			t.Errorf("category(matrix %s, category %q) = %q, want %q", tc.matrix, tc.category, got, tc.want)
		}
	}
	// Without a workflow path (a local run, act, an old GHES) the legs must still differ.
	if got := category(Config{Matrix: `{"os": "linux"}`, Getenv: func(string) string { return "" }}); got != "agc/os:linux/" {
		t.Errorf("without GITHUB_WORKFLOW_REF: %q, want agc/os:linux/", got)
	}
	if got := category(Config{Getenv: func(string) string { return "" }}); got != "agc/" {
		t.Errorf("no matrix, no workflow: %q, want agc/", got)
	}
}
