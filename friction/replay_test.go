package friction_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/friction"
	"github.com/agc-sarif/agc-sarif/summary"
)

// The replay of testdata/friction: the real Claude Code 2.1.332 with a guard that blocks python
// ("use python3"), steers pytest and repairs an absolute script path, a PermissionRequest hook,
// both wrapped by agc-record, and calls refused by permissions (see testdata/friction/README.md).
const replay = "../testdata/friction/"

// readReplay reads paths in one collect pass, as the action does, with a friction tap as its
// consumer; redaction is the run's.
func readReplay(t *testing.T, paths ...string) (*friction.Tap, *collect.Result) {
	t.Helper()
	tap := friction.NewTap()
	res, err := collect.Run(context.Background(), collect.Config{Paths: paths, Root: replay + "files",
		Redact: true, Dir: ".", Consumer: tap})
	if err != nil {
		t.Fatal(err)
	}
	return tap, res
}

// report reads the named replay files together and returns the report as its JSON decodes.
func report(t *testing.T, files ...string) map[string]any {
	t.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, replay+f)
	}
	tap, res := readReplay(t, paths...)
	if len(res.Missing)+len(res.Files.Unreadable)+len(res.Set.Problems) > 0 {
		t.Fatalf("reading %v: missing %v, unreadable %v, problems %v", files, res.Missing, res.Files.Unreadable, res.Set.Problems)
	}
	anc, err := anchor.New(anchor.Options{Root: res.Root})
	if err != nil {
		t.Fatal(err)
	}
	rep := tap.Report(friction.Options{Paths: anc})
	var buf bytes.Buffer
	if err := friction.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"ghp_0123456789", "/tmp/agc-replay", "/etc/hostname"} {
		if strings.Contains(buf.String(), leak) {
			t.Errorf("%v: the report holds %q:\n%s", files, leak, buf.String())
		}
	}
	var out map[string]any
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// patterns lists the report's recurring patterns and those seen once, by pattern text.
func patterns(rep map[string]any) ([]map[string]any, map[string]map[string]any) {
	var list []map[string]any
	all := map[string]map[string]any{}
	for _, key := range []string{"patterns", "once"} {
		for _, p := range rep[key].([]any) {
			m := p.(map[string]any)
			if key == "patterns" {
				list = append(list, m)
			}
			all[m["pattern"].(string)] = m
		}
	}
	return list, all
}

func rung(p map[string]any, name string) float64 { return p["rungs"].(map[string]any)[name].(float64) }

// TestReplayPythonFirst: read together, the python block ranks first, corrected the same way
// every time, so the move is a rewrite from python to python3.
func TestReplayPythonFirst(t *testing.T) {
	list, _ := patterns(report(t, "session.jsonl", "stream.jsonl", "hook-log.jsonl"))
	if len(list) == 0 {
		t.Fatal("no recurring pattern")
	}
	p := list[0]
	want := map[string]any{"pattern": "python <path>", "tool": "Bash", "count": 3.0, "retries": 3.0,
		"turns": 3.0, "suggest": "rewrite", "before": "python", "after": "python3"}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("first pattern %s = %v, want %v", k, p[k], v)
		}
	}
	if rung(p, "block") != 3 || rung(p, "denied") != 0 {
		t.Errorf("python rungs = %v, want block 3 and no denial (the blocks listed in permission_denials are the hook's)", p["rungs"])
	}
	if ex := p["examples"].([]any); len(ex) != 3 || !strings.HasPrefix(ex[0].(map[string]any)["command"].(string), "python ") {
		t.Errorf("python examples = %v", ex)
	}
}

