package friction_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agc-sarif/agc-sarif/anchor"
	"github.com/agc-sarif/agc-sarif/collect"
	"github.com/agc-sarif/agc-sarif/friction"
)

// The replays of testdata/friction (see the README.md of each folder), records written by the real
// runtimes with their hooks wrapped by the real recorder agc-record:
//   - testdata/friction: Claude Code with a guard that blocks python, steers pytest and repairs an
//     absolute script path, a PermissionRequest hook, and calls refused by permissions;
//   - habit: Claude Code where one rule blocks `python …` three times with different arguments,
//     each retried as `python3 …`, and two Writes of Markdown files are prompted and denied;
//     habit/allowed: the same run with the allowlist entry the report gives;
//   - codex-habit: the same habit with the real Codex CLI.
const (
	replay = "../testdata/friction/"
	habit  = replay + "habit/"
	codex  = replay + "codex-habit/"
)

// report reads the named files of dir together (root: the repository) and returns the report.
func report(t *testing.T, dir, root string, files ...string) friction.Report {
	t.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, dir+f)
	}
	tl := friction.NewTap()
	rd, err := collect.Run(context.Background(), collect.Config{Paths: paths, Root: root,
		IncludeUnstructured: true, Redact: true, Dir: ".", Consumer: tl})
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Missing)+len(rd.Files.Unreadable)+len(rd.Set.Problems) > 0 {
		t.Fatalf("reading %v: missing %v, unreadable %v, problems %v", files, rd.Missing, rd.Files.Unreadable, rd.Set.Problems)
	}
	anc, err := anchor.New(anchor.Options{Root: rd.Root})
	if err != nil {
		t.Fatal(err)
	}
	rep := tl.Report(friction.Options{Paths: anc})
	var buf bytes.Buffer
	if err := friction.WriteJSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"ghp_0123456789", "/tmp/agc-replay", "/tmp/agc-codex-replay", "/etc/hostname", "<repo>"} {
		if strings.Contains(buf.String(), leak) {
			t.Errorf("%v: the report holds %q:\n%s", files, leak, buf.String())
		}
	}
	return rep
}

// byPattern indexes a report's patterns by what matched them.
func byPattern(rep friction.Report) map[string]friction.Pattern {
	out := map[string]friction.Pattern{}
	for _, p := range rep.Patterns {
		out[p.Pattern] = p
	}
	return out
}

