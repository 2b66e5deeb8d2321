package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agc-sarif/agc-sarif/internal/secrettest"
)

// planting is what one place of the corpus writes: records of a hook log, of an AGC JSONL file,
// files of their own, and paths to name.
type planting struct {
	ws        string
	hook, agc strings.Builder
	paths     []string
	fifos     int
	tags      []string // of hook records: each has its own hook, on its own line of the settings
}

// hookPath is the hook command of the records of one planting: every planting has its own hook,
// so that its findings are anchored on their own line and not merged with others'.
func hookPath(tag string) string { return "/home/dev/project/.claude/hooks/guard-" + tag + ".sh" }

// settings is .claude/settings.json with one hook line per planting.
func (p *planting) settings() string {
	var b strings.Builder
	b.WriteString(`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[` + "\n")
	for i, tag := range p.tags {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"type":"command","command":%q}`, hookPath(tag))
	}
	b.WriteString("\n]}]}}\n")
	return b.String()
}

// hookRec is a hook-log record of a PreToolUse Bash call that a guard blocked with an AGC text
// line naming the rule r<tag>, after mod changed it.
func (p *planting) hookRec(t *testing.T, tag string, mod func(rec, in, ti map[string]any)) {
	t.Helper()
	ti := map[string]any{"command": "make " + tag}
	in := map[string]any{"session_id": "s-" + tag, "cwd": "/home/dev/project", "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": ti, "tool_use_id": "toolu_" + tag}
	rec := map[string]any{"time": "2026-11-30T10:00:00Z", "runtime": "claude-code",
		"command": []string{hookPath(tag)}, "input": in, "exit_code": 2,
		"stdout": "", "stderr": "AGC block: guard/r" + tag + "/Bash.command — refused.\n", "duration_ms": 3.5}
	mod(rec, in, ti)
	p.tags = append(p.tags, tag)
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	p.hook.Write(b)
	p.hook.WriteString("\n")
}

// response is an AGC response of gate g with one finding of rule r<tag>, after mod changed it.
func response(tag string, mod func(resp, finding map[string]any)) map[string]any {
	f := map[string]any{"rule": "r" + tag, "message": "see " + tag, "location": map[string]any{"path": "README.md", "line": 1}}
	resp := map[string]any{"agc": "0.1", "gate": map[string]any{"id": "reviewer", "kind": "judgment"}, "verdict": "block",
		"findings": []any{f}}
	mod(resp, f)
	return resp
}

func jsonLine(v any) string {
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

// place is one field or spot of the inputs where an agent can put text that reaches an output.
type place struct {
	name  string
	fits  func(s secrettest.Secret) bool // nil: every shape
	plant func(t *testing.T, p *planting, tag, text string)
}

// oneLine and nameSafe say which shapes a place can hold.
func oneLine(s secrettest.Secret) bool { return s.OneLine() }
func nameSafe(s secrettest.Secret) bool {
	return s.OneLine() && !strings.ContainsAny(s.Text, "/\\\x00:*?\"<>|'`$,{}") && len(s.Text) < 180
}