// TestReplayEveryEventOnce: each source alone and all three together count every event once;
// a rung a source does not record (denials in the hook log, prompts in transcripts) is absent,
// never doubled.
func TestReplayEveryEventOnce(t *testing.T) {
	type counts map[string]map[string]float64 // pattern → rung → calls
	want := func(denied, prompted float64) counts {
		return counts{
			"python <path>":                     {"block": 3, "denied": 0, "prompted": 0},
			"gh pr view <value> --json <value>": {"denied": denied, "prompted": prompted},
			"pytest -q <value>":                 {"steer": 1},
			"<repo>/scripts/check.sh":           {"repaired": 1},
			"rm -rf <value>":                    {"denied": denied / 2, "prompted": prompted / 2},
			"Read <outside>/*":                  {"denied": denied / 2, "prompted": prompted / 2},
		}
	}
	cases := []struct {
		files []string
		want  counts
	}{
		{[]string{"session.jsonl"}, want(2, 0)},
		{[]string{"stream.jsonl"}, want(2, 0)},
		{[]string{"hook-log.jsonl"}, want(0, 2)},
		{[]string{"session.jsonl", "stream.jsonl", "hook-log.jsonl"}, want(2, 2)},
		{[]string{"hook-log.jsonl", "stream.jsonl", "session.jsonl", "hook-log.jsonl"}, want(2, 2)},
	}
	for _, c := range cases {
		_, all := patterns(report(t, c.files...))
		for pat, rungs := range c.want {
			p := all[pat]
			if p == nil {
				t.Errorf("%v: no pattern %q", c.files, pat)
				continue
			}
			for name, n := range rungs {
				if got := rung(p, name); got != n {
					t.Errorf("%v: %s %s = %v, want %v", c.files, pat, name, got, n)
				}
			}
		}
	}
}

// TestReplayMoves: the permission-refused read-only pattern gets its allow entry, the others a
// guard rule; the repair and the steer are the ladder working.
func TestReplayMoves(t *testing.T) {
	_, all := patterns(report(t, "session.jsonl", "hook-log.jsonl"))
	moves := map[string][2]string{
		"gh pr view <value> --json <value>": {"allowlist", "Bash(gh pr view:*)"},
		"rm -rf <value>":                    {"guard-rule", ""},
		"curl -H <value> <url>":             {"guard-rule", ""},
		"Read <outside>/*":                  {"guard-rule", ""},
		"<repo>/scripts/check.sh":           {"none", ""},
		"pytest -q <value>":                 {"none", ""},
	}
	for pat, m := range moves {
		p := all[pat]
		if p == nil {
			t.Errorf("no pattern %q", pat)
			continue
		}
		allow, _ := p["allow"].(string)
		if p["suggest"] != m[0] || allow != m[1] {
			t.Errorf("%s: suggest %v, allow %q; want %s, %q", pat, p["suggest"], allow, m[0], m[1])
		}
	}
	curl := all["curl -H <value> <url>"]["examples"].([]any)[0].(map[string]any)["command"].(string)
	if !strings.Contains(curl, "[REDACTED") {
		t.Errorf("curl example not redacted: %q", curl)
	}
}

// TestReplayMarkdown: the section renders the ranking with its evidence and stays in its limit.
func TestReplayMarkdown(t *testing.T) {
	tap, res := readReplay(t, replay+"stream.jsonl")
	anc, err := anchor.New(anchor.Options{Root: res.Root})
	if err != nil {
		t.Fatal(err)
	}
	rep := tap.Report(friction.Options{Paths: anc})
	md := friction.Markdown(rep, 0)
	// Expected texts go through the summary's own escaping, so that they follow it.
	for _, want := range []string{"## Friction", "| " + summary.Cell("python <path>") + " | Bash | 3 | block 3 | 3 | 3 | rewrite",
		"python → python3", "allow " + summary.Cell("Bash(gh pr view:*)"), "**Seen once**",
		summary.Cell("rm -rf <value>") + " (Bash): denied 1; guard rule"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	small := friction.Markdown(rep, 700)
	if len(small) > 700 || !strings.Contains(small, "left out") {
		t.Errorf("Markdown(700) is %d bytes or does not say what it left out:\n%s", len(small), small)
	}
}