// allowed is the permissions.allow entry the habit's second run was made with.
func allowed(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(habit + "allowed.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Permissions struct {
			Allow []string `json:"allow"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(b, &s); err != nil || len(s.Permissions.Allow) != 1 {
		t.Fatalf("allowed.json: %v %v", err, s)
	}
	return s.Permissions.Allow[0]
}

// TestReplayHabitFirst: the habit that cost the agent three blocks and three retries is one
// pattern, ranked first, a rewrite from python to python3 with the repair Claude Code takes; each
// prompted Write counts once, under the allowlist entry the second run was made with.
func TestReplayHabitFirst(t *testing.T) {
	rep := report(t, habit, habit+"files", "session.jsonl", "stream.jsonl", "hook-log.jsonl")
	if len(rep.Patterns) != 2 || rep.Calls != 8 || rep.Sessions != 1 {
		t.Fatalf("report %+v; want 8 calls in 1 session, 2 patterns", rep)
	}
	p := rep.Patterns[0]
	if p.Kind != friction.KindGate || p.Pattern != "shell-ladder/python3-only" || p.Commands != "python …" || p.Count != 3 ||
		p.Rungs.Block != 3 || p.Rungs.Denied != 0 || p.Retries != 3 || p.Turns != 3 || p.Suggest != friction.SuggestRewrite ||
		p.Before != "python" || p.After != "python3" {
		t.Errorf("first pattern %+v; want the python habit: 3 blocks, 3 retries, rewrite python → python3", p)
	}
	if p.Example == nil || p.Example.Before != "python scripts/build.py" || p.Example.After != "python3 scripts/build.py" {
		t.Errorf("example %+v; want the first real block and its retry", p.Example)
	}
	// The repair is the answer the gate should send: checked against each runtime's binding in
	// TestRepairAnswerAccepted.
	var answer struct {
		HSO struct {
			Event   string            `json:"hookEventName"`
			Input   map[string]string `json:"updatedInput"`
			Context string            `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if len(p.Repairs) != 1 || p.Repairs[0].Runtime != "claude-code" {
		t.Fatalf("repairs %+v; want one, for Claude Code", p.Repairs)
	}
	if err := json.Unmarshal([]byte(p.Repairs[0].Answer), &answer); err != nil || answer.HSO.Event != "PreToolUse" ||
		answer.HSO.Input["command"] != "python3 scripts/build.py" || !strings.Contains(answer.HSO.Context, `"verdict":"repaired"`) {
		t.Errorf("repair %s (%v)", p.Repairs[0].Answer, err)
	}
	w := rep.Patterns[1]
	if w.Kind != friction.KindPermission || w.Commands != "Write *.md" || w.Count != 2 || w.Rungs.Prompted != 2 || w.Rungs.Denied != 2 ||
		w.Suggest != friction.SuggestAllowlist || w.Allow != allowed(t) || w.AllowIn != "permissions.allow in .claude/settings.json" {
		t.Errorf("Write pattern %+v; want 2 calls prompted and denied once each, allow %q", w, allowed(t))
	}
	for _, e := range w.Examples {
		if e.Command != "Write NOTES.md" && e.Command != "Write CHANGES.md" {
			t.Errorf("Write example %q: want the path relative to the repository", e.Command)
		}
	}
}

// TestReplayHabitAllowedRun: with the report's entry in the settings, the second real run had no
// permission prompt or denial: both Writes went through, and only the python habit is left.
func TestReplayHabitAllowedRun(t *testing.T) {
	rep := report(t, habit+"allowed/", habit+"files", "session.jsonl", "stream.jsonl", "hook-log.jsonl")
	if len(rep.Patterns) != 1 || rep.Patterns[0].Pattern != "shell-ladder/python3-only" || rep.Calls != 8 {
		t.Errorf("allowed run: %+v; want only the python habit over the same 8 calls", rep)
	}
	for _, f := range []string{"hook-log.jsonl", "stream.jsonl"} {
		b, err := os.ReadFile(habit + "allowed/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(`"PermissionRequest"`)) || bytes.Contains(b, []byte(`"tool_name":"Write","tool_use_id"`)) {
			t.Errorf("allowed/%s still holds a Write prompt or denial", f)
		}
		if f == "stream.jsonl" && bytes.Count(b, []byte("File created successfully")) < 2 {
			t.Errorf("allowed/%s: the Writes did not go through", f)
		}
	}
}

// TestReplaySourcesAgree: the transcript, stream-json and the recorder's log, alone and together,
// give the same patterns and the same counts; a rung a source does not record (denials in the
// hook log, prompts in transcripts) is absent, never doubled.
func TestReplaySourcesAgree(t *testing.T) {
	type want struct{ calls, prompted, denied int }
	cases := []struct {
		files []string
		want  want
	}{
		{[]string{"session.jsonl"}, want{8, 0, 2}},
		{[]string{"stream.jsonl"}, want{8, 0, 2}},
		{[]string{"hook-log.jsonl"}, want{8, 2, 0}},
		{[]string{"session.jsonl", "stream.jsonl"}, want{8, 0, 2}},
		{[]string{"session.jsonl", "hook-log.jsonl"}, want{8, 2, 2}},
		{[]string{"session.jsonl", "stream.jsonl", "hook-log.jsonl"}, want{8, 2, 2}},
		{[]string{"hook-log.jsonl", "stream.jsonl", "session.jsonl", "hook-log.jsonl"}, want{8, 2, 2}},
	}
	for _, c := range cases {
		rep := report(t, habit, habit+"files", c.files...)
		all := byPattern(rep)
		py, w := all["shell-ladder/python3-only"], all["Edit(*.md)"]
		got := want{rep.Calls, w.Rungs.Prompted, w.Rungs.Denied}
		if got != c.want || len(rep.Patterns) != 2 || py.Count != 3 || py.Rungs.Block != 3 || py.Retries != 3 ||
			py.Suggest != friction.SuggestRewrite || w.Count != 2 || w.Suggest != friction.SuggestAllowlist {
			t.Errorf("%v: calls/prompted/denied %v, want %v; python %d calls %d blocks %d retries %s; Write %d calls %s",
				c.files, got, c.want, py.Count, py.Rungs.Block, py.Retries, py.Suggest, w.Count, w.Suggest)
		}
	}
}

// TestReplayCodexHabit: the same habit with the real Codex CLI, read from the recorder's log, from
// the rollout alone (which keeps the blocks as the model saw them), or from both: its calls, one
// pattern, a rewrite, and the repair Codex takes (sent with allow).
func TestReplayCodexHabit(t *testing.T) {
	b, err := os.ReadFile(codex + "rollout.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	calls := bytes.Count(b, []byte(`"type":"function_call"`)) // 6: three python blocks, three python3 retries
	for _, files := range [][]string{{"hook-log.jsonl"}, {"rollout.jsonl"}, {"rollout.jsonl", "events.jsonl", "hook-log.jsonl"}} {
		rep := report(t, codex, codex, files...)
		if rep.Calls != calls || rep.Sessions != 1 {
			t.Errorf("%v: %d calls in %d sessions; want the rollout's %d in 1", files, rep.Calls, rep.Sessions, calls)
		}
		if len(rep.Patterns) != 1 {
			t.Fatalf("%v: patterns %+v", files, rep.Patterns)
		}
		p := rep.Patterns[0]
		if p.Pattern != "shell-ladder/python3-only" || p.Runtime != "codex" || p.Count != 3 || p.Retries != 3 ||
			p.Suggest != friction.SuggestRewrite || p.Before != "python" || p.After != "python3" ||
			len(p.Repairs) != 1 || !strings.Contains(p.Repairs[0].Answer, `"permissionDecision":"allow","updatedInput":{"command":"python3 scripts/build.py"}`) {
			t.Errorf("%v: %+v", files, p)
		}
	}
}

// TestReplayLadder: the first replay's every rung — the python block ranks first as a rewrite,
// the permission-refused read-only pattern gets a read-only allow entry (narrower than the
// runtime's suggestion), the others a guard rule, and the repair and the steer rank last as the
// ladder working.
func TestReplayLadder(t *testing.T) {
	rep := report(t, replay, replay+"files", "session.jsonl", "stream.jsonl", "hook-log.jsonl")
	if p := rep.Patterns[0]; p.Pattern != "interpreter/use-python3" || p.Count != 3 || p.Retries != 3 || p.Suggest != friction.SuggestRewrite {
		t.Errorf("first pattern %+v", p)
	}
	all := byPattern(rep)
	moves := map[string][2]string{
		"Bash(gh pr *)":                {"allowlist", "Bash(gh pr view:*)"},
		"Bash(rm:*)":                   {"guard-rule", ""},
		"Read(<outside>)":              {"guard-rule", ""},
		"test-hygiene/use-make-test":   {"none", ""},
		"script-paths/relative-script": {"none", ""},
	}
	for pat, m := range moves {
		p, ok := all[pat]
		if !ok {
			t.Errorf("no pattern %q in %v", pat, rep.Patterns)
			continue
		}
		if p.Suggest != m[0] || p.Allow != m[1] || p.Count != 1 && pat != "Bash(gh pr *)" {
			t.Errorf("%s: %+v; want %s, allow %q", pat, p, m[0], m[1])
		}
	}
	last := rep.Patterns[len(rep.Patterns)-2:]
	if last[0].Suggest != friction.SuggestNone || last[1].Suggest != friction.SuggestNone {
		t.Errorf("the ladder working should rank last: %+v", last)
	}
	if p := all["script-paths/relative-script"]; p.Commands != "scripts/check.sh" {
		t.Errorf("the repaired script shows as %q; want its path relative to the repository", p.Commands)
	}
	for _, p := range rep.Patterns {
		if strings.HasPrefix(p.Commands, "curl") && !strings.Contains(p.Pattern+p.Examples[0].Command, "[REDACTED") {
			t.Errorf("curl not redacted: %+v", p)
		}
	}
}

// TestReplayRendered: the Markdown keeps Markdown (escaped agent text, the table, the repair in a
// code block) within its limit; the plain text has no Markdown escapes or entities.
func TestReplayRendered(t *testing.T) {
	rep := report(t, habit, habit+"files", "session.jsonl", "stream.jsonl", "hook-log.jsonl")
	md := friction.Markdown(rep, 0)
	for _, want := range []string{"## Friction", "| 1 | gate shell-ladder/python3-only | python … | 3 | 1 | block 3 | 3 | rewrite |",
		"correction: python → python3, e.g. python scripts/build.py → python3 scripts/build.py", "```json",
		"allow: add `Edit(*.md)` to permissions.allow in .claude/settings.json"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	text := friction.Text(rep)
	for _, want := range []string{"1. rewrite: gate shell-ladder/python3-only", `allow: add "Edit(*.md)" to permissions.allow in .claude/settings.json`,
		"Write *.md (Write), 2 calls in 1 session: prompted 2, denied 2"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "&lt;") || strings.Contains(text, `\*`) || strings.Contains(text, "```") {
		t.Errorf("text holds Markdown:\n%s", text)
	}
	small := friction.Markdown(rep, 1200)
	if len(small) > 1200 || !strings.Contains(small, "left out") {
		t.Errorf("Markdown(1200) is %d bytes or does not say what it left out:\n%s", len(small), small)
	}
}

// TestReplayAcrossSessions: the three real sessions together (Claude Code twice, whose replays
// number tool calls alike, and Codex) — the habit is one pattern of 9 calls in 3 sessions, ranked
// by its 9 retries, with a repair for each runtime; the Writes prompted in one session only.
func TestReplayAcrossSessions(t *testing.T) {
	tl := friction.NewTap()
	rd, err := collect.Run(context.Background(), collect.Config{Paths: []string{habit, codex}, Root: habit + "files",
		IncludeUnstructured: true, Redact: true, Dir: ".", Consumer: tl})
	if err != nil {
		t.Fatal(err)
	}
	anc, err := anchor.New(anchor.Options{Root: rd.Root})
	if err != nil {
		t.Fatal(err)
	}
	rep := tl.Report(friction.Options{Paths: anc})
	if rep.Sessions != 3 || rep.Calls != 22 || len(rep.Patterns) != 2 {
		t.Fatalf("report %+v; want 22 calls in 3 sessions, 2 patterns", rep)
	}
	p, w := rep.Patterns[0], rep.Patterns[1]
	if p.Pattern != "shell-ladder/python3-only" || p.Count != 9 || p.Sessions != 3 || p.Retries != 9 || p.Suggest != friction.SuggestRewrite ||
		len(p.Repairs) != 2 || p.Repairs[0].Runtime != "claude-code" || p.Repairs[1].Runtime != "codex" {
		t.Errorf("habit %+v; want 9 calls in 3 sessions, 9 retries, a repair for Claude Code and Codex", p)
	}
	if w.Pattern != "Edit(*.md)" || w.Count != 2 || w.Sessions != 1 {
		t.Errorf("Writes %+v; want 2 calls in 1 session (the allowed run was not prompted)", w)
	}
}

// TestDocsReport: the report shown in docs/friction.md is the real report of the habit replay, as
// the command gives it today (headings one level down).
func TestDocsReport(t *testing.T) {
	tl := friction.NewTap()
	rd, err := collect.Run(context.Background(), collect.Config{Paths: []string{"habit/session.jsonl", "habit/stream.jsonl", "habit/hook-log.jsonl"},
		Root: "habit/files", IncludeUnstructured: true, Redact: true, Dir: replay, Consumer: tl})
	if err != nil {
		t.Fatal(err)
	}
	anc, err := anchor.New(anchor.Options{Root: rd.Root})
	if err != nil {
		t.Fatal(err)
	}
	rep := tl.Report(friction.Options{Paths: anc})
	md := friction.Markdown(rep, 0)
	md = strings.Replace(md, "## Friction\n", "### Friction\n", 1)
	md = strings.ReplaceAll(md, "\n### ", "\n#### ")
	doc, err := os.ReadFile("../docs/friction.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), strings.TrimRight(md, "\n")+"\n") {
		t.Errorf("docs/friction.md does not show today's report of the habit replay; it is:\n%s", md)
	}
	// a limit that fits no pattern row leaves no table header behind: never an empty table
	tiny := friction.Markdown(rep, 400)
	if strings.Contains(tiny, "| # | Matched |") || !strings.Contains(tiny, "left out") {
		t.Errorf("Markdown(400) writes a table with no row, or does not say what it left out:\n%s", tiny)
	}
}

// TestGateThenDenied: a call a gate repaired that the runtime's permissions then refused is the
// gate's pattern, and its fix is no allowlist of the gate's pattern nor "read-only" (the real run
// testdata/friction/gate-then-denied, where pip install was rewritten and then denied).
func TestGateThenDenied(t *testing.T) {
	tl := friction.NewTap()
	dir := "gate-then-denied/"
	rd, err := collect.Run(context.Background(), collect.Config{Paths: []string{dir + "session.jsonl", dir + "stream.jsonl", dir + "hook-log.jsonl"},
		Root: dir + "files", IncludeUnstructured: true, Redact: true, Dir: replay, Consumer: tl})
	if err != nil {
		t.Fatal(err)
	}
	anc, err := anchor.New(anchor.Options{Root: rd.Root})
	if err != nil {
		t.Fatal(err)
	}
	rep := tl.Report(friction.Options{Paths: anc})
	found := false
	for _, p := range rep.Patterns {
		if p.Pattern != "nu-guard/hashes" {
			continue
		}
		found = true
		if p.Allow != "" || strings.Contains(p.Why, "read-only") || p.Suggest != friction.SuggestGuardRule || p.Rungs.Repaired != 1 || p.Rungs.Denied != 1 {
			t.Errorf("the repaired-then-denied pattern: %+v", p)
		}
	}
	if !found {
		t.Fatalf("no pattern nu-guard/hashes in %+v", rep.Patterns)
	}
}