// runtimePlaces are the places of a hook-log record.
func runtimePlaces() []place {
	set := func(field string) func(t *testing.T, p *planting, tag, text string) {
		return func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) { in[field] = text })
		}
	}
	agcStderr := func(t *testing.T, p *planting, tag string, mod func(resp, f map[string]any)) {
		r := response(tag, func(resp, f map[string]any) {
			resp["gate"] = map[string]any{"id": "guard", "kind": "runtime"}
			f["target"] = "Bash.command"
			delete(f, "location")
			mod(resp, f)
		})
		p.hookRec(t, tag, func(rec, in, ti map[string]any) { rec["stderr"] = jsonLine(r) })
	}
	return []place{
		{"command", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) { ti["command"] = text })
		}},
		{"session id", nil, set("session_id")},
		{"tool_use id", nil, set("tool_use_id")},
		{"tool name", nil, set("tool_name")},
		{"working folder", nil, set("cwd")},
		{"time", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) { rec["time"] = text })
		}},
		{"hook command", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) { rec["command"] = []string{"/bin/sh", "-c", text} })
		}},
		{"hook name (hook/<name>)", nameSafe, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				rec["command"] = []string{"/home/dev/project/.claude/hooks/" + text + ".sh"}
				rec["stderr"] = "refused\n"
			})
		}},
		{"file path of a call", nameSafe, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				in["tool_name"] = "Write"
				in["tool_input"] = map[string]any{"file_path": "/home/dev/project/" + text, "content": "x"}
				rec["stderr"] = "AGC block: guard/r" + tag + "/Write.content — refused.\n"
			})
		}},
		{"tool input (Write content)", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				in["tool_name"] = "Write"
				in["tool_input"] = map[string]any{"file_path": "/home/dev/project/README.md", "content": text}
				rec["stderr"] = "AGC block: guard/r" + tag + "/Write.content — refused.\n"
			})
		}},
		{"AGC text message", oneLine, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				rec["stderr"] = "AGC block: guard/r" + tag + "/Bash.command — " + text + "\n"
			})
		}},
		{"AGC message", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { f["message"] = text })
		}},
		{"gate id", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { resp["gate"].(map[string]any)["id"] = text })
		}},
		{"rule", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { f["rule"] = text })
		}},
		{"target", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { f["target"] = "Bash." + text })
		}},
		{"verdict (schema message)", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { resp["verdict"] = text })
		}},
		{"AGC version (schema message)", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { resp["agc"] = "7." + text })
		}},
		{"help uri", nil, func(t *testing.T, p *planting, tag, text string) {
			agcStderr(t, p, tag, func(resp, f map[string]any) { f["help_uri"] = "https://docs.example.com/" + text })
		}},
		{"additionalContext", oneLine, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				rec["exit_code"], rec["stderr"] = 0, ""
				rec["stdout"] = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
					"additionalContext": "AGC steer: guard/r" + tag + "/Bash.command — " + text}})
			})
		}},
		{"repair after", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				in["tool_name"] = "Write"
				in["tool_input"] = map[string]any{"file_path": "/home/dev/project/README.md", "content": "draft"}
				rec["exit_code"], rec["stderr"] = 0, ""
				rec["stdout"] = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
					"updatedInput":      map[string]any{"file_path": "/home/dev/project/README.md", "content": text},
					"additionalContext": "AGC repaired: guard/r" + tag + "/Write.content — the content was replaced."}})
			})
		}},
		{"repair before", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				in["tool_name"] = "Write"
				in["tool_input"] = map[string]any{"file_path": "/home/dev/project/README.md", "content": text}
				rec["exit_code"], rec["stderr"] = 0, ""
				rec["stdout"] = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
					"updatedInput":      map[string]any{"file_path": "/home/dev/project/README.md", "content": "fixed"},
					"additionalContext": "AGC repaired: guard/r" + tag + "/Write.content — the content was replaced."}})
			})
		}},
		{"stderr of a crash", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) { rec["exit_code"], rec["stderr"] = 1, text })
		}},
		{"stderr of a crash, past the cut", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				rec["exit_code"], rec["stderr"] = 1, tag+strings.Repeat(" pad", 66)+" "+text
			})
		}},
		{"command of a crash, past the cut", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				rec["exit_code"], rec["stderr"] = 1, "boom"
				ti["command"] = tag + strings.Repeat(" pad", 66) + " " + text
			})
		}},
		{"stderr of a block without AGC", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) { rec["stderr"] = text })
		}},
		{"deny reason", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				rec["exit_code"], rec["stderr"] = 0, ""
				rec["stdout"] = jsonLine(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
					"permissionDecision": "deny", "permissionDecisionReason": text}})
			})
		}},
		{"tool output quoted by a crash", nil, func(t *testing.T, p *planting, tag, text string) {
			p.hookRec(t, tag, func(rec, in, ti map[string]any) {
				in["hook_event_name"] = "PostToolUse"
				in["tool_response"] = map[string]any{"stdout": text}
				rec["exit_code"], rec["stderr"] = 1, "guard failed on output: "+text
			})
		}},
	}
}

// badLine writes an AGC file of its own (a reader lists only the first problems of a kind) with
// a good response, then the bad line.
func (p *planting) badLine(tag, line string) {
	good := jsonLine(response(tag, func(resp, f map[string]any) { resp["verdict"], resp["findings"] = "pass", []any{} }))
	os.WriteFile(filepath.Join(p.ws, ".agc", "bad-"+tag+".jsonl"), []byte(good+line+"\n"), 0o644)
}

