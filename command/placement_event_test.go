package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlacementByEvent: a hook event is placed on its hook's line of .claude/settings.json
// whichever records are read: the transcript and stream-json of a JSON deny (which record no
// command) and the recorder's log (which names it) put it on the same line.
func TestPlacementByEvent(t *testing.T) {
	for _, c := range []string{"pre-deny", "pre-exit2-agc", "pre-crash", "post-block"} {
		t.Run(c, func(t *testing.T) {
			src := filepath.Join("..", "testdata", "claude", c)
			dir := t.TempDir()
			copyInto(t, src, dir, "run")
			settings, err := os.ReadFile(filepath.Join(src, "settings.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), settings, 0o644); err != nil {
				t.Fatal(err)
			}
			cmdLine, configured := 0, ""
			for i, l := range strings.Split(string(settings), "\n") {
				if strings.Contains(l, `"command"`) {
					cmdLine = i + 1
					var v map[string]string
					if err := json.Unmarshal([]byte("{"+strings.TrimSuffix(strings.TrimSpace(l), ",")+"}"), &v); err != nil {
						t.Fatal(err)
					}
					configured = v["command"]
				}
			}
			var want map[string]string
			sawHook := false
			for _, inputs := range [][]string{
				{"run/session.jsonl", "run/stream.jsonl"},
				{"run/session.jsonl", "run/stream.jsonl", "run/hook-log.jsonl"},
				{"run/hook-log.jsonl"},
				{"run/session.jsonl"},
				{"run/stream.jsonl"},
			} {
				got, named := placements(t, dir, inputs)
				sawHook = sawHook || len(named) > 0
				for _, h := range named {
					if h != configured {
						t.Errorf("%v: a message names the hook %q, want its configured command %q", inputs, h, configured)
					}
				}
				for rule, at := range got {
					if at != ".claude/settings.json:"+itoa(cmdLine) {
						t.Errorf("%v: %s placed at %s, want the hook's line .claude/settings.json:%d", inputs, rule, at, cmdLine)
					}
				}
				if want == nil {
					want = got
				}
				for rule, at := range want {
					if g, ok := got[rule]; ok && g != at {
						t.Errorf("%v: %s placed at %s, with other records at %s", inputs, rule, g, at)
					}
				}
			}
			if c == "pre-crash" && !sawHook {
				t.Errorf("no message named the crashed hook")
			}
		})
	}
}

// placements collects inputs in dir (its own root) and returns where each rule's result stands,
// and the hooks its messages name (hook "…").
func placements(t *testing.T, dir string, inputs []string) (map[string]string, []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Dir: dir, Getenv: func(string) string { return "" }}
	Main(context.Background(), append([]string{"agc-sarif", "collect", "--root", dir, "-o", "-", "--fail-on", "none"}, inputs...), env)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					Physical struct {
						Artifact struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, stderr.String())
	}
	out := map[string]string{}
	var hooks []string
	for _, r := range log.Runs[0].Results {
		l := r.Locations[0].Physical
		out[r.RuleID] = l.Artifact.URI + ":" + itoa(l.Region.StartLine)
		first, _, _ := strings.Cut(r.Message.Text, "\n")
		if _, rest, ok := strings.Cut(first, `ook "`); ok { // "Hook "…" did", "PreToolUse hook "…" crashed"
			for _, end := range []string{`" crashed`, `" timed out`, `" blocked`, `" answered`, `" exited`, `" rewrote`, `" sent`, `" failed`, `" was`, `" denied`} {
				if h, _, ok := strings.Cut(rest, end); ok {
					hooks = append(hooks, h)
					break
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%v: no results\n%s", inputs, stderr.String())
	}
	return out, hooks
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