// reviewerPlaces are the places of a reviewer's AGC JSONL and of files and paths.
func reviewerPlaces() []place {
	set := func(mod func(resp, f map[string]any, text string)) func(t *testing.T, p *planting, tag, text string) {
		return func(t *testing.T, p *planting, tag, text string) {
			p.agc.WriteString(jsonLine(response(tag, func(resp, f map[string]any) { mod(resp, f, text) })))
		}
	}
	return []place{
		{"reviewer message", nil, set(func(resp, f map[string]any, text string) { f["message"] = text })},
		{"reviewer gate id", nil, set(func(resp, f map[string]any, text string) { resp["gate"].(map[string]any)["id"] = text })},
		{"reviewer rule", nil, set(func(resp, f map[string]any, text string) { f["rule"] = text })},
		{"reviewer target", nil, set(func(resp, f map[string]any, text string) { f["target"] = "Doc." + text })},
		{"reviewer location path", nil, set(func(resp, f map[string]any, text string) {
			f["location"] = map[string]any{"path": "docs/" + text, "line": 3}
		})},
		{"reviewer response time", nil, set(func(resp, f map[string]any, text string) { resp["at"] = text })},
		{"examples of merged repeats", nil, func(t *testing.T, p *planting, tag, text string) {
			p.agc.WriteString(jsonLine(response(tag, func(resp, f map[string]any) { f["message"] = "first of " + tag })))
			p.agc.WriteString(jsonLine(response(tag, func(resp, f map[string]any) { f["message"] = text })))
		}},
		{"bad line (preview)", oneLine, func(t *testing.T, p *planting, tag, text string) {
			p.badLine(tag, text)
		}},
		{"bad line, past the preview's cut", oneLine, func(t *testing.T, p *planting, tag, text string) {
			p.badLine(tag, tag+" pad pad pad pad "+text)
		}},
		{"repository file named with it", nameSafe, func(t *testing.T, p *planting, tag, text string) {
			os.WriteFile(filepath.Join(p.ws, "notes", text), []byte("a\nb\nc\n"), 0o644)
			p.agc.WriteString(jsonLine(response(tag, func(resp, f map[string]any) {
				f["location"] = map[string]any{"path": "notes/" + text, "line": 2}
			})))
		}},
		{"input file name", nameSafe, func(t *testing.T, p *planting, tag, text string) {
			os.WriteFile(filepath.Join(p.ws, ".agc", text+".jsonl"), []byte(jsonLine(response(tag, func(resp, f map[string]any) {
				resp["verdict"] = "nonsense" // a schema problem names the file
			}))), 0o644)
		}},
		{"path that matches nothing", nameSafe, func(t *testing.T, p *planting, tag, text string) {
			p.paths = append(p.paths, "missing/"+text)
		}},
		{"unreadable input (a FIFO)", nameSafe, func(t *testing.T, p *planting, tag, text string) {
			if p.fifos < 8 { // a few: each is an error the run reports
				if syscall.Mkfifo(filepath.Join(p.ws, "fifo", text), 0o644) == nil {
					p.paths = append(p.paths, "fifo/"+text)
					p.fifos++
				}
			}
		}},
		{"judgment prose and block", nil, func(t *testing.T, p *planting, tag, text string) {
			name := "judgment-" + tag + ".md"
			body := "I looked at it: " + text + "\n\n```agc\n" + strings.TrimSpace(jsonLine(response(tag, func(resp, f map[string]any) { f["message"] = text }))) + "\n```\n"
			os.WriteFile(filepath.Join(p.ws, "reviews", name), []byte(body), 0o644)
			p.paths = append(p.paths, "reviews/"+name)
		}},
	}
}

// TestSecretsNeverReachOutputs plants every shape of the corpus in every place an agent can put
// text — fields of hook records, AGC responses, reviewer findings, file and path names, bad
// lines, texts past a cut — runs the action end to end, and greps every output (SARIF,
// annotations on stdout, stderr, the job summary, the step outputs) for each secret, whole and
// for its first 12 characters in any case. Each place must reach an output, or it proves nothing.
func TestSecretsNeverReachOutputs(t *testing.T) {
	shapes := secrettest.Planted()
	places := append(runtimePlaces(), reviewerPlaces()...)
	if len(shapes) < 60 || len(places) < 40 {
		t.Errorf("%d shapes in %d places, want at least 60 in 40", len(shapes), len(places))
	}
	var report []string
	for pi, pl := range places {
		t.Run(pl.name, func(t *testing.T) {
			seen, planted := plantAndGrep(t, pi, pl, shapes)
			report = append(report, fmt.Sprintf("%s %d/%d", pl.name, seen, planted))
		})
	}
	t.Logf("%d shapes, %d places; plantings seen in an output per place: %s", len(shapes), len(places), strings.Join(report, "; "))
}

// plantAndGrep plants every shape that fits in one place, runs the action, greps its outputs for
// the secrets, and returns how many plantings reached an output (their tags are seen) of how
// many were made.
func plantAndGrep(t *testing.T, pi int, pl place, shapes []secrettest.Secret) (seen, planted int) {
	ws := t.TempDir()
	for _, d := range []string{".agc", ".claude", "notes", "missing", "fifo", "reviews"} {
		os.MkdirAll(filepath.Join(ws, d), 0o755)
	}
	os.WriteFile(filepath.Join(ws, "README.md"), []byte("project\n"), 0o644)
	p := &planting{ws: ws}
	var tags []string
	for si, s := range shapes {
		if pl.fits != nil && !pl.fits(s) {
			continue
		}
		tag := fmt.Sprintf("p%02ds%02d", pi, si)
		pl.plant(t, p, tag, tag+" "+s.Text)
		tags = append(tags, tag)
	}
	os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), []byte(p.settings()), 0o644)
	os.WriteFile(filepath.Join(ws, ".agc", "hook-log.jsonl"), []byte(p.hook.String()), 0o600)
	os.WriteFile(filepath.Join(ws, ".agc", "responses.jsonl"), []byte(p.agc.String()), 0o600)
	dir := t.TempDir()
	vars := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "GITHUB_REPOSITORY": "octo/repo",
		"GITHUB_OUTPUT": filepath.Join(dir, "output.txt"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
		"INPUT_PATHS": strings.Join(append([]string{".agc"}, p.paths...), "\n"), "INPUT_UPLOAD": "false",
		"INPUT_MAX-ANNOTATIONS": "1000", "INPUT_DIFF-FILTER": "nofilter", "INPUT_FAIL-ON": "none",
	}
	r := runActionEnv(t, ws, vars)
	outputs, _ := json.Marshal(r.outputs)
	everything := map[string]string{"SARIF": r.sarif, "annotations (stdout)": r.stdout, "stderr": r.stderr,
		"job summary": r.summary, "outputs": string(outputs)}
	if r.sarif == "" {
		t.Fatalf("no SARIF (exit %d)\nstderr:\n%s", r.code, r.stderr)
	}
	leaks := 0
	for si, s := range shapes {
		if pl.fits != nil && !pl.fits(s) {
			continue
		}
		probe := strings.ToLower(s.Secret)
		if len(probe) > 12 {
			probe = probe[:12]
		}
		for name, out := range everything {
			if strings.Contains(out, s.Secret) || strings.Contains(strings.ToLower(out), probe) {
				if leaks++; leaks <= 10 {
					t.Errorf("shape %d (%s) reached the %s: %s", si, s.Category, name, around(out, s.Secret, probe))
				}
			}
		}
	}
	all := strings.Join([]string{r.sarif, r.stdout, r.stderr, r.summary, string(outputs)}, "\n")
	for _, tag := range tags {
		if strings.Contains(all, tag) {
			seen++
		}
	}
	if seen == 0 {
		t.Errorf("none of the %d plantings reached an output: the place tests nothing", len(tags))
	}
	return seen, len(tags)
}

// around shows where a leak stands in an output.
func around(out, secret, probe string) string {
	i := strings.Index(out, secret)
	if i < 0 {
		i = strings.Index(strings.ToLower(out), probe)
	}
	lo, hi := max(0, i-60), min(len(out), i+len(secret)+20)
	return fmt.Sprintf("…%q…", out[lo:hi])
}
